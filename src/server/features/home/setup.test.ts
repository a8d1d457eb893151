import { describe, expect, test } from "bun:test";
import { backupRuns } from "#server/features/backups/table.ts";
import type { AdminHome } from "#shared/features/home/contract.ts";
import { SETUP_ITEMS } from "#shared/features/home/setup.ts";
import { adminApp } from "#tests/support/admin.ts";
import { settingsInput } from "#tests/support/admin-inputs.ts";
import { isPlainShopSearch } from "./setup.ts";

/** A seeded site as a new owner finds it, and its checklist's open items. */
async function setupApp() {
  const t = await adminApp();
  const items = async () => {
    const res = await t.asAdmin("/api/admin/home");
    expect(res.status).toBe(200);
    return ((await res.json()) as AdminHome).setup;
  };
  return { ...t, items, ids: async () => (await items()).map((item) => item.id) };
}

describe("a product link that pays the site nothing", () => {
  test.each([
    ["https://www.amazon.com/s?k=ring+light", true],
    ["https://www.bestbuy.com/site/searchpage.jsp?st=usb+microphone", true],
    ["https://shop.example/search?q=webcam", true],
    ["https://www.amazon.com/s?k=ring+light&tag=mysite-20", false],
    ["https://shop.example/ring-light?ref=mysite", false],
    ["https://shop.example/ring-light", false],
    ["not an address", false],
  ])("%s: a plain shop search %p", (address, plain) => {
    expect(isPlainShopSearch(address)).toBe(plain);
  });
});

describe("the setup checklist on the admin home", () => {
  test("a new site lists what it still shows as shipped, each with where it is fixed", async () => {
    const t = await setupApp();
    const items = await t.items();
    // Every item in the home's order; behind no proxy, the proxy item is not among them.
    expect(items.map((item) => item.id)).toEqual(SETUP_ITEMS.filter((id) => id !== "proxy"));
    const byId = Object.fromEntries(items.map((item) => [item.id, item]));
    expect(byId.platforms?.detail).toContain("“Platform One” and “Platform Two” are placeholders");
    expect(byId.products?.detail).toMatch(/^42 product links are a plain shop search with no affiliate tag/);
    expect(byId.offers?.detail).toMatch(/^\d+ offers still name the placeholder platforms/);
    expect(byId.claims?.detail).toContain(
      "the income figure, the models-helped figure, the testimonial, the banner sentence",
    );
    expect(Object.fromEntries(items.map((item) => [item.id, item.href]))).toMatchObject({
      platforms: "/admin/settings",
      offers: "/admin/offers",
      products: "/admin/products",
      backup: "/admin/backups",
    });
  });

  test("an item goes once it is fixed: real platforms, the operator published, a backup made", async () => {
    const t = await setupApp();
    const saved = await t.asAdmin("/api/admin/settings", {
      method: "PUT",
      json: { ...settingsInput(), operatorName: "Jane Doe Media Ltd", operatorContact: "owner@guide.test" },
    });
    expect(saved.status).toBe(200);
    await t.db.insert(backupRuns).values({ trigger: "manual", status: "ok", finishedAt: new Date(), size: 1024 });
    const ids = await t.ids();
    for (const gone of ["platforms", "claims", "operator"]) expect(ids).not.toContain(gone);
    expect(ids).toContain("offers");
  });

  test("'this is right for my site' puts an item away for good; an unknown item is refused and changes nothing", async () => {
    const t = await setupApp();
    const confirmed = await t.asAdmin("/api/admin/home/setup/claims", { method: "PUT" });
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as AdminHome).setup.map((item) => item.id)).not.toContain("claims");
    expect(await t.ids()).not.toContain("claims");
    // Again: still one confirmation, still gone.
    expect((await t.asAdmin("/api/admin/home/setup/claims", { method: "PUT" })).status).toBe(200);

    const before = await t.ids();
    const unknown = await t.asAdmin("/api/admin/home/setup/everything", { method: "PUT" });
    expect(unknown.status).toBe(422);
    expect(await unknown.text()).toContain("The checklist's items are: platforms, offers");
    expect(await t.ids()).toEqual(before);
  });

  test("without the admin's session: 401, and nothing is confirmed", async () => {
    const t = await setupApp();
    const res = await t.request("/api/admin/home/setup/claims", {
      method: "PUT",
      headers: { origin: "http://localhost" },
    });
    expect(res.status).toBe(401);
    expect(await t.ids()).toContain("claims");
  });
});
