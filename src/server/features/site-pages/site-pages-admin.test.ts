import { describe, expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";
import { renderPage } from "#tests/support/page.ts";

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
