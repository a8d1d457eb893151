// The admin dashboard's addresses as the server answers them: every section renders (the
// session is checked in the browser), nothing is cached, no admin data is in the HTML.
import { describe, expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";
import { renderPage } from "#tests/support/page.ts";

const ADDRESSES = [
  "/admin",
  "/admin/posts",
  "/admin/posts/new",
  "/admin/posts/1",
  "/admin/categories",
  "/admin/offers",
  "/admin/offers/new",
  "/admin/offers/1",
  "/admin/products",
  "/admin/settings",
];

describe("admin addresses", () => {
  test("each answers 200 with the session check, never from the cache, with no admin data, signed in or not", async () => {
    const { request, asAdmin, cookie } = await adminApp();
    const draft = "A draft only the admin may read";
    const made = await asAdmin("/api/admin/blog/post", {
      method: "POST",
      json: { title: draft, slug: "admin-only-draft", content: "<p>Secret</p>", published: false },
    });
    expect(made.status).toBeLessThan(300);
    for (const headers of [{}, { cookie }] as Record<string, string>[]) {
      for (const path of ADDRESSES) {
        for (let twice = 0; twice < 2; twice++) {
          const page = await renderPage(request, path, { headers });
          expect([path, page.status, page.headers.get("x-cache")]).toEqual([path, 200, null]);
          expect(page.main().getByRole("status").textContent).toBe("Checking your session...");
          expect(page.meta("robots")).toBe("noindex");
          expect(page.html).not.toContain(draft);
          expect(page.html).not.toContain("/api/admin/");
        }
      }
    }
  });

  test("an unknown section, or an id where a section has no editor, is the not-found page", async () => {
    const { request, cookie } = await adminApp();
    for (const path of ["/admin/nope", "/admin/categories/1", "/admin/settings/new", "/admin/posts/1/more"]) {
      const page = await renderPage(request, path, { headers: { cookie } });
      expect([path, page.status]).toEqual([path, 404]);
      expect(page.html).not.toContain("Checking your session...");
    }
  });
});
