// Cheap requests must not cost the server dearly. The render cache keys a page by what it
// reads (declared query parameters, first value each): unknown parameters, their order and
// repeats make no new entries; pages at addresses visitors make (saved results, odd
// spellings) live in a small cache of their own and cannot push the site's pages out; a
// render older than the last admin change is not kept; anonymous writes have a per-client
// limit (429 + Retry-After). Junk in the query never answers 5xx.
// In process (the real app, real SQLite, the page cache observed directly) and against the
// compiled executable (real sockets, real client addresses, x-cache only).
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { clientKey } from "#server/lib/client.ts";
import { createReads, type ReadResolver } from "#server/lib/reads.ts";
import { memoryLogger } from "#server/logger.ts";
import { WriteLimiter } from "#server/plugins/write-limit.ts";
import { publicReads } from "#server/public-reads.ts";
import { loadAssets } from "#server/ssr/assets.ts";
import { PageCache } from "#server/ssr/page-cache.ts";
import { createRenderer } from "#server/ssr/render.tsx";
import { MODULE_COUNT } from "#shared/features/course/constants.ts";
import { adminApp } from "#tests/support/admin.ts";
import { type TestApp, testApp } from "#tests/support/app.ts";
import { ensureBuilt, pool, type Running, startServer } from "#tests/support/binary.ts";
import { createEarningsResult, createPost, createQuizResult } from "#tests/support/factories.ts";
import { pageOf } from "#tests/support/page.ts";
import { scratchDir } from "#tests/support/scratch.ts";

const STACK_TRACE = /\n\s+at .+:\d+:\d+/;
const QUIZ = { archetype: "Girl Next Door", answers: Array(15).fill("A") };
const EARNINGS = {
  quizResultId: null,
  tier: "Casual Starter",
  estimatedEarnings: "$30 – $470 a month",
  score: 15,
  answers: Array(15).fill(1),
};
const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** The seed's cacheable pages, each at the one address the site links to. */
const REAL_PAGES = [
  "/",
  "/learn-more",
  "/terms",
  "/privacy",
  "/quiz",
  "/quiz/earnings",
  "/quiz/result?archetype=Girl+Next+Door",
  "/learn",
  "/learn/1",
  "/learn/10",
  "/learn/1?quiz=true",
  "/learn/module-complete",
  "/learn/module-complete?moduleId=3",
  "/learn/quiz-complete",
  "/learn/quiz-complete?moduleId=2",
  "/learn/complete",
  "/resources",
  "/blog",
  "/blog?category=tips-and-tricks",
  "/blog/platform-reviews",
];

/**
 * The in-process floods run against a cache a few times smaller than the default one (500
 * shared, 100 visitor pages), with floods three or four times its size: eviction works the
 * same at any size, and the executable below is flooded at the default sizes.
 */
const SMALL = { shared: REAL_PAGES.length + 10, visitor: 20 };
const smallCache = () => new PageCache(SMALL);

/** A seeded app whose page cache the test can look into, with every real page cached. */
async function warmed(options: { writeLimiter?: WriteLimiter | null; cache?: PageCache } = {}) {
  const cache = options.cache ?? smallCache();
  const t = testApp({ services: { pageCache: cache }, testHooks: { writeLimiter: options.writeLimiter ?? null } });
  const bodies = new Map<string, string>();
  for (const path of REAL_PAGES) {
    const first = await t.request(path);
    expect([path, first.status]).toEqual([path, 200]);
    bodies.set(path, await first.text());
  }
  expect(cache.sizes).toEqual({ shared: REAL_PAGES.length, visitor: 0 });
  return { ...t, cache, bodies };
}

/** Every real page still answers from the cache. */
async function expectRealPagesCached(request: TestApp["request"]) {
  const misses: string[] = [];
  for (const path of REAL_PAGES) {
    const res = await request(path);
    await res.arrayBuffer();
    if (res.headers.get("x-cache") !== "hit") misses.push(path);
  }
  expect(misses).toEqual([]);
}

const join2 = (address: string, extra: string) => `${address}${address.includes("?") ? "&" : "?"}${extra}`;
const prepend = (address: string, extra: string) => {
  const [path, query] = address.split("?");
  return query ? `${path}?${extra}&${query}` : `${path}?${extra}`;
};

describe("the cache key holds only what the page reads", () => {
  // One app for the table: each case adds junk to every real page and expects the cached
  // page itself (same bytes), with the cache not one entry bigger.
  let site: Awaited<ReturnType<typeof warmed>>;
  beforeAll(async () => {
    site = await warmed();
  });

  const variants: [string, (address: string, i: number) => string][] = [
    ["an unknown parameter after", (a, i) => join2(a, `utm_source=news${i}`)],
    ["an unknown parameter before", (a, i) => prepend(a, `fbclid=${i}`)],
    ["many unknown parameters", (a, i) => join2(a, `a=${i}&b=${i}&c=${i}&d=${i}&e=${i}`)],
    ["a cache-buster", (a) => join2(a, `_=${Date.now()}${Math.random()}`)],
    ["an empty query string", (a) => (a.includes("?") ? a : `${a}?`)],
    ["a lone ampersand", (a) => join2(a, "&")],
    ["a name without a value", (a, i) => join2(a, `flag${i}`)],
    ["a repeated known parameter, first value kept", (a, i) => (a.includes("?") ? `${a}&${a.split("?")[1]}${i}` : a)],
    ["the known parameters in reverse order", (a) => reversed(a)],
    ["unicode and escapes in an unknown parameter", (a, i) => join2(a, `%C3%BC${i}=%F0%9F%98%80&%E2%80%AE=x`)],
    ["a fragment-like value", (a, i) => join2(a, `x=%23${i}`)],
    ["junk that looks like a known name", (a, i) => join2(a, `Category=${i}&ID=${i}&archetype_=${i}`)],
  ];

  function reversed(address: string): string {
    const [path, query = ""] = address.split("?");
    const pairs = query.split("&").filter(Boolean);
    return pairs.length ? `${path}?${[...pairs].reverse().join("&")}` : address;
  }

  test.each(variants)("%s: the cached page, byte for byte, and no new entry", async (_name, variant) => {
    for (let i = 0; i < 20; i++) {
      for (const address of REAL_PAGES) {
        const asked = variant(address, i);
        const res = await site.request(asked);
        const body = await res.text();
        expect([asked, res.status, res.headers.get("x-cache")]).toEqual([asked, 200, "hit"]);
        expect(body === site.bodies.get(address)).toBe(true);
      }
    }
    expect(site.cache.sizes).toEqual({ shared: REAL_PAGES.length, visitor: 0 });
  });

  test("unique query strings on one page, three times what the cache holds: it holds the site's pages and nothing more", async () => {
    for (let i = 0; i < 3 * SMALL.shared; i++) {
      const res = await site.request(`/?x=${i}&y=${crypto.randomUUID()}`);
      expect(res.headers.get("x-cache")).toBe("hit");
      await res.arrayBuffer();
    }
    expect(site.cache.sizes).toEqual({ shared: REAL_PAGES.length, visitor: 0 });
    await expectRealPagesCached(site.request);
  });

  test("HEAD is answered from the cache too, unique query strings and all: never a render of its own", async () => {
    for (const address of REAL_PAGES) {
      for (let i = 0; i < 20; i++) {
        const res = await site.request(join2(address, `head=${i}`), { method: "HEAD" });
        expect([address, res.status, res.headers.get("x-cache")]).toEqual([address, 200, "hit"]);
        expect(await res.text()).toBe("");
      }
    }
    expect(site.cache.sizes).toEqual({ shared: REAL_PAGES.length, visitor: 0 });
  });

  test("a parameter the page does not read never reaches its HTML (no reflection, no boot data)", async () => {
    const marker = "zq7-unread-marker";
    for (const address of REAL_PAGES) {
      const html = await (await site.request(join2(address, `${marker}=${marker}&utm_source=${marker}`))).text();
      expect([address, html.includes(marker)]).toEqual([address, false]);
    }
  });
});

describe("declared parameters: shared values are the page's real variants, any other value is kept apart", () => {
  test.each([
    ["/blog?category=", (i: number) => `/blog?category=made-up-${i}`, 0],
    ["/learn/module-complete?moduleId=", (i: number) => `/learn/module-complete?moduleId=${MODULE_COUNT + 1 + i}`, 0],
    [
      "/learn/quiz-complete?moduleId= (leading zeros)",
      (i: number) => `/learn/quiz-complete?moduleId=0${MODULE_COUNT + 1 + i}`,
      0,
    ],
    ["/learn/quiz-complete?moduleId= (not a number)", (i: number) => `/learn/quiz-complete?moduleId=x${i}`, 0],
    ["/learn/1?quiz=", (i: number) => `/learn/1?quiz=${i}`, 0],
    ["/quiz/result?archetype= (not an archetype)", (i: number) => `/quiz/result?archetype=Nobody${i}`, 0],
    ["/quiz/earnings?quizId= (no such result)", (i: number) => `/quiz/earnings?quizId=nope-${i}`, 0],
  ])(
    "%s made-up values, three times what the cache holds: the shared cache does not grow, the rest stays bounded",
    async (_name, address) => {
      const site = await warmed();
      for (let i = 0; i < 3 * SMALL.visitor; i++) {
        const res = await site.request(address(i));
        expect(res.status).toBeLessThan(500);
        await res.arrayBuffer();
      }
      expect(site.cache.sizes.shared).toBe(REAL_PAGES.length);
      expect(site.cache.sizes.visitor).toBeLessThanOrEqual(SMALL.visitor);
      await expectRealPagesCached(site.request);
    },
    60_000,
  );

  test("every module's completion page is a real variant: ten entries, and the eleventh value is not one", async () => {
    const cache = new PageCache();
    const { request } = testApp({ services: { pageCache: cache }, testHooks: { writeLimiter: null } });
    for (let n = 1; n <= MODULE_COUNT + 5; n++) await (await request(`/learn/module-complete?moduleId=${n}`)).text();
    expect(cache.sizes).toEqual({ shared: MODULE_COUNT, visitor: 5 });
  });

  test.each([
    ["/blog?category=a&category=b", "/blog?category=a"],
    ["/blog?x=1&category=tips-and-tricks", "/blog?category=tips-and-tricks"],
    ["/blog?category=tips-and-tricks&category=platform-reviews", "/blog?category=tips-and-tricks"],
    ["/blog?category=tips%2Dand%2Dtricks", "/blog?category=tips-and-tricks"],
    ["/quiz/result?archetype=Girl%20Next%20Door", "/quiz/result?archetype=Girl+Next+Door"],
    ["/quiz/result?utm=1&archetype=Girl+Next+Door&archetype=Couple", "/quiz/result?archetype=Girl+Next+Door"],
    ["/learn/2?quiz=true&quiz=false", "/learn/2?quiz=true"],
    ["/learn/module-complete?moduleId=4&moduleId=5", "/learn/module-complete?moduleId=4"],
    // Spellings that mean the same to the page read as one value.
    ["/learn/1?quiz=TRUE", "/learn/1"],
    ["/learn/1?quiz=1", "/learn/1"],
    ["/learn/1?quiz=", "/learn/1"],
    ["/learn/1?quiz=false", "/learn/1"],
    ["/learn/module-complete?moduleId=abc", "/learn/module-complete"],
    ["/learn/module-complete?moduleId=0", "/learn/module-complete"],
    ["/learn/module-complete?moduleId=-3", "/learn/module-complete"],
    ["/learn/module-complete?moduleId=05", "/learn/module-complete?moduleId=5"],
    ["/learn/quiz-complete?moduleId=0003", "/learn/quiz-complete?moduleId=3"],
  ])("%s is the same entry as %s", async (variant, canonical) => {
    const cache = new PageCache();
    const { request } = testApp({ services: { pageCache: cache }, testHooks: { writeLimiter: null } });
    const first = await request(canonical);
    const body = await first.text();
    const again = await request(variant);
    expect([again.status, again.headers.get("x-cache")]).toEqual([first.status, "hit"]);
    expect((await again.text()) === body).toBe(true);
    expect(cache.sizes.shared + cache.sizes.visitor).toBe(1);
  });

  test("the order of known parameters does not matter: the saved result and its archetype", async () => {
    const cache = new PageCache();
    const t = testApp({ services: { pageCache: cache }, testHooks: { writeLimiter: null } });
    const { id } = await createQuizResult(t.db);
    const a = await t.request(`/quiz/result?archetype=Girl+Next+Door&id=${id}`);
    await a.text();
    const b = await t.request(`/quiz/result?id=${id}&junk=1&archetype=Girl%20Next%20Door`);
    expect(b.headers.get("x-cache")).toBe("hit");
    expect(cache.sizes).toEqual({ shared: 0, visitor: 1 });
  });
});

describe("addresses spelled another way do not grow the shared cache", () => {
  test.each([
    [
      "upper case",
      ["/BLOG", "/Blog", "/bLoG", "/LEARN/1", "/Learn/1", "/QUIZ", "/Resources", "/Blog/platform-reviews"],
    ],
    [
      "a trailing slash",
      ["/blog/", "/learn/", "/learn/1/", "/quiz/", "/resources/", "/blog/platform-reviews/", "/bLoG/tip-menu/"],
    ],
    ["leading zeros in a module number", ["/learn/01", "/learn/001", "/learn/0001", "/learn/010"]],
  ])("%s: a lasting redirect to the page's own address, nothing cached", async (_name, addresses) => {
    const site = await warmed();
    for (const address of addresses) {
      const res = await site.request(address);
      const own = address
        .toLowerCase()
        .replace(/\/$/, "")
        .replace(/\/0+(?=\d)/, "/");
      expect([address, res.status, res.headers.get("location")]).toEqual([address, 301, own]);
      await res.arrayBuffer();
    }
    expect(site.cache.sizes.shared).toBe(REAL_PAGES.length);
    await expectRealPagesCached(site.request);
  });

  test("unknown paths, three times what the cache holds, are 404s and are not cached at all", async () => {
    const site = await warmed();
    for (let i = 0; i < 3 * SMALL.shared; i++) {
      const res = await site.request(`/no-such-page-${i}?x=${i}`);
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    }
    expect(site.cache.sizes).toEqual({ shared: REAL_PAGES.length, visitor: 0 });
  });
});

describe("a crawl of the posts does not evict the site's other pages", () => {
  test("twice as many posts as the cache holds, each read once: posts push out posts, never the home page or the list", async () => {
    const cache = smallCache();
    const t = testApp({ services: { pageCache: cache }, testHooks: { writeLimiter: null } });
    const slugs: string[] = [];
    for (let i = 0; i < 2 * SMALL.shared; i++) slugs.push((await createPost(t.db, { slug: `crawled-${i}` })).slug);
    for (const path of REAL_PAGES) await (await t.request(path)).arrayBuffer();
    for (const slug of slugs) {
      const res = await t.request(`/blog/${slug}`);
      expect([slug, res.status]).toEqual([slug, 200]);
      await res.arrayBuffer();
    }
    // Every page but the posts still answers from the cache (the seeded post is one of the crawled).
    const misses: string[] = [];
    for (const path of REAL_PAGES.filter((p) => !p.startsWith("/blog/"))) {
      const res = await t.request(path);
      await res.arrayBuffer();
      if (res.headers.get("x-cache") !== "hit") misses.push(path);
    }
    expect(misses).toEqual([]);
    // The posts kept are the ones read last, at most as many as the cache holds.
    expect((await t.request(`/blog/${slugs.at(-1)}`)).headers.get("x-cache")).toBe("hit");
    expect((await t.request(`/blog/${slugs[0]}`)).headers.get("x-cache")).toBe("miss");
    expect(cache.sizes.shared).toBeLessThanOrEqual(REAL_PAGES.length + SMALL.shared);
  });
});

describe("per-visitor pages do not evict the site's pages", () => {
  const visitorAddresses: [string, (quizId: string, earningsId: string) => string][] = [
    ["a saved quiz result with its archetype", (q) => `/quiz/result?archetype=Girl+Next+Door&id=${q}`],
    ["a starter kit", (q) => `/quiz/starter-kit?quizId=${q}`],
    ["the calculator linked to a result", (q) => `/quiz/earnings?quizId=${q}`],
    ["a saved tier result", (_q, e) => `/quiz/earnings?tier=Casual+Starter&id=${e}`],
  ];

  test.each(visitorAddresses)(
    "%s: four times what the cache holds, the site's pages stay cached",
    async (_name, address) => {
      const site = await warmed();
      for (let i = 0; i < 4 * SMALL.visitor; i++) {
        const quiz = await createQuizResult(site.db);
        const earnings = await createEarningsResult(site.db, { quizResultId: quiz.id });
        const res = await site.request(address(quiz.id, earnings.id));
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      expect(site.cache.sizes.shared).toBe(REAL_PAGES.length);
      expect(site.cache.sizes.visitor).toBe(SMALL.visitor);
      await expectRealPagesCached(site.request);
    },
  );

  test("a saved quiz result by id alone: redirects to its archetype's address, none of them cached", async () => {
    const site = await warmed();
    const visitorPages = site.cache.sizes.visitor;
    for (let i = 0; i < 4 * SMALL.visitor; i++) {
      const quiz = await createQuizResult(site.db);
      const res = await site.request(`/quiz/result?id=${quiz.id}`);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/quiz/result?archetype=Girl%20Next%20Door&id=${quiz.id}`);
    }
    expect(site.cache.sizes).toEqual({ shared: REAL_PAGES.length, visitor: visitorPages });
    await expectRealPagesCached(site.request);
  });

  test("a visitor's page is still answered from its own cache on the next request", async () => {
    const site = await warmed();
    const { id } = await createQuizResult(site.db);
    const first = await site.request(`/quiz/result?archetype=Girl+Next+Door&id=${id}`);
    expect(first.headers.get("x-cache")).toBe("miss");
    const again = await site.request(`/quiz/result?archetype=Girl+Next+Door&id=${id}`);
    expect(again.headers.get("x-cache")).toBe("hit");
    expect(pageOf(await again.text()).title).toContain("Girl Next Door");
  });

  test("an admin change empties the visitors' cache too", async () => {
    const cache = new PageCache();
    const admin = await adminApp({ services: { pageCache: cache }, testHooks: { writeLimiter: null } });
    const { id } = await createQuizResult(admin.db);
    await (await admin.request(`/quiz/result?archetype=Girl+Next+Door&id=${id}`)).text();
    expect(cache.sizes.visitor).toBe(1);
    const settings = await (await admin.asAdmin("/api/admin/settings")).json();
    expect((await admin.asAdmin("/api/admin/settings", { method: "PUT", json: settings })).status).toBe(200);
    expect(cache.sizes).toEqual({ shared: 0, visitor: 0 });
  });
});

describe("a render that started before an admin change", () => {
  /**
   * The real app (and its cache) beside a renderer on the same database and cache whose
   * settings read can be held open after it has read: the page then carries what the data
   * was before the change.
   */
  async function heldOpen() {
    const cache = new PageCache();
    const admin = await adminApp({ services: { pageCache: cache }, testHooks: { writeLimiter: null } });
    const reads = createReads(publicReads, {
      db: admin.db,
      contact: async () => "this website",
      now: () => new Date(),
    });
    let hold: { entered: () => void; released: Promise<void> } | null = null;
    const resolveRead: ReadResolver = async (key) => {
      const answer = await reads.resolve(key);
      const held = key === "/api/settings" ? hold : null;
      if (held) {
        hold = null;
        held.entered();
        await held.released;
      }
      return answer;
    };
    const render = createRenderer({
      assets: loadAssets(),
      resolveRead,
      logger: memoryLogger(),
      publicBase: async () => "http://localhost",
      cache,
    });
    /** Starts rendering `path`; it stops after reading the settings until `release()`. */
    async function startHeld(path: string) {
      const entered = Promise.withResolvers<void>();
      const released = Promise.withResolvers<void>();
      hold = { entered: entered.resolve, released: released.promise };
      const answer = render(new Request(`http://localhost${path}`));
      await entered.promise;
      return { answer, release: () => released.resolve() };
    }
    async function rename(brandName: string) {
      const settings = await (await admin.asAdmin("/api/admin/settings")).json();
      const res = await admin.asAdmin("/api/admin/settings", { method: "PUT", json: { ...settings, brandName } });
      expect(res.status).toBe(200);
    }
    const titleOf = async (res: Response) => pageOf(await res.text()).title;
    return { ...admin, cache, render, startHeld, rename, titleOf };
  }

  test.each(["/", "/blog", "/learn/3", "/quiz/result?archetype=Couple"])(
    "%s: its page is not kept, so the next visitor never gets the old brand as a hit",
    async (path) => {
      const site = await heldOpen();
      const old = await site.startHeld(path);
      await site.rename("Brand After Change");
      old.release();
      const stale = await old.answer;
      // It arrived before the change: the old page is its answer, but it is not kept.
      expect(await site.titleOf(stale)).not.toContain("Brand After Change");
      expect(site.cache.sizes).toEqual({ shared: 0, visitor: 0 });
      const next = await site.request(path);
      expect(next.headers.get("x-cache")).toBe("miss");
      expect(await site.titleOf(next)).toContain("Brand After Change");
      const then = await site.request(path);
      expect(then.headers.get("x-cache")).toBe("hit");
      expect(await site.titleOf(then)).toContain("Brand After Change");
    },
  );

  test("a request after the change does not wait for the old render: it gets the new page while the old one is held", async () => {
    const site = await heldOpen();
    const old = await site.startHeld("/");
    // Arrived before the change: it shares the old render.
    const alongside = site.render(new Request("http://localhost/"));
    await site.rename("Brand After Change");
    const after = site.render(new Request("http://localhost/"));
    const outcome = await Promise.race([after, Bun.sleep(10_000).then(() => "still waiting for the old render")]);
    expect(outcome).toBeInstanceOf(Response);
    expect(await site.titleOf(outcome as Response)).toContain("Brand After Change");
    old.release();
    expect(await site.titleOf(await old.answer)).not.toContain("Brand After Change");
    expect(await site.titleOf(await alongside)).not.toContain("Brand After Change");
    // What the cache holds is the page rendered after the change.
    const hit = await site.request("/");
    expect(hit.headers.get("x-cache")).toBe("hit");
    expect(await site.titleOf(hit)).toContain("Brand After Change");
  }, 20_000);

  test("two changes while a render is held: still nothing old is kept", async () => {
    const site = await heldOpen();
    const old = await site.startHeld("/learn");
    await site.rename("First Change");
    await site.rename("Second Change");
    old.release();
    await (await old.answer).text();
    expect(site.cache.sizes.shared).toBe(0);
    expect(await site.titleOf(await site.request("/learn"))).toContain("Second Change");
  });

  test("without a change, the held render is kept as usual (the guard is not over-eager)", async () => {
    const site = await heldOpen();
    const held = await site.startHeld("/resources");
    held.release();
    expect((await held.answer).headers.get("x-cache")).toBe("miss");
    expect((await site.request("/resources")).headers.get("x-cache")).toBe("hit");
  });
});

describe("anonymous writes: a per-client limit", () => {
  const WINDOW = 60;

  function limitedApp(count: number) {
    let now = 1_000_000;
    const limiter = new WriteLimiter({ count, windowSeconds: WINDOW }, { now: () => now });
    // A public address, so the sitemap answers (it needs absolute links).
    const t = testApp({ publicUrl: "https://guide.example.com", testHooks: { writeLimiter: limiter } });
    const rows = (table: string) => (t.sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      ...t,
      limiter,
      rows,
      advance: (ms: number) => {
        now += ms;
      },
    };
  }

  test.each([1, 5, 20, 60])(
    "limit %i: a burst of twice as many writes, exactly the limit is written, the rest 429",
    async (limit) => {
      const t = limitedApp(limit);
      const before = t.rows("quiz_results");
      const answers = await Promise.all(
        Array.from({ length: limit * 2 }, () => t.request("/api/quiz/result", post(QUIZ))),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(limit).fill(201), ...Array(limit).fill(429)]);
      expect(t.rows("quiz_results") - before).toBe(limit);
      for (const res of answers.filter((r) => r.status === 429)) {
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(WINDOW);
        const body = (await res.json()) as { error: string };
        expect(body.error).toMatch(/Too many submissions .* limit is \d+ per minute.*try again in \d+ seconds?/i);
        expect(res.headers.get("cache-control")).toBe("no-store");
      }
    },
  );

  test.each([
    ["POST /api/quiz/result", "/api/quiz/result", post(QUIZ), "quiz_results"],
    ["POST /api/earnings/result", "/api/earnings/result", post(EARNINGS), "earnings_results"],
    ["malformed JSON", "/api/quiz/result", { ...post(null), body: '{"archetype":' }, "quiz_results"],
    ["an invalid body", "/api/quiz/result", post({ archetype: "Nobody" }), "quiz_results"],
    ["an unknown API path", "/api/nothing-here", post({}), null],
    ["PUT on a result", "/api/quiz/result", { ...post(QUIZ), method: "PUT" }, "quiz_results"],
    ["DELETE on a page", "/blog", { method: "DELETE" }, null],
    ["PATCH on the home page", "/", { method: "PATCH" }, null],
  ] as const)(
    "%s: counted, and refused with nothing written once the budget is spent",
    async (_name, path, init, table) => {
      const t = limitedApp(3);
      for (let i = 0; i < 3; i++) await (await t.request(path, init as RequestInit)).arrayBuffer();
      const quiz = t.rows("quiz_results");
      const earnings = t.rows("earnings_results");
      const res = await t.request(path, init as RequestInit);
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      // Every kind of write shares one budget: the quiz endpoint is refused as well.
      expect((await t.request("/api/quiz/result", post(QUIZ))).status).toBe(429);
      expect((await t.request("/api/earnings/result", post(EARNINGS))).status).toBe(429);
      expect([t.rows("quiz_results"), t.rows("earnings_results")]).toEqual([quiz, earnings]);
      if (table) expect(t.rows(table)).toBeLessThanOrEqual(3);
    },
  );

  test.each([
    "/",
    "/blog",
    "/api/blog/posts",
    "/api/settings",
    "/healthz",
    "/sitemap.xml",
    "/sitemap-pages.xml",
    "/sitemap-posts-1.xml",
    "/quiz/result?archetype=Couple",
  ])("a client over its write limit still reads: GET %s", async (path) => {
    const t = limitedApp(1);
    await t.request("/api/quiz/result", post(QUIZ));
    expect((await t.request("/api/quiz/result", post(QUIZ))).status).toBe(429);
    expect((await t.request(path)).status).toBe(200);
    expect((await t.request(path, { method: "HEAD" })).status).toBeLessThan(400);
  });

  test.each([
    ["sign in", "/api/auth/login", post({ username: "x", password: "y" }, { origin: "http://localhost" })],
    ["sign out", "/api/auth/logout", post({}, { origin: "http://localhost" })],
  ] as const)("%s is not counted: it stores nothing and has its own throttle", async (_name, path, init) => {
    const t = limitedApp(2);
    for (let i = 0; i < 4; i++) expect((await t.request(path, init as RequestInit)).status).not.toBe(429);
    expect((await t.request("/api/quiz/result", post(QUIZ))).status).toBe(201);
    expect((await t.request("/api/quiz/result", post(QUIZ))).status).toBe(201);
    expect((await t.request("/api/quiz/result", post(QUIZ))).status).toBe(429);
  });

  test("the signed-in admin's own writes are not counted", async () => {
    const admin = await adminApp({
      testHooks: { writeLimiter: new WriteLimiter({ count: 2, windowSeconds: 60 }, { now: () => 0 }) },
    });
    // Signing in is not counted: two writes spend the budget.
    await admin.request("/api/quiz/result", post(QUIZ));
    await admin.request("/api/quiz/result", post(QUIZ));
    expect((await admin.request("/api/quiz/result", post(QUIZ))).status).toBe(429);
    const settings = await (await admin.asAdmin("/api/admin/settings")).json();
    for (let i = 0; i < 5; i++) {
      expect((await admin.asAdmin("/api/admin/settings", { method: "PUT", json: settings })).status).toBe(200);
    }
  });

  test("recovers with the clock: one write back per window/limit, the whole budget after a window", async () => {
    const t = limitedApp(6); // one write every 10 s
    for (let i = 0; i < 6; i++) expect((await t.request("/api/quiz/result", post(QUIZ))).status).toBe(201);
    const refused = await t.request("/api/quiz/result", post(QUIZ));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("10");
    t.advance(9_000);
    const soon = await t.request("/api/quiz/result", post(QUIZ));
    expect([soon.status, soon.headers.get("retry-after")]).toEqual([429, "1"]);
    t.advance(1_000);
    expect((await t.request("/api/quiz/result", post(QUIZ))).status).toBe(201);
    expect((await t.request("/api/quiz/result", post(QUIZ))).status).toBe(429);
    t.advance(WINDOW * 1000);
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.request("/api/quiz/result", post(QUIZ))).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429]);
  });

  test("a refused request does not push the wait further out (retrying does not lock a client out)", async () => {
    const t = limitedApp(2);
    await t.request("/api/quiz/result", post(QUIZ));
    await t.request("/api/quiz/result", post(QUIZ));
    for (let i = 0; i < 50; i++) expect((await t.request("/api/quiz/result", post(QUIZ))).status).toBe(429);
    t.advance(30_000);
    expect((await t.request("/api/quiz/result", post(QUIZ))).status).toBe(201);
  });
});

describe("the write limiter: clients, addresses and memory", () => {
  test("other clients are unaffected by one that is over its limit", () => {
    const limiter = new WriteLimiter({ count: 3, windowSeconds: 60 }, { now: () => 0 });
    for (let i = 0; i < 3; i++) expect(limiter.take("203.0.113.7")).toBe(0);
    expect(limiter.take("203.0.113.7")).toBeGreaterThan(0);
    for (const other of ["203.0.113.8", "198.51.100.7", "2001:db8:1:2::1", "::1"]) expect(limiter.take(other)).toBe(0);
  });

  test.each([
    ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", true],
    ["2001:db8:1:2::1", "2001:DB8:1:2:0:0:0:9", true],
    ["2001:db8:1:2::1", "2001:db8:1:3::1", false],
    ["::ffff:192.0.2.1", "192.0.2.1", true],
    ["192.0.2.1", "192.0.2.2", false],
    ["fe80::1%eth0", "fe80::2", true],
    ["::1", "::2", true],
  ])("%s and %s share a budget: %p", (a, b, same) => {
    expect(clientKey(a) === clientKey(b)).toBe(same);
  });

  test("a flood of addresses keeps the memory bounded, and busy clients are still counted", () => {
    let now = 0;
    const limiter = new WriteLimiter({ count: 2, windowSeconds: 60 }, { now: () => now, maxClients: 1000 });
    for (let i = 0; i < 50_000; i++) {
      limiter.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      expect(limiter.clients).toBeLessThanOrEqual(1000);
    }
    now += 1;
    limiter.take("203.0.113.1");
    limiter.take("203.0.113.1");
    expect(limiter.take("203.0.113.1")).toBeGreaterThan(0);
  });

  test("clients whose budget is full again are forgotten first", () => {
    let now = 0;
    const limiter = new WriteLimiter({ count: 1, windowSeconds: 1 }, { now: () => now, maxClients: 10 });
    for (let i = 0; i < 10; i++) limiter.take(`192.0.2.${i}`);
    now += 1000;
    limiter.take("198.51.100.1");
    expect(limiter.clients).toBe(1);
  });

  test("junk addresses are still a key of bounded length", () => {
    for (const junk of ["", "x".repeat(10_000), "::::::::::", "1:2:3:4:5:6:7:8:9", "zz::1", "local"]) {
      expect(clientKey(junk).length).toBeLessThanOrEqual(64);
    }
  });
});

describe("junk in the query never answers 5xx", () => {
  const long = "a".repeat(8000);
  const junk: [string, string][] = [
    ["a lone %", "%"],
    ["a bad escape", "%zz=%zz"],
    ["a truncated UTF-8 escape", "x=%E0%A4%A"],
    ["an encoded NUL", "x=%00&%00=1"],
    ["a lone surrogate", "x=%ED%A0%80"],
    ["invalid UTF-8", "x=%FF%FE%C3%28"],
    ["emoji and accents", "%C3%BC=%F0%9F%98%80"],
    ["right-to-left and zero-width", "x=%E2%80%AE%E2%80%8B"],
    ["an 8 KB value", `x=${long}`],
    ["a thousand repeats", Array(1000).fill("x=1").join("&")],
    ["a thousand names", Array.from({ length: 1000 }, (_, i) => `n${i}=1`).join("&")],
    ["only separators", "&&&==&=&"],
    ["a value without a name", "=1"],
    ["prototype names", "__proto__=1&constructor=x&toString=y&hasOwnProperty=z"],
    ["brackets", "id[]=1&id[x]=2&quizId[]=3"],
    ["plus signs", "x=+++&y=%2B"],
    ["more question marks", "?x=??&?"],
    ["HTML", "x=%3Cscript%3Ealert(1)%3C%2Fscript%3E"],
    ["an escaped newline", "x=%0D%0ASet-Cookie:%20a=b"],
    ["a bad archetype", "archetype=%FF&archetype=Couple"],
    ["an 8 KB archetype", `archetype=${long}`],
    ["an 8 KB result id", `id=${long}&tier=${long}`],
    ["an id of path segments", "id=..%2F..%2Fetc%2Fpasswd&quizId=..%2Fadmin"],
    ["an id that is a bad escape", "id=%&quizId=%ZZ"],
    ["negative and huge module numbers", "moduleId=-1&moduleId=99999999999999999999"],
    ["NaN and Infinity", "moduleId=NaN&quiz=Infinity"],
    ["an 8 KB category", `category=${long}`],
    ["a category with slashes", "category=..%2F..%2F"],
    ["empty known values", "archetype=&id=&quizId=&tier=&moduleId=&category=&quiz="],
  ];
  const targets = [
    "/",
    "/blog",
    "/blog/platform-reviews",
    "/quiz/result",
    "/quiz/earnings",
    "/quiz/starter-kit",
    "/learn/1",
    "/learn/module-complete",
    "/learn/quiz-complete",
    "/admin-login",
    "/no-such-page",
    "/api/blog/posts",
    "/api/module/1/affiliate-offers",
    "/sitemap.xml",
    "/sitemap-posts-1.xml",
  ];
  let app: TestApp;
  beforeAll(() => {
    app = testApp({ testHooks: { writeLimiter: null } });
  });

  test.each(junk.flatMap(([name, query]) => targets.map((target) => [name, target, query] as const)))(
    "%s on %s",
    async (_name, target, query) => {
      const res = await app.request(`${target}?${query}`);
      const body = await res.text();
      expect([target, res.status < 500]).toEqual([target, true]);
      expect(body).not.toMatch(STACK_TRACE);
    },
  );
});

// ---- The compiled executable: real sockets, real client addresses. ----

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One HTTP/1.1 request over a socket from `localAddress` (a loopback address of its own). */
function raw(port: number, head: string, body = "", localAddress = "127.0.0.1"): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress });
    const chunks: Buffer[] = [];
    socket.on("connect", () => socket.end(head + body));
    socket.on("data", (chunk) => chunks.push(Buffer.from(chunk)));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [top = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = top.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body: rest.join("\r\n\r\n") });
    });
  });
}

const postRaw = (port: number, path: string, data: unknown, from: string) => {
  const body = JSON.stringify(data);
  return raw(
    port,
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
    body,
    from,
  );
};

const rowsIn = (dataDir: string, table: string) => {
  const db = new Database(join(dataDir, "app.db"), { readonly: true });
  try {
    return (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("the compiled executable", () => {
  const running: Running[] = [];
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(async () => {
    for (const server of running) {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
  });
  async function start(env: Record<string, string> = {}) {
    const dataDir = scratchDir("cost");
    const server = await startServer(dataDir, { NODE_ENV: "production", ...env });
    running.push(server);
    return { ...server, dataDir };
  }

  test("floods of unique query strings and of saved results' pages leave the real pages cached", async () => {
    const server = await start({ WRITE_LIMIT: "off" });
    const get = async (path: string) => {
      const res = await fetch(server.url + path);
      await res.arrayBuffer();
      return res;
    };
    for (const path of REAL_PAGES) await get(path);
    // Three times what each cache holds (500 shared pages, 100 visitors' pages).
    await pool(1500, 16, async (i) => {
      const res = await get(`/?x=${i}&utm_source=${crypto.randomUUID()}`);
      expect(res.headers.get("x-cache")).toBe("hit");
    });
    const ids = await pool(300, 16, async () => {
      const res = await fetch(`${server.url}/api/quiz/result`, post(QUIZ));
      return ((await res.json()) as { id: string }).id;
    });
    await pool(ids.length, 16, async (i) => {
      expect((await get(`/quiz/result?archetype=Girl+Next+Door&id=${ids[i]}`)).status).toBe(200);
    });
    const misses = [];
    for (const path of REAL_PAGES) if ((await get(path)).headers.get("x-cache") !== "hit") misses.push(path);
    expect(misses).toEqual([]);
  }, 120_000);

  test("WRITE_LIMIT=5/minute: one client gets 5 writes and then 429 with Retry-After; the others are unaffected", async () => {
    const server = await start({ WRITE_LIMIT: "5/minute" });
    const before = rowsIn(server.dataDir, "quiz_results");
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => postRaw(server.port, "/api/quiz/result", QUIZ, "127.0.0.2")),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(refused.body).toContain("Too many submissions");
    expect(rowsIn(server.dataDir, "quiz_results") - before).toBe(5);
    // Another address, and the limited one reading, are served as usual.
    for (const from of ["127.0.0.3", "127.0.0.4"]) {
      expect((await postRaw(server.port, "/api/quiz/result", QUIZ, from)).status).toBe(201);
    }
    const read = await raw(
      server.port,
      "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
      "",
      "127.0.0.2",
    );
    expect(read.status).toBe(200);
    expect(rowsIn(server.dataDir, "quiz_results") - before).toBe(7);
  }, 60_000);

  test("the default configuration limits anonymous writes (60 a minute per client)", async () => {
    const server = await start();
    // The budget refills at one a second: a busy machine taking seconds over the burst earns a
    // write more per second taken, so the bound counts them rather than assuming a quiet machine.
    const started = performance.now();
    const statuses: number[] = [];
    while (statuses.length < 200 && statuses.at(-1) !== 429)
      statuses.push((await postRaw(server.port, "/api/quiz/result", QUIZ, "127.0.0.5")).status);
    const seconds = (performance.now() - started) / 1000;
    const saved = statuses.filter((status) => status === 201).length;
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(201));
    expect(saved).toBeLessThanOrEqual(60 + Math.ceil(seconds));
    expect(new Set(statuses)).toEqual(new Set([201, 429]));
  }, 60_000);

  test("WRITE_LIMIT=off turns the limit off", async () => {
    const server = await start({ WRITE_LIMIT: "off" });
    const statuses = await pool(150, 10, async () => (await fetch(`${server.url}/api/quiz/result`, post(QUIZ))).status);
    expect(new Set(statuses)).toEqual(new Set([201]));
  }, 60_000);

  test.each(["sixty", "60/fortnight", "-5/minute", "60/0s"])(
    "WRITE_LIMIT=%s: the server does not start and says why",
    (value) => {
      const dataDir = scratchDir("cost-config");
      const result = Bun.spawnSync([join(import.meta.dir, "..", "..", "dist", "cam-guide")], {
        env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, PORT: "4749", WRITE_LIMIT: value },
      });
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr.toString()).toContain("WRITE_LIMIT must be a number of writes per time");
      expect(existsSync(join(dataDir, "app.db"))).toBe(false);
    },
  );

  test.each([
    ["a lone %", "/?%"],
    ["a bad escape", "/blog?category=%zz"],
    ["raw bytes above ASCII", "/quiz/result?archetype=\u00e9\u00ff"],
    ["a 12 KB query", `/?x=${"a".repeat(12_000)}`],
    ["a 40 KB query", `/?x=${"a".repeat(40_000)}`],
    ["a thousand repeats", `/learn/1?${Array(1000).fill("quiz=true").join("&")}`],
    ["an escaped NUL", "/quiz/earnings?quizId=%00"],
    ["an id of dots", "/quiz/starter-kit?quizId=../../../etc/passwd"],
  ])("a raw request line with %s: never 5xx", async (_name, target) => {
    const server = running[0] ?? (await start({ WRITE_LIMIT: "off" }));
    const answer = await raw(server.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).not.toMatch(STACK_TRACE);
  });
});
