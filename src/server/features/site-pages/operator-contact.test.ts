import { describe, expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";
import { settingsInput } from "#tests/support/admin-inputs.ts";
import { renderPage } from "#tests/support/page.ts";

describe("the legal pages name the operator from Settings", () => {
  test("while unset they say so, never pointing to contact details that do not exist", async () => {
    const { request } = await adminApp();
    for (const path of ["/terms", "/privacy"]) {
      const page = await renderPage(request, path);
      expect(page.text).toContain("The operator has not published their name or contact details here yet.");
      expect(page.text).not.toContain("contact details published at");
    }
  });

  test("a saved name and email show on both pages, the email as a mail link", async () => {
    const { request, asAdmin } = await adminApp();
    // Rendered once, so the cached page must make way for the new details.
    expect((await renderPage(request, "/terms")).text).toContain("has not published");
    const saved = await asAdmin("/api/admin/settings", {
      method: "PUT",
      json: settingsInput({ operatorName: "  Jane Doe Media Ltd ", operatorContact: "owner@guide.example" }),
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({
      operatorName: "Jane Doe Media Ltd",
      operatorContact: "owner@guide.example",
    });
    for (const path of ["/terms", "/privacy"]) {
      const page = await renderPage(request, path);
      expect(page.text).toContain("That is Jane Doe Media Ltd, reachable at owner@guide.example.");
      expect(page.document.querySelector('a[href="mailto:owner@guide.example"]')).not.toBeNull();
    }
  });

  test("a web address is linked as it is; a name alone says the contact is still missing", async () => {
    const { request, asAdmin } = await adminApp();
    await asAdmin("/api/admin/settings", {
      method: "PUT",
      json: settingsInput({ operatorContact: "https://guide.example/contact" }),
    });
    let page = await renderPage(request, "/terms");
    expect(page.text).toContain("They can be reached at https://guide.example/contact.");
    expect(page.document.querySelector('a[href="https://guide.example/contact"]')).not.toBeNull();
    await asAdmin("/api/admin/settings", {
      method: "PUT",
      json: settingsInput({ operatorName: "Jane <b>Doe</b>", operatorContact: "" }),
    });
    page = await renderPage(request, "/privacy");
    expect(page.text).toContain("That is Jane <b>Doe</b>, who has not published contact details here yet.");
  });

  test("a contact that is neither an email nor a web address is refused with a 422 that says what fits", async () => {
    const { asAdmin } = await adminApp();
    for (const operatorContact of ["call me", "javascript:alert(1)", "owner@", "ftp://guide.example"]) {
      const res = await asAdmin("/api/admin/settings", { method: "PUT", json: settingsInput({ operatorContact }) });
      expect(res.status).toBe(422);
      expect(JSON.stringify(await res.json())).toContain("must be an email address");
    }
    const kept = await (await asAdmin("/api/admin/settings")).json();
    expect(kept.operatorContact).toBe("");
  });
});
