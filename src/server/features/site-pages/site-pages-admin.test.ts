import { describe, expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";
import { renderPage } from "#tests/support/page.ts";
import { readSitemap } from "#tests/support/sitemap.ts";

const edit = {
  title: "Our terms",
  description: "The rules of this site, written by its owner.",
  bodyMarkdown: "Be kind.",
};

describe("resetting a built-in page", () => {
  test("puts back the shipped text and title, on the admin's side and the visitors'", async () => {
    const { request, asAdmin } = await adminApp();
    const shipped = await (await asAdmin("/api/admin/site-page/terms")).json();
    expect((await asAdmin("/api/admin/site-page/terms", { method: "PUT", json: edit })).status).toBe(200);
    expect((await renderPage(request, "/terms")).text).toContain("Be kind.");

    const res = await asAdmin("/api/admin/site-page/terms/reset", { method: "POST" });
    expect(res.status).toBe(200);
    const reset = await res.json();
    expect(reset).toMatchObject({ title: shipped.title, bodyMarkdown: shipped.bodyMarkdown, convertedFromHtml: false });
    const page = await renderPage(request, "/terms");
    expect(page.text).not.toContain("Be kind.");
    expect(page.text).toContain("Questions about these terms go to the person or business that runs");
  });

  test("a page without a shipped text: 404 that says which pages have one", async () => {
    const { asAdmin } = await adminApp();
    const res = await asAdmin("/api/admin/site-page/about/reset", { method: "POST" });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toContain("built-in pages");
  });

  test("signed out: 401, nothing changes", async () => {
    const { request, asAdmin } = await adminApp();
    await asAdmin("/api/admin/site-page/terms", { method: "PUT", json: edit });
    const res = await request("/api/admin/site-page/terms/reset", {
      method: "POST",
      headers: { origin: "http://localhost" },
    });
    expect(res.status).toBe(401);
    expect((await renderPage(request, "/terms")).text).toContain("Be kind.");
  });
});

const about = {
  slug: "about-us",
  title: "About us",
  description: "Who writes this guide, and why it exists.",
  bodyMarkdown: "We are two former models who write what we wish we had known.",
  inFooter: true,
};

describe("added pages", () => {
  test("an added page answers at its address, is linked from every footer, and can be deleted", async () => {
    const { request, asAdmin } = await adminApp();
    expect((await request("/about-us")).status).toBe(404);
    const res = await asAdmin("/api/admin/site-pages", { method: "POST", json: about });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ slug: "about-us", builtIn: false, inFooter: true });

    const page = await renderPage(request, "/about-us");
    expect(page.status).toBe(200);
    expect(page.main().getByRole("heading", { level: 1 }).textContent).toBe("About us");
    expect(page.text).toContain("two former models");
    const home = await renderPage(request, "/learn");
    expect(home.screen.getByRole("link", { name: "About us" }).getAttribute("href")).toBe("/about-us");

    const list = await (await asAdmin("/api/admin/site-pages")).json();
    expect(list.map((p: { slug: string; builtIn: boolean }) => [p.slug, p.builtIn])).toEqual([
      ["privacy", true],
      ["terms", true],
      ["about-us", false],
    ]);

    // Out of the footer, still at its address.
    await asAdmin("/api/admin/site-page/about-us", {
      method: "PUT",
      json: { ...about, slug: undefined, inFooter: false },
    });
    expect((await renderPage(request, "/learn")).screen.queryByRole("link", { name: "About us" })).toBeNull();
    expect((await request("/about-us")).status).toBe(200);

    const deleted = await asAdmin("/api/admin/site-page/about-us", { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect((await request("/about-us")).status).toBe(404);
  });

  test("an added page is in the sitemap, once", async () => {
    const { request, asAdmin } = await adminApp({ publicUrl: "https://guide.example" });
    expect((await asAdmin("/api/admin/site-pages", { method: "POST", json: about })).status).toBe(201);
    // Across the index's every part: the pages' part lists it, no other part does.
    const { locs } = await readSitemap(request, "https://guide.example");
    expect(locs.filter((loc) => loc === "https://guide.example/about-us")).toHaveLength(1);
    expect(locs.filter((loc) => loc === "https://guide.example/terms")).toHaveLength(1);
  });

  test("an address the site uses, or another page holds, is refused at the field with a 409", async () => {
    const { asAdmin } = await adminApp();
    for (const slug of ["quiz", "blog", "admin", "api", "go", "learn-more", "terms", "new", "sitemap-posts-extra"]) {
      const res = await asAdmin("/api/admin/site-pages", { method: "POST", json: { ...about, slug } });
      expect(res.status).toBe(409);
      expect(JSON.stringify(await res.json())).toContain(`/${slug}`);
    }
    expect((await asAdmin("/api/admin/site-pages", { method: "POST", json: about })).status).toBe(201);
    const again = await asAdmin("/api/admin/site-pages", { method: "POST", json: about });
    expect(again.status).toBe(409);
    expect(JSON.stringify(await again.json())).toContain("A page at /about-us exists: choose another address");
  });

  test("an address that is not lowercase words joined by hyphens: 422 that says what fits", async () => {
    const { asAdmin } = await adminApp();
    for (const slug of ["About", "about us", "about/us", "-about", "about--us", "", "a".repeat(61), "über"]) {
      const res = await asAdmin("/api/admin/site-pages", { method: "POST", json: { ...about, slug } });
      expect(res.status).toBe(422);
      expect(JSON.stringify(await res.json())).toContain("lowercase letters, digits and single hyphens");
    }
  });

  test("the built-in pages cannot be deleted: 409 that points to Reset", async () => {
    const { request, asAdmin } = await adminApp();
    const res = await asAdmin("/api/admin/site-page/privacy", { method: "DELETE" });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toContain("reset");
    expect((await request("/privacy")).status).toBe(200);
    expect((await asAdmin("/api/admin/site-page/nothing-here", { method: "DELETE" })).status).toBe(404);
  });
});
