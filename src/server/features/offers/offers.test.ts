import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { MODULE_IDS } from "#shared/features/course/constants.ts";

const PUBLIC_FIELDS = ["description", "embedCode", "id", "imageUrl", "linkText", "linkUrl", "title", "useEmbed", "videoUrl"];

describe("GET /api/module/:id/affiliate-offers", () => {
  test.each(MODULE_IDS)("module %i: at least one active offer, public fields only", async (id) => {
    const { request } = testApp();
    const res = await request(`/api/module/${id}/affiliate-offers?fullRandom=true&t=${Date.now()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const offers = await res.json();
    expect(offers.length).toBeGreaterThanOrEqual(1);
    for (const offer of offers) expect(Object.keys(offer).sort()).toEqual(PUBLIC_FIELDS);
  });

  test("only active offers of that module, newest first", async () => {
    const { request, database } = testApp();
    database.sqlite.run("INSERT INTO affiliate_offers (title, description, link_url, module_id, is_active, created_at) VALUES ('Hidden', 'inactive offer', 'https://x.example', 3, 0, 9999999999999)");
    database.sqlite.run("INSERT INTO affiliate_offers (title, description, link_url, module_id, is_active, created_at) VALUES ('Newest', 'active offer', 'https://x.example', 3, 1, 9999999999999)");
    database.sqlite.run("INSERT INTO affiliate_offers (title, description, link_url, module_id, is_active) VALUES ('Other module', 'active', 'https://x.example', 4, 1)");
    const offers = await (await request("/api/module/3/affiliate-offers")).json();
    const titles = offers.map((o: { title: string }) => o.title);
    expect(titles[0]).toBe("Newest");
    expect(titles).not.toContain("Hidden");
    expect(titles).not.toContain("Other module");
  });

  test("fullRandom returns the same set in random order", async () => {
    const { request, database } = testApp();
    for (let i = 0; i < 6; i++) {
      database.sqlite.run(`INSERT INTO affiliate_offers (title, description, link_url, module_id, is_active) VALUES ('Extra ${i}', 'active offer', 'https://x.example', 7, 1)`);
    }
    const ordered = (await (await request("/api/module/7/affiliate-offers")).json()).map((o: { id: number }) => o.id);
    const orders = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const ids = (await (await request("/api/module/7/affiliate-offers?fullRandom=true")).json()).map((o: { id: number }) => o.id);
      expect([...ids].sort()).toEqual([...ordered].sort());
      orders.add(ids.join());
    }
    // 7 offers: twenty shuffles that all came out the same would be a broken shuffle.
    expect(orders.size).toBeGreaterThan(1);
  });

  test("a module with no active offers answers an empty list", async () => {
    const { request, database } = testApp();
    database.sqlite.run("UPDATE affiliate_offers SET is_active = 0 WHERE module_id = 9");
    expect(await (await request("/api/module/9/affiliate-offers?fullRandom=true")).json()).toEqual([]);
  });

  test.each(["abc", "0", "11", "-1", "1.5", "01", "%20", "99999999999"])("module id %p: 422 with a clear message", async (id) => {
    const { request } = testApp();
    const res = await request(`/api/module/${id}/affiliate-offers`);
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("Module id must be a whole number from 1 to 10.");
  });

  test.each(["POST", "PUT", "DELETE"])("%s is not allowed: 404, nothing changes", async (method) => {
    const { request, database } = testApp();
    const before = database.sqlite.query("SELECT count(*) AS n FROM affiliate_offers").get();
    const res = await request("/api/module/1/affiliate-offers", { method, body: "{}", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(404);
    expect(database.sqlite.query("SELECT count(*) AS n FROM affiliate_offers").get()).toEqual(before);
  });
});

describe("GET /embed/offer/:id (DECISIONS P15)", () => {
  test("serves an active embed offer's code in a sandboxed document", async () => {
    const { request, database } = testApp();
    const { id } = database.sqlite.query("SELECT id FROM affiliate_offers WHERE use_embed = 1 AND is_active = 1 LIMIT 1").get() as { id: number };
    const res = await request(`/embed/offer/${id}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toStartWith("sandbox allow-scripts allow-popups");
    expect(csp).not.toContain("allow-same-origin");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toContain("<script>");
  });

  test.each([
    ["1", 404],
    ["999", 404],
    ["abc", 422],
  ])("not an active embed offer (%s): %i, no embed", async (id, status) => {
    const { request } = testApp();
    const res = await request(`/embed/offer/${id}`);
    expect(res.status).toBe(status);
    // The site's own strict policy, not the embed document's.
    expect(res.headers.get("content-security-policy")).toStartWith("default-src 'self'");
  });

  test("an inactive embed offer is not served", async () => {
    const { request, database } = testApp();
    database.sqlite.run("UPDATE affiliate_offers SET is_active = 0 WHERE use_embed = 1");
    const { id } = database.sqlite.query("SELECT id FROM affiliate_offers WHERE use_embed = 1 LIMIT 1").get() as { id: number };
    expect((await request(`/embed/offer/${id}`)).status).toBe(404);
  });
});
