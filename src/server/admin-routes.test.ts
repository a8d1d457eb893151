import { describe, expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";

const post = { title: "A New Post", slug: "a-new-post", content: "<p>Hello <script>x()</script></p>", excerpt: "Short teaser", category: "tips-and-tricks", coverImage: null, published: true, metaDescription: "", metaKeywords: "" };
const offer = { title: "Offer", description: "Offer text", imageUrl: null, videoUrl: "https://youtu.be/dQw4w9WgXcQ", useEmbed: false, embedCode: null, linkUrl: "https://example.com/x", linkText: "Go", moduleId: 2, isActive: true };
const product = { id: "custom_ab12cd34", name: "Ring light", description: "A soft, even light for your face.", link: "https://example.com/ring", price: "$40", badge: "ESSENTIAL", archetype: "Couple", isDefault: false, moduleId: null };
const settings = { brandName: "Velvet Start", platformA: { name: "Alpha", url: "https://alpha.example" }, platformB: { name: "Beta", url: "https://beta.example" }, bannerPlatform: "b" };

// Every admin endpoint: method, path, a valid body, and what proves it worked.
const endpoints: { name: string; method: string; path: string; body?: unknown }[] = [
  { name: "list posts", method: "GET", path: "/api/admin/blog/posts" },
  { name: "create post", method: "POST", path: "/api/admin/blog/post", body: post },
  { name: "update post", method: "PUT", path: "/api/admin/blog/post/1", body: post },
  { name: "delete post", method: "DELETE", path: "/api/admin/blog/post/1" },
  { name: "create category", method: "POST", path: "/api/admin/blog/category", body: { name: "Safety", slug: "safety" } },
  { name: "delete category", method: "DELETE", path: "/api/admin/blog/category/1" },
  { name: "list offers", method: "GET", path: "/api/admin/affiliate-offers" },
  { name: "create offer", method: "POST", path: "/api/admin/affiliate-offer", body: offer },
  { name: "update offer", method: "PUT", path: "/api/admin/affiliate-offer/1", body: offer },
  { name: "delete offer", method: "DELETE", path: "/api/admin/affiliate-offer/1" },
  { name: "list products", method: "GET", path: "/api/admin/recommended-products" },
  { name: "create product", method: "POST", path: "/api/admin/recommended-product", body: product },
  { name: "update product", method: "PUT", path: "/api/admin/recommended-product/essential-key-light", body: product },
  { name: "delete product", method: "DELETE", path: "/api/admin/recommended-product/essential-key-light" },
  { name: "read settings", method: "GET", path: "/api/admin/settings" },
  { name: "update settings", method: "PUT", path: "/api/admin/settings", body: settings },
  { name: "upload", method: "POST", path: "/api/upload" },
];

function snapshot(sqlite: { query(q: string): { all(): unknown[] } }) {
  return ["blog_posts", "blog_categories", "affiliate_offers", "recommended_products", "site_settings"].map((t) => sqlite.query(`SELECT * FROM ${t}`).all());
}

describe("admin API without the session", () => {
  test.each(endpoints)("$name ($method $path): 401, nothing changes", async ({ method, path, body }) => {
    const { request, database } = await adminApp();
    const before = snapshot(database.sqlite);
    const res = await request(path, { method, headers: { "content-type": "application/json", origin: "http://localhost" }, body: body ? JSON.stringify(body) : undefined });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Sign in as the admin to continue." });
    expect(snapshot(database.sqlite)).toEqual(before);
  });

  test.each(endpoints.filter((e) => e.method !== "GET"))("$name from a foreign Origin with the session: 403, nothing changes", async ({ method, path, body }) => {
    const { request, cookie, database } = await adminApp();
    const before = snapshot(database.sqlite);
    for (const headers of [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }] as Record<string, string>[]) {
      const res = await request(path, { method, headers: { cookie, "content-type": "application/json", ...headers }, body: body ? JSON.stringify(body) : undefined });
      expect(res.status).toBe(403);
    }
    expect(snapshot(database.sqlite)).toEqual(before);
  });
});

describe("admin API as the admin", () => {
  test("posts: create (sanitised), duplicate slug 409, update, list with drafts, delete, unknown 404", async () => {
    const { asAdmin, request } = await adminApp();
    const created = await asAdmin("/api/admin/blog/post", { method: "POST", json: post });
    expect(created.status).toBe(201);
    const p = await created.json();
    expect(p.content).toBe("<p>Hello </p>");
    expect((await request("/api/blog/post/a-new-post")).status).toBe(200);

    const dup = await asAdmin("/api/admin/blog/post", { method: "POST", json: post });
    expect(dup.status).toBe(409);
    expect((await dup.json()).error).toBe('A post with the slug "a-new-post" already exists.');

    const updated = await asAdmin(`/api/admin/blog/post/${p.id}`, { method: "PUT", json: { ...post, title: "Renamed", published: false } });
    expect(updated.status).toBe(200);
    expect((await request("/api/blog/post/a-new-post")).status).toBe(404);
    const all = await (await asAdmin("/api/admin/blog/posts")).json();
    expect(all.find((x: { id: number }) => x.id === p.id).title).toBe("Renamed");
    expect(all.some((x: { published: boolean }) => !x.published)).toBe(true);

    expect((await asAdmin(`/api/admin/blog/post/${p.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await asAdmin(`/api/admin/blog/post/${p.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await asAdmin("/api/admin/blog/post/99999", { method: "PUT", json: post })).status).toBe(404);
  });

  test.each([
    [{ ...post, title: "" }, "title"],
    [{ ...post, slug: "Not A Slug" }, "slug"],
    [{ ...post, content: "" }, "content"],
    [{ ...post, published: "yes" }, "published"],
    [{ ...post, category: "no-such-category" }, "category"],
  ])("post with a bad field: 422 naming it (%#)", async (body, field) => {
    const { asAdmin, database } = await adminApp();
    const before = database.sqlite.query("SELECT count(*) AS n FROM blog_posts").get();
    const res = await asAdmin("/api/admin/blog/post", { method: "POST", json: body });
    expect(res.status).toBe(422);
    expect(JSON.stringify((await res.json()).details)).toContain(field);
    expect(database.sqlite.query("SELECT count(*) AS n FROM blog_posts").get()).toEqual(before);
  });

  test("categories: create, duplicate 409, delete leaves posts Uncategorized", async () => {
    const { asAdmin, database } = await adminApp();
    const res = await asAdmin("/api/admin/blog/category", { method: "POST", json: { name: "Safety", slug: "safety" } });
    expect(res.status).toBe(201);
    expect((await asAdmin("/api/admin/blog/category", { method: "POST", json: { name: "Again", slug: "safety" } })).status).toBe(409);
    expect((await asAdmin("/api/admin/blog/category", { method: "POST", json: { name: "", slug: "" } })).status).toBe(422);
    const { id } = database.sqlite.query("SELECT id FROM blog_categories WHERE slug = 'income-strategies'").get() as { id: number };
    expect((await asAdmin(`/api/admin/blog/category/${id}`, { method: "DELETE" })).status).toBe(200);
    expect(database.sqlite.query("SELECT count(*) AS n FROM blog_posts WHERE category = 'income-strategies'").get()).toEqual({ n: 0 });
    expect((database.sqlite.query("SELECT count(*) AS n FROM blog_posts WHERE category IS NULL").get() as { n: number }).n).toBeGreaterThan(0);
    expect((await asAdmin(`/api/admin/blog/category/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  test("offers: create for module 2 and see it publicly; moduleId outside 1–10 is 422; embed mode drops media", async () => {
    const { asAdmin, request } = await adminApp();
    const created = await (await asAdmin("/api/admin/affiliate-offer", { method: "POST", json: offer })).json();
    const publicOffers = await (await request("/api/module/2/affiliate-offers")).json();
    expect(publicOffers[0].id).toBe(created.id);
    for (const moduleId of [0, 11, 1.5, "2"]) {
      expect((await asAdmin("/api/admin/affiliate-offer", { method: "POST", json: { ...offer, moduleId } })).status).toBe(422);
    }
    expect((await asAdmin("/api/admin/affiliate-offer", { method: "POST", json: { ...offer, linkUrl: "not a url" } })).status).toBe(422);
    expect((await asAdmin("/api/admin/affiliate-offer", { method: "POST", json: { ...offer, videoUrl: "https://example.com/page" } })).status).toBe(422);
    const embed = await (await asAdmin("/api/admin/affiliate-offer", { method: "POST", json: { ...offer, useEmbed: true, embedCode: "<b>hi</b>", imageUrl: "/x.png" } })).json();
    expect([embed.imageUrl, embed.videoUrl, embed.embedCode]).toEqual([null, null, "<b>hi</b>"]);
    const placeholder = await (await asAdmin("/api/admin/affiliate-offer", { method: "POST", json: { ...offer, videoUrl: "https://" } })).json();
    expect(placeholder.videoUrl).toBeNull();
    expect((await asAdmin(`/api/admin/affiliate-offer/${created.id}`, { method: "PUT", json: { ...offer, isActive: false } })).status).toBe(200);
    expect((await (await request("/api/module/2/affiliate-offers")).json()).map((o: { id: number }) => o.id)).not.toContain(created.id);
    expect((await asAdmin("/api/admin/affiliate-offer/99999", { method: "DELETE" })).status).toBe(404);
  });

  test("products: create shows in the starter kit data; unknown archetype 422 with the allowed list; one default per group", async () => {
    const { asAdmin, request } = await adminApp();
    expect((await asAdmin("/api/admin/recommended-product", { method: "POST", json: product })).status).toBe(201);
    expect((await (await request("/api/recommended-products/Couple")).json()).map((p: { id: string }) => p.id)).toContain("custom_ab12cd34");
    expect((await asAdmin("/api/admin/recommended-product", { method: "POST", json: product })).status).toBe(409);
    const bad = await asAdmin("/api/admin/recommended-product", { method: "POST", json: { ...product, id: "custom_zz", archetype: "Fitness Model" } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain("Archetype must be one of: Girl Next Door");
    for (const [field, value, message] of [
      ["name", "x", "Name must be at least 2 characters"],
      ["description", "short", "Description must be at least 10 characters"],
      ["link", "nope", "Must be a valid URL"],
      ["price", "", "Price is required"],
      ["badge", "", "Badge is required"],
    ] as const) {
      const res = await asAdmin("/api/admin/recommended-product", { method: "POST", json: { ...product, id: "custom_qq", [field]: value } });
      expect([field, res.status]).toEqual([field, 422]);
      expect(JSON.stringify(await res.json())).toContain(message);
    }
    await asAdmin("/api/admin/recommended-product/custom_ab12cd34", { method: "PUT", json: { ...product, isDefault: true } });
    const couple = await (await request("/api/recommended-products/Couple")).json();
    expect(couple.filter((p: { isDefault: boolean }) => p.isDefault).map((p: { id: string }) => p.id)).toEqual(["custom_ab12cd34"]);
    expect((await asAdmin("/api/admin/recommended-product/custom_ab12cd34", { method: "DELETE" })).status).toBe(200);
    expect((await asAdmin("/api/admin/recommended-product/custom_ab12cd34", { method: "DELETE" })).status).toBe(404);
  });

  test("settings: read, update, and the brand shows on the public pages", async () => {
    const { asAdmin, request } = await adminApp();
    expect((await (await asAdmin("/api/admin/settings")).json()).brandName).toBe("Cam Guide");
    expect((await asAdmin("/api/admin/settings", { method: "PUT", json: settings })).status).toBe(200);
    expect(await (await request("/")).text()).toContain("| Velvet Start</title>");
    expect(await (await request("/api/settings")).json()).toEqual(settings);
    expect((await asAdmin("/api/admin/settings", { method: "PUT", json: { ...settings, bannerPlatform: "c" } })).status).toBe(422);
    expect((await asAdmin("/api/admin/settings", { method: "PUT", json: { ...settings, platformA: { name: "", url: "x" } } })).status).toBe(422);
  });

  test.each(["abc", "1.5", "-1"])("a non-numeric id (%s) is 422", async (id) => {
    const { asAdmin } = await adminApp();
    expect((await asAdmin(`/api/admin/blog/post/${id}`, { method: "DELETE" })).status).toBe(422);
  });
});
