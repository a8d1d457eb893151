// Bad input and attacks against the real app (routes, database, migrations). Every case
// must answer 4xx or a harmless result, change nothing it should not, and never answer
// 5xx or a stack trace. The browser half (stored script, embeds) is in
// tests/e2e/admin-attack.e2e.ts.
import { describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { LoginThrottle } from "#server/features/auth/throttle.ts";
import { ADMIN } from "./support/admin.ts";
import { TEST_SECRET } from "./support/app.ts";
import { countedBody } from "./support/counted-body.ts";
import {
  createAdmin,
  createCategory,
  createEarningsResult,
  createOffer,
  createPost,
  createProduct,
  createQuizResult,
} from "./support/factories.ts";
import {
  appTables,
  type Body,
  contents,
  runScenarios,
  type Scenario,
  type ScenarioApp,
  scenarioApp,
} from "./support/scenario.ts";

const STACK_TRACE = /\n\s+at .+:\d+:\d+/;

/** A row in every table, so that "nothing changes" means something; the admin too. */
async function someOfEverything(api: ScenarioApp) {
  if (!api.cookie) await createAdmin(api.db);
  const category = await createCategory(api.db, { slug: "tips-and-tricks" });
  await createPost(api.db, { category: category.slug });
  await createPost(api.db, { published: false });
  await createOffer(api.db);
  await createProduct(api.db, { id: "essential-key-light", archetype: "All Archetypes", isDefault: true });
  const quiz = await createQuizResult(api.db);
  await createEarningsResult(api.db, { quizResultId: quiz.id });
}

const JSON_POSTS = ["/api/quiz/result", "/api/earnings/result", "/api/auth/login"];
const bodies: [string, Body, string, number][] = [
  ["malformed JSON", '{"archetype": "Girl', "application/json", 400],
  ["a 1 MB string", JSON.stringify({ archetype: "x".repeat(1024 * 1024), answers: [] }), "application/json", 413],
  [
    "invalid UTF-8",
    new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
    "application/json",
    422,
  ],
  [
    "__proto__ keys",
    '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "archetype": "Couple", "answers": []}',
    "application/json",
    422,
  ],
  ["an array", "[1, 2, 3]", "application/json", 422],
  ["null", "null", "application/json", 422],
  ["a number", "42", "application/json", 422],
  ["a form post", "archetype=Couple&answers=A", "application/x-www-form-urlencoded", 415],
  ["text/plain", '{"archetype":"Couple"}', "text/plain", 415],
];

runScenarios("bodies", [
  ...JSON_POSTS.flatMap((path) =>
    bodies.map(
      ([name, body, type, status]): Scenario => ({
        name: `${path}: ${name} is refused, nothing stored, nothing polluted`,
        method: "POST",
        path,
        body,
        headers: { "content-type": type, origin: "http://localhost" },
        setup: someOfEverything,
        // The sign-in form posts without JavaScript: it goes back to its page (303), signed in as nobody.
        status: path === "/api/auth/login" && type.includes("urlencoded") ? 303 : status,
        notContains: [STACK_TRACE],
        unchanged: true,
        check: () => expect(({} as Record<string, unknown>).polluted).toBeUndefined(),
      }),
    ),
  ),
  {
    name: "a 20 MB body to a public endpoint is refused",
    method: "POST",
    path: "/api/quiz/result",
    body: new Uint8Array(20 * 1024 * 1024).fill(0x20),
    headers: { "content-type": "application/json" },
    setup: someOfEverything,
    status: 413,
    notContains: [STACK_TRACE],
    unchanged: true,
  },
]);

const wrongTypes: [string, string, Record<string, unknown>][] = [
  ["POST", "/api/quiz/result", { archetype: 7, answers: "A" }],
  ["POST", "/api/quiz/result", { archetype: ["Couple"], answers: [["A"]] }],
  ["POST", "/api/quiz/result", { archetype: "Couple", answers: Array(15).fill("a") }],
  ["POST", "/api/quiz/result", { archetype: "Couple", answers: Array(14).fill("A") }],
  ["POST", "/api/earnings/result", { tier: 1, estimatedEarnings: 2, score: "15", answers: {} }],
  [
    "POST",
    "/api/earnings/result",
    { tier: "Casual Starter", estimatedEarnings: "$30 – $470 a month", score: 15, answers: Array(15).fill(1.5) },
  ],
  ["POST", "/api/auth/login", { username: 1, password: true }],
  ["POST", "/api/admin/blog/post", { title: 1, slug: {}, content: [], published: "true" }],
  ["POST", "/api/admin/blog/category", { name: null, slug: 5 }],
  [
    "POST",
    "/api/admin/affiliate-offer",
    { title: [], description: 0, linkUrl: false, moduleId: "1", useEmbed: "no", isActive: 1 },
  ],
  [
    "POST",
    "/api/admin/recommended-product",
    { id: 1, name: 2, description: 3, link: 4, price: 5, badge: 6, archetype: 7, isDefault: "yes" },
  ],
  ["PUT", "/api/admin/settings", { brandName: 1, platformA: "x", platformB: null, bannerPlatform: 2 }],
  ["PUT", "/api/admin/settings/link-checks", { hours: "24" }],
];

runScenarios(
  "wrong types in every field: 422, nothing changes",
  wrongTypes.map(([method, path, body]) => ({
    name: JSON.stringify(body),
    who: "admin",
    method,
    path,
    body,
    setup: someOfEverything,
    status: 422,
    notContains: [STACK_TRACE],
    unchanged: true,
  })),
);

const strings = [
  "' OR '1'='1",
  "1; DROP TABLE blog_posts; --",
  '" UNION SELECT * FROM admin_users --',
  "../../../etc/passwd",
  "%00",
  "<script>alert(1)</script>",
];
const addresses = (s: string) => [
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

describe("injection and traversal in addresses", () => {
  test.each(strings)("%s: never a 5xx, never data it should not show, nothing changes", async (s) => {
    const api = await scenarioApp();
    await someOfEverything(api);
    const before = await contents(api.testDb, await appTables(api.testDb));
    for (const path of addresses(s)) {
      const res = await api.request(path);
      expect([path, res.status < 500]).toEqual([path, true]);
      const text = await res.text();
      expect(text).not.toContain("password_hash");
      expect(text).not.toContain("$argon2id$");
      expect(text).not.toContain("<script>alert(1)</script>");
    }
    expect(await contents(api.testDb, await appTables(api.testDb))).toEqual(before);
  });
});

runScenarios("admin ids with SQL change nothing", [
  {
    name: "a post id",
    who: "admin",
    method: "DELETE",
    path: `/api/admin/blog/post/${encodeURIComponent("1 OR 1=1")}`,
    setup: someOfEverything,
    status: 422,
    notContains: [STACK_TRACE],
    unchanged: true,
  },
  {
    name: "a product id",
    who: "admin",
    method: "DELETE",
    path: `/api/admin/recommended-product/${encodeURIComponent("x' OR '1'='1")}`,
    setup: someOfEverything,
    status: 404,
    notContains: [STACK_TRACE],
    unchanged: true,
  },
]);

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const polyglot = new Uint8Array([
  ...PNG,
  ...new TextEncoder().encode("<html><script>alert(document.cookie)</script></html>"),
]);
const files: [string, Uint8Array, string, number][] = [
  ["a text file", new TextEncoder().encode("hello"), "note.png", 415],
  ["an HTML file", new TextEncoder().encode("<!doctype html><script>alert(1)</script>"), "page.png", 415],
  [
    "an SVG with script",
    new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    "pic.svg",
    415,
  ],
  ["a PNG/HTML polyglot", polyglot, "poly.png", 415],
  ["a path in the name", PNG, "..\\..\\evil.png", 422],
  ["another path in the name", PNG, "/etc/cron.d/x.png", 422],
];

runScenarios(
  "uploads: refused and nothing stored",
  files.map(([name, bytes, file, status]) => ({
    name,
    who: "admin",
    method: "POST",
    path: "/api/upload",
    body: () => {
      const form = new FormData();
      form.append("file", new File([new Uint8Array(bytes)], file, { type: "image/png" }));
      return form;
    },
    status,
    notContains: [STACK_TRACE],
    check: async (_, { uploadsDir }) => {
      const { readdirSync } = await import("node:fs");
      expect(readdirSync(uploadsDir)).toEqual([]);
    },
  })),
);

describe("uploads", () => {
  test("a video over 100 MB is refused from its declared length, without reading it", async () => {
    const api = await scenarioApp({ admin: true });
    const { body, pulled } = countedBody(64 * 1024);
    await api.check({
      who: "admin",
      method: "POST",
      path: "/api/upload",
      body,
      headers: { "content-type": "multipart/form-data; boundary=b", "content-length": String(101 * 1024 * 1024) },
      status: 413,
      notContains: [STACK_TRACE],
    });
    expect(pulled()).toBeLessThanOrEqual(1);
  });
});

describe("sessions", () => {
  const forge = async (claims: Record<string, unknown>, secret = TEST_SECRET, exp: string | number = "7d") =>
    `cg_session=${await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setExpirationTime(exp).sign(new TextEncoder().encode(secret))}`;
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

  test("tampered, foreign-key, alg=none, expired and logged-out tokens are all refused", async () => {
    const api = await scenarioApp({ admin: true });
    await someOfEverything(api);
    const cookie = api.cookie!;
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
    for (const [kind, c] of Object.entries(cookies)) {
      await api.check(
        { path: "/api/auth/me", headers: { cookie: c }, status: 200, contains: { isAdmin: false } },
        {},
        kind,
      );
      await api.check(
        {
          method: "PUT",
          path: "/api/admin/settings",
          headers: { cookie: c, origin: "http://localhost" },
          body: "{}",
          status: 401,
          unchanged: true,
        },
        {},
        kind,
      );
    }
    // The real cookie works until the session is ended; then it does not.
    await api.check({ path: "/api/admin/settings", headers: { cookie }, status: 200 });
    // Signing out bumps the admin's token version and changes nothing else.
    const others = (await appTables(api.testDb)).filter((t) => t !== "admin_users");
    await api.check({
      method: "POST",
      path: "/api/auth/logout",
      headers: { cookie, origin: "http://localhost" },
      status: 200,
      unchanged: others,
    });
    await api.check({ path: "/api/admin/settings", headers: { cookie }, status: 401 });
  });

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
  const crossSite: Record<string, string | null>[] = [
    { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
    { origin: null, "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
    { origin: "null", "content-type": "text/plain" },
  ];

  runScenarios(
    "a cross-site form with the admin's cookie is refused and changes nothing",
    ADMIN_WRITES.flatMap(([method, path]) =>
      crossSite.map(
        (headers): Scenario => ({
          name: `${method} ${path} ${JSON.stringify(headers)}`,
          who: "admin",
          method,
          path,
          body: "title=x&slug=y",
          headers,
          setup: someOfEverything,
          status: 403,
          notContains: [STACK_TRACE],
          unchanged: true,
        }),
      ),
    ),
  );

  test("50 wrong passwords in a row are throttled; after the wait the right one works", async () => {
    let now = 1_000_000;
    const api = await scenarioApp({ testHooks: { loginThrottle: new LoginThrottle(5, 15 * 60_000, () => now) } });
    await createAdmin(api.db);
    const attempt = (password: string, status: number) =>
      api.check({
        method: "POST",
        path: "/api/auth/login",
        headers: { origin: "http://localhost" },
        body: { username: ADMIN.username, password },
        status,
      });
    for (let i = 0; i < 5; i++) await attempt(`wrong-${i}`, 401);
    for (let i = 5; i < 50; i++) await attempt(`wrong-${i}`, 429);
    await attempt(ADMIN.password, 429);
    now += 15 * 60_000 + 1000;
    await attempt(ADMIN.password, 200);
  });
});
