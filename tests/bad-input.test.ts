// The bad-input and attack suite of issue 7, against the real app (routes, database,
// migrations). Every case must answer 4xx or a harmless result, change nothing it should
// not, and never answer 5xx. The browser half (stored script, embeds) is in
// tests/e2e/attack.e2e.ts.
import { describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { adminApp, ADMIN } from "./support/admin.ts";
import { TEST_SECRET } from "./support/app.ts";
import { LoginThrottle } from "#server/features/auth/throttle.ts";

const JSON_POSTS = ["/api/quiz/result", "/api/earnings/result", "/api/auth/login"];
const ADMIN_WRITES: [string, string][] = [
  ["POST", "/api/admin/blog/post"],
  ["PUT", "/api/admin/blog/post/1"],
  ["DELETE", "/api/admin/blog/post/1"],
  ["POST", "/api/admin/blog/category"],
  ["DELETE", "/api/admin/blog/category/1"],
  ["POST", "/api/admin/affiliate-offer"],
  ["PUT", "/api/admin/affiliate-offer/1"],
  ["DELETE", "/api/admin/affiliate-offer/1"],
  ["POST", "/api/admin/recommended-product"],
  ["PUT", "/api/admin/recommended-product/essential-key-light"],
  ["DELETE", "/api/admin/recommended-product/essential-key-light"],
  ["PUT", "/api/admin/settings"],
  ["POST", "/api/upload"],
];

function snapshot(sqlite: { query(q: string): { all(): unknown[] } }) {
  return ["quiz_results", "earnings_results", "blog_posts", "blog_categories", "affiliate_offers", "recommended_products", "site_settings", "admin_users"].map((t) =>
    sqlite.query(`SELECT * FROM ${t}`).all(),
  );
}

/** Sends a request and checks the answer is a 4xx, never a 5xx or a stack trace. */
async function expect4xx(res: Response, allowed?: number[]) {
  const text = await res.text();
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  if (allowed) expect(allowed).toContain(res.status);
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
  return text;
}

describe("bodies", () => {
  const bodies: [string, string | Uint8Array<ArrayBuffer>, string][] = [
    ["malformed JSON", '{"archetype": "Girl', "application/json"],
    ["a 1 MB string", JSON.stringify({ archetype: "x".repeat(1024 * 1024), answers: [] }), "application/json"],
    ["invalid UTF-8", new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]), "application/json"],
    ["__proto__ keys", '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "archetype": "Couple", "answers": []}', "application/json"],
    ["an array", "[1, 2, 3]", "application/json"],
    ["null", "null", "application/json"],
    ["a number", "42", "application/json"],
    ["a form post", "archetype=Couple&answers=A", "application/x-www-form-urlencoded"],
    ["text/plain", '{"archetype":"Couple"}', "text/plain"],
  ];
  for (const path of JSON_POSTS) {
    test.each(bodies)(`${path}: %s is refused, nothing stored, nothing polluted`, async (_, body, type) => {
      const { request, database } = await adminApp();
      const before = snapshot(database.sqlite);
      await expect4xx(await request(path, { method: "POST", body, headers: { "content-type": type, origin: "http://localhost" } }));
      expect(snapshot(database.sqlite)).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }

  test("a 20 MB body to a public endpoint is refused (413)", async () => {
    const { request, database } = await adminApp();
    const before = snapshot(database.sqlite);
    const big = new Uint8Array(20 * 1024 * 1024).fill(0x20);
    await expect4xx(await request("/api/quiz/result", { method: "POST", body: big, headers: { "content-type": "application/json" } }), [413]);
    expect(snapshot(database.sqlite)).toEqual(before);
  });
});

describe("wrong types in every field", () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ["POST", "/api/quiz/result", { archetype: 7, answers: "A" }],
    ["POST", "/api/quiz/result", { archetype: ["Couple"], answers: [["A"]] }],
    ["POST", "/api/quiz/result", { archetype: "Couple", answers: Array(15).fill("a") }],
    ["POST", "/api/quiz/result", { archetype: "Couple", answers: Array(14).fill("A") }],
    ["POST", "/api/earnings/result", { tier: 1, estimatedEarnings: 2, score: "15", answers: {} }],
    ["POST", "/api/earnings/result", { tier: "Casual Starter", estimatedEarnings: "$500 - $1,500 / month", score: 15, answers: Array(15).fill(1.5) }],
    ["POST", "/api/auth/login", { username: 1, password: true }],
    ["POST", "/api/admin/blog/post", { title: 1, slug: {}, content: [], published: "true" }],
    ["POST", "/api/admin/blog/category", { name: null, slug: 5 }],
    ["POST", "/api/admin/affiliate-offer", { title: [], description: 0, linkUrl: false, moduleId: "1", useEmbed: "no", isActive: 1 }],
    ["POST", "/api/admin/recommended-product", { id: 1, name: 2, description: 3, link: 4, price: 5, badge: 6, archetype: 7, isDefault: "yes" }],
    ["PUT", "/api/admin/settings", { brandName: 1, platformA: "x", platformB: null, bannerPlatform: 2 }],
  ];
  test.each(cases)("%s %s %p: 422, nothing changes", async (method, path, body) => {
    const { asAdmin, database } = await adminApp();
    const before = snapshot(database.sqlite);
    await expect4xx(await asAdmin(path, { method, json: body }), [422]);
    expect(snapshot(database.sqlite)).toEqual(before);
  });
});

describe("injection and traversal in addresses", () => {
  const strings = ["' OR '1'='1", "1; DROP TABLE blog_posts; --", "\" UNION SELECT * FROM admin_users --", "../../../etc/passwd", "%00", "<script>alert(1)</script>"];
  const paths = (s: string) => [
    `/api/quiz/result/${encodeURIComponent(s)}`,
    `/api/earnings/result/${encodeURIComponent(s)}`,
    `/api/blog/post/${encodeURIComponent(s)}`,
    `/api/recommended-products/${encodeURIComponent(s)}`,
    `/api/module/${encodeURIComponent(s)}/affiliate-offers`,
    `/api/course/modules/${encodeURIComponent(s)}`,
    `/uploads/${encodeURIComponent(s)}`,
    `/blog?category=${encodeURIComponent(s)}`,
    `/blog/${encodeURIComponent(s)}`,
    `/learn/${encodeURIComponent(s)}`,
    `/quiz/result?id=${encodeURIComponent(s)}`,
  ];
  test.each(strings)("%s: never a 5xx, never data it should not show, nothing changes", async (s) => {
    const { request, database } = await adminApp();
    const before = snapshot(database.sqlite);
    for (const path of paths(s)) {
      const res = await request(path);
      expect([path, res.status < 500]).toEqual([path, true]);
      const text = await res.text();
      expect(text).not.toContain("password_hash");
      expect(text).not.toContain("$argon2id$");
      expect(text).not.toContain("<script>alert(1)</script>");
    }
    expect(snapshot(database.sqlite)).toEqual(before);
  });

  test("admin ids with SQL are 4xx and change nothing", async () => {
    const { asAdmin, database } = await adminApp();
    const before = snapshot(database.sqlite);
    await expect4xx(await asAdmin(`/api/admin/blog/post/${encodeURIComponent("1 OR 1=1")}`, { method: "DELETE" }));
    await expect4xx(await asAdmin(`/api/admin/recommended-product/${encodeURIComponent("x' OR '1'='1")}`, { method: "DELETE" }), [404]);
    expect(snapshot(database.sqlite)).toEqual(before);
  });
});

describe("uploads", () => {
  const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
  const polyglot = new Uint8Array([...PNG, ...new TextEncoder().encode("<html><script>alert(document.cookie)</script></html>")]);
  const files: [string, Uint8Array, string][] = [
    ["a text file", new TextEncoder().encode("hello"), "note.png"],
    ["an HTML file", new TextEncoder().encode("<!doctype html><script>alert(1)</script>"), "page.png"],
    ["an SVG with script", new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), "pic.svg"],
    ["a PNG/HTML polyglot", polyglot, "poly.png"],
    ["a path in the name", PNG, "..\\..\\evil.png"],
    ["another path in the name", PNG, "/etc/cron.d/x.png"],
  ];
  test.each(files)("%s is refused and nothing is stored", async (_, bytes, name) => {
    const { asAdmin, uploadsDir } = await adminApp();
    const form = new FormData();
    form.append("file", new File([new Uint8Array(bytes)], name, { type: "image/png" }));
    await expect4xx(await asAdmin("/api/upload", { method: "POST", body: form }), [415, 422]);
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(uploadsDir)).toEqual([]);
  });

  test("a video over 100 MB is refused from its declared length, without reading it", async () => {
    const { request, cookie } = await adminApp();
    let pulled = 0;
    const body = new ReadableStream({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const res = await request("/api/upload", {
      method: "POST",
      body,
      headers: { cookie, origin: "http://localhost", "content-type": "multipart/form-data; boundary=b", "content-length": String(101 * 1024 * 1024) },
    });
    await expect4xx(res, [413]);
    expect(pulled).toBeLessThanOrEqual(1);
  });
});

describe("sessions", () => {
  const forge = async (claims: Record<string, unknown>, secret = TEST_SECRET, exp: string | number = "7d") =>
    `cg_session=${await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setExpirationTime(exp).sign(new TextEncoder().encode(secret))}`;
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

  test("tampered, foreign-key, alg=none, expired and logged-out tokens are all refused", async () => {
    const { request, cookie, database } = await adminApp();
    const [name, token] = cookie.split("=") as [string, string];
    const [h, p, s] = token.split(".");
    const payload = JSON.parse(Buffer.from(p!, "base64url").toString());
    const cookies = {
      tampered: `${name}=${h}.${b64({ ...payload, sub: "2" })}.${s}`,
      otherKey: await forge({ sub: "1", v: 0 }, "another-secret-another-secret-another"),
      algNone: `${name}=${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: "1", v: 0, exp: 9999999999 })}.`,
      expired: await forge({ sub: "1", v: 0 }, TEST_SECRET, Math.floor(Date.now() / 1000) - 60),
      garbage: `${name}=not-a-token`,
    };
    const before = snapshot(database.sqlite);
    for (const [kind, c] of Object.entries(cookies)) {
      const me = await (await request("/api/auth/me", { headers: { cookie: c } })).json();
      expect([kind, me.isAdmin]).toEqual([kind, false]);
      const res = await request("/api/admin/settings", { method: "PUT", headers: { cookie: c, origin: "http://localhost", "content-type": "application/json" }, body: "{}" });
      expect([kind, res.status]).toEqual([kind, 401]);
    }
    // The real cookie works until the session is ended; then it does not.
    expect((await request("/api/admin/settings", { headers: { cookie } })).status).toBe(200);
    await request("/api/auth/logout", { method: "POST", headers: { cookie, origin: "http://localhost" } });
    expect((await request("/api/admin/settings", { headers: { cookie } })).status).toBe(401);
    // Only the admin row changed (signing out bumped its token version).
    const after = snapshot(database.sqlite);
    expect(after.slice(0, 7)).toEqual(before.slice(0, 7));
  });

  test.each(ADMIN_WRITES)("a cross-site form %s %s is refused and changes nothing", async (method, path) => {
    const { request, cookie, database } = await adminApp();
    const before = snapshot(database.sqlite);
    for (const headers of [
      { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      { origin: "null", "content-type": "text/plain" },
    ] as Record<string, string>[]) {
      await expect4xx(await request(path, { method, body: "title=x&slug=y", headers: { cookie, ...headers } }), [403]);
    }
    expect(snapshot(database.sqlite)).toEqual(before);
  });

  test("50 wrong passwords in a row are throttled; after the wait the right one works", async () => {
    let now = 1_000_000;
    const { request } = await adminApp({ loginThrottle: new LoginThrottle(5, 15 * 60_000, () => now) });
    const attempt = (password: string) =>
      request("/api/auth/login", { method: "POST", headers: { "content-type": "application/json", origin: "http://localhost" }, body: JSON.stringify({ username: ADMIN.username, password }) });
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await attempt(`wrong-${i}`)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    expect((await attempt(ADMIN.password)).status).toBe(429);
    now += 15 * 60_000 + 1000;
    expect((await attempt(ADMIN.password)).status).toBe(200);
  });
});
