import { describe, expect, test } from "bun:test";
import { createAnalytics } from "#server/features/analytics/counting.ts";
import { count, reach, record, rollUp, saltFor, stepBit, visitorHash } from "#server/features/analytics/service.ts";
import { analyticsDaily, analyticsSalts, analyticsVisitors } from "#server/features/analytics/table.ts";
import { clientResolver } from "#server/lib/client.ts";
import { utcDay } from "#server/lib/utc-day.ts";
import { memoryLogger } from "#server/logger.ts";
import { WriteLimiter } from "#server/plugins/write-limit.ts";
import {
  DAILY_EVENTS_PER_VISITOR,
  type FunnelStep,
  METRICS,
  OTHER_KEY,
  OVER_LIMIT_KEY,
} from "#shared/features/analytics/constants.ts";
import { testApp } from "./support/app.ts";
import { createLink, createOffer, createPost } from "./support/factories.ts";
import { listeningApp } from "./support/listening.ts";

const UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 test-visitor";
const BROWSER = { "user-agent": UA };
const QUIZ = { archetype: "Girl Next Door", answers: Array(15).fill("A") };

type App = ReturnType<typeof testApp>;

async function counts(t: App): Promise<Record<string, number>> {
  const rows = await t.db.select().from(analyticsDaily);
  return Object.fromEntries(rows.map((r) => [`${r.metric}:${r.key}`, r.count]));
}

async function visitors(t: App) {
  return t.db.select().from(analyticsVisitors);
}

const get = (t: App, path: string, headers: Record<string, string> = BROWSER, method = "GET") =>
  t.request(path, { method, headers, redirect: "manual" });

const beacon = (t: App, events: unknown, headers: Record<string, string> = {}) =>
  t.request("/api/analytics", {
    method: "POST",
    headers: { ...BROWSER, "content-type": "application/json", "sec-fetch-site": "same-origin", ...headers },
    body: typeof events === "string" ? events : JSON.stringify({ events }),
  });

describe("what the server counts", () => {
  test("a click on a managed link inside a post counts under that post; a post the site lacks counts as none", async () => {
    const t = testApp({ seed: false });
    const link = await createLink(t.db, { slug: "in-post" });
    const post = await createPost(t.db, { slug: "my-setup" });
    expect((await get(t, `/go/${link.slug}?p=post:${post.slug}`)).status).toBe(302);
    await get(t, `/go/${link.slug}?p=post:no-such-post`);
    await get(t, `/go/${link.slug}?p=post:../../evil`);
    const c = await counts(t);
    expect(c[`click:in-post/post:${post.slug}`]).toBe(1);
    expect(c["click:in-post/"]).toBe(2);
    expect(Object.keys(c).filter((k) => k.startsWith("click:"))).toHaveLength(2);
  });

  test("a scripted visit: pages, the quiz, a click, with the right keys and funnel steps", async () => {
    const t = testApp();
    const link = await createLink(t.db, { slug: "platform-a" });
    const post = await createPost(t.db, { slug: "first-post" });
    expect(
      (await get(t, "/?utm_source=Newsletter", { ...BROWSER, referer: "https://www.search.example/q" })).status,
    ).toBe(200);
    // The same page again: served from the render cache, still counted.
    expect((await get(t, "/")).status).toBe(200);
    expect((await get(t, `/blog/${post.slug}`)).status).toBe(200);
    expect((await get(t, "/learn/3")).status).toBe(200);
    const saved = await t.request("/api/quiz/result", {
      method: "POST",
      headers: { ...BROWSER, "content-type": "application/json" },
      body: JSON.stringify(QUIZ),
    });
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: string };
    expect((await get(t, `/quiz/result?archetype=Girl+Next+Door&id=${id}`)).status).toBe(200);
    expect((await get(t, `/quiz/starter-kit?quizId=${id}`)).status).toBe(200);
    const go = await get(t, `/go/${link.slug}?p=quiz-result`);
    expect(go.status).toBe(302);
    // Not counted: an unknown page, an unknown link, an admin page.
    expect((await get(t, "/no-such-page")).status).toBe(404);
    await get(t, "/go/no-such-link");
    await get(t, "/admin-login");
    // A later step of the quiz without JavaScript is the same page.
    expect((await get(t, "/quiz?answers=AB")).status).toBe(200);

    const c = await counts(t);
    expect(c).toMatchObject({
      "pageview:home": 2,
      "pageview:blog-post": 1,
      [`post_view:${post.slug}`]: 1,
      "pageview:module": 1,
      "module_view:3": 1,
      "quiz_finish:Girl Next Door": 1,
      "pageview:quiz-result": 1,
      "result_view:": 1,
      "pageview:starter-kit": 1,
      "kit_view:": 1,
      [`click:${link.slug}/quiz-result`]: 1,
      "referrer:www.search.example": 1,
      "utm_source:newsletter": 1,
    });
    expect(c["pageview:not-found"]).toBeUndefined();
    expect(c["pageview:admin-login"]).toBeUndefined();
    expect(c["pageview:quiz"]).toBeUndefined();
    expect(Object.keys(c).some((k) => k.startsWith("click:no-such-link"))).toBe(false);
    expect(Object.keys(c).some((k) => k.startsWith("bot:"))).toBe(false);
    // One visitor, with every step the visit reached.
    const rows = await visitors(t);
    expect(rows).toHaveLength(1);
    const reached = rows[0]!.steps;
    for (const step of ["home", "result", "starter-kit", "click"] as const) expect(reached & stepBit(step)).not.toBe(0);
    expect(reached & stepBit("quiz-start")).toBe(0);
    // Another browser is another visitor.
    await get(t, "/", { "user-agent": `${UA} other` });
    expect(await visitors(t)).toHaveLength(2);
  });

  test("the quiz and the calculator sent without JavaScript count their finish (and the quiz's start)", async () => {
    const t = testApp();
    const form = (path: string, body: string) =>
      t.request(path, {
        method: "POST",
        headers: { ...BROWSER, "content-type": "application/x-www-form-urlencoded" },
        body,
        redirect: "manual",
      });
    const quiz = await form("/quiz", `answers=${"A".repeat(15)}`);
    expect(quiz.status).toBe(303);
    const c = await counts(t);
    expect(c["quiz_start:"]).toBe(1);
    expect(c["quiz_finish:Girl Next Door"]).toBe(1);
    const [row] = await visitors(t);
    expect(row!.steps & stepBit("quiz-start")).not.toBe(0);
  });

  test("bots, empty user agents, HEAD and prefetches count only as bots", async () => {
    const t = testApp();
    const link = await createLink(t.db);
    await get(t, "/", { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
    await get(t, `/go/${link.slug}`, { "user-agent": "curl/8.5.0" });
    await get(t, "/", {});
    await get(t, "/", BROWSER, "HEAD");
    await get(t, "/blog", { ...BROWSER, "sec-purpose": "prefetch" });
    await get(t, "/blog", { ...BROWSER, purpose: "prefetch" });
    expect(await counts(t)).toEqual({
      "bot:user-agent": 2,
      "bot:empty-user-agent": 1,
      "bot:head": 1,
      "bot:prefetch": 2,
    });
    expect(await visitors(t)).toHaveLength(0);
  });

  test("Sec-GPC: 1 and DNT: 1 count nothing at all", async () => {
    const t = testApp();
    const link = await createLink(t.db);
    for (const privacy of [{ "sec-gpc": "1" }, { dnt: "1" }] as Record<string, string>[]) {
      await get(t, "/", { ...BROWSER, ...privacy });
      await get(t, `/go/${link.slug}`, { ...BROWSER, ...privacy });
      await get(t, "/", { ...privacy, "user-agent": "Googlebot/2.1" });
      expect((await beacon(t, [{ metric: "quiz_start", key: "" }], privacy)).status).toBe(204);
    }
    expect(await counts(t)).toEqual({});
    expect(await visitors(t)).toHaveLength(0);
    expect(await t.db.select().from(analyticsSalts)).toHaveLength(0);
  });

  test("ANALYTICS=off counts nothing", async () => {
    const t = testApp({ analytics: false });
    const link = await createLink(t.db);
    await get(t, "/");
    await get(t, `/go/${link.slug}`);
    await get(t, "/", { "user-agent": "Googlebot/2.1" });
    expect((await beacon(t, [{ metric: "quiz_start", key: "" }])).status).toBe(204);
    expect(await counts(t)).toEqual({});
    expect(await visitors(t)).toHaveLength(0);
  });
});

test("count adds up per day, metric and key; reach ORs a visitor's steps; record does both", async () => {
  const t = testApp();
  const now = new Date("2026-02-01T10:00:00Z");
  await count(t.db, METRICS.click, "platform-one/footer", now);
  await count(t.db, METRICS.click, "platform-one/footer", now);
  await count(t.db, METRICS.click, "platform-one/footer", new Date("2026-02-02T10:00:00Z"));
  await reach(t.db, "abc", "home", now);
  await reach(t.db, "abc", "click", now);
  await reach(t.db, "abc", "home", now);
  await record(t.db, { visitor: "abc", events: [{ metric: METRICS.quizStart, key: "" }], steps: ["quiz-start"] }, now);
  const rows = await t.db.select().from(analyticsDaily);
  expect(rows.filter((r) => r.day === "2026-02-01").map((r) => [r.metric, r.key, r.count])).toEqual([
    ["click", "platform-one/footer", 2],
    ["quiz_start", "", 1],
  ]);
  const [visitor] = await visitors(t);
  expect(visitor).toEqual({
    day: "2026-02-01",
    visitor: "abc",
    steps: stepBit("home") | stepBit("click") | stepBit("quiz-start"),
  });
});

test("the server's counting waits in memory and writes everyone's counts together on flush", async () => {
  const t = testApp();
  const analytics = createAnalytics({
    db: t.db,
    client: clientResolver(),
    enabled: true,
    logger: memoryLogger(),
    flushMs: 60_000,
  });
  const page = new Request("http://localhost/", { headers: BROWSER });
  for (let i = 0; i < 3; i++) await analytics.page(page, null, 200);
  await analytics.track(new Request("http://localhost/", { headers: {} }), null, { events: [], steps: [] });
  expect(await counts(t)).toEqual({});
  await analytics.flush();
  expect(await counts(t)).toEqual({ "pageview:home": 3, "bot:empty-user-agent": 1 });
  const rows = await visitors(t);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.steps).toBe(stepBit("home"));
  await analytics.flush();
  expect((await counts(t))["pageview:home"]).toBe(3);
});

describe("what is stored", () => {
  test("the raw visitor rows hold a day, a hash and steps: never the address or the user agent", async () => {
    // A real listening server behind a trusted proxy: the visitor's address is the forwarded one.
    const t = await listeningApp({ trustedProxies: ["127.0.0.1"] });
    const res = await t.send({
      from: "127.0.0.1",
      method: "GET",
      path: "/",
      headers: { "user-agent": UA, "x-forwarded-for": "203.0.113.77" },
    });
    expect(res.status).toBe(200);
    const columns = t.sqlite.query("select name from pragma_table_info('analytics_visitors')").all() as {
      name: string;
    }[];
    expect(columns.map((c) => c.name).sort()).toEqual(["day", "steps", "visitor"]);
    const [row] = await visitors(t);
    // The hash is made from the forwarded address (the one the write limit uses) and the agent.
    expect(row!.visitor).toBe(await visitorHash(t.db, "203.0.113.77", UA, new Date()));
    const stored = ["analytics_visitors", "analytics_daily", "analytics_salts"]
      .flatMap((table) => t.sqlite.query(`select * from ${table}`).all() as Record<string, unknown>[])
      .flatMap((r) => Object.values(r).map(String));
    expect(stored.length).toBeGreaterThan(0);
    for (const value of stored) {
      expect(value).not.toContain("Mozilla");
      expect(value).not.toContain("test-visitor");
      expect(value).not.toContain("203.0.113.77");
      expect(value).not.toContain("127.0.0.1");
    }
    expect(t.logger.lines.join("\n")).not.toContain("203.0.113.77");
  });

  test("the roll-up turns past days into visitors and funnel counts, deletes the raw rows, and runs twice safely", async () => {
    let now = new Date("2026-03-10T23:59:00Z");
    const t = testApp({ testHooks: { analyticsClock: () => now } });
    const link = await createLink(t.db);
    await get(t, "/");
    await get(t, `/go/${link.slug}`);
    await get(t, "/", { "user-agent": `${UA} second` });
    now = new Date("2026-03-11T00:01:00Z");
    // Today's visitor stays raw.
    await get(t, "/");
    const first = await rollUp(t.db, now);
    expect(first.days).toEqual(["2026-03-10"]);
    const daily = async (day: string) =>
      Object.fromEntries(
        (await t.db.select().from(analyticsDaily))
          .filter((r) => r.day === day)
          .map((r) => [`${r.metric}:${r.key}`, r.count]),
      );
    expect(await daily("2026-03-10")).toMatchObject({
      [`${METRICS.visitors}:`]: 2,
      [`${METRICS.funnel}:home`]: 2,
      [`${METRICS.click}:${link.slug}/`]: 1,
    });
    // The click came straight after the home page, without the steps between: the funnel
    // holds visitors who took every step up to one, so it is the click, not a funnel step.
    expect((await daily("2026-03-10"))[`${METRICS.funnel}:click`]).toBeUndefined();
    expect((await daily("2026-03-10"))[`${METRICS.funnel}:result`]).toBeUndefined();
    const raw = await visitors(t);
    expect(raw.map((r) => r.day)).toEqual(["2026-03-11"]);
    const again = await rollUp(t.db, now);
    expect(again.days).toEqual([]);
    expect((await daily("2026-03-10"))[`${METRICS.visitors}:`]).toBe(2);
  });

  test("the funnel counts a visitor at a step only with every step before it, so no step outgrows the one above", async () => {
    const t = testApp();
    const bits = (...steps: FunnelStep[]) => steps.reduce((all, step) => all | stepBit(step), 0);
    await t.db.insert(analyticsVisitors).values([
      { day: "2026-04-01", visitor: "a", steps: bits("home", "quiz-start", "result", "calculator") },
      { day: "2026-04-01", visitor: "b", steps: bits("home", "quiz-start") },
      // Came in at the result (a shared link) and clicked: in no step past none.
      { day: "2026-04-01", visitor: "c", steps: bits("result", "calculator", "click") },
      { day: "2026-04-01", visitor: "d", steps: bits("home", "result") },
    ]);
    await rollUp(t.db, new Date("2026-04-02T01:00:00Z"));
    const rows = await t.db.select().from(analyticsDaily);
    const funnel = Object.fromEntries(rows.filter((r) => r.metric === METRICS.funnel).map((r) => [r.key, r.count]));
    expect(funnel).toEqual({ home: 3, "quiz-start": 2, result: 1, calculator: 1 });
  });

  test("a visitor's hash is SHA-256 of the day's salt, address and agent, whether remembered or made again", async () => {
    const t = testApp();
    const sha = async (day: string, address: string, agent: string) =>
      new Bun.CryptoHasher("sha256")
        .update(`${await saltFor(t.db, day)}\n${address}\n${agent}`)
        .digest("hex")
        .slice(0, 32);
    const monday = new Date("2026-05-18T08:00:00Z");
    const tuesday = new Date("2026-05-19T08:00:00Z");
    const first = await visitorHash(t.db, "203.0.113.5", UA, monday);
    expect(first).toBe(await sha("2026-05-18", "203.0.113.5", UA));
    // Asked again (remembered), the same; another address or agent, another hash.
    expect(await visitorHash(t.db, "203.0.113.5", UA, monday)).toBe(first);
    expect(await visitorHash(t.db, "203.0.113.6", UA, monday)).toBe(await sha("2026-05-18", "203.0.113.6", UA));
    expect(await visitorHash(t.db, "203.0.113.5", `${UA} x`, monday)).toBe(
      await sha("2026-05-18", "203.0.113.5", `${UA} x`),
    );
    // The next day, the next salt; a request of the day before still gets that day's hash.
    const next = await visitorHash(t.db, "203.0.113.5", UA, tuesday);
    expect(next).toBe(await sha("2026-05-19", "203.0.113.5", UA));
    expect(next).not.toBe(first);
    expect(await visitorHash(t.db, "203.0.113.5", UA, monday)).toBe(first);
    // An agent too long to be remembered is hashed all the same.
    const long = `${UA} ${"x".repeat(600)}`;
    expect(await visitorHash(t.db, "203.0.113.5", long, tuesday)).toBe(await sha("2026-05-19", "203.0.113.5", long));
    expect(await visitorHash(t.db, "203.0.113.5", long, tuesday)).toBe(await sha("2026-05-19", "203.0.113.5", long));
  });

  test("a salt older than two days is gone after the roll-up; yesterday's and today's stay", async () => {
    const t = testApp();
    const now = new Date("2026-05-20T08:00:00Z");
    for (const day of ["2026-05-17", "2026-05-18", "2026-05-19", "2026-05-20"]) await saltFor(t.db, day);
    const report = await rollUp(t.db, now);
    expect(report.salts).toBe(2);
    const left = (await t.db.select().from(analyticsSalts)).map((r) => r.day).sort();
    expect(left).toEqual(["2026-05-19", utcDay(now)]);
    const [salt] = await t.db.select().from(analyticsSalts);
    expect(salt!.salt).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("POST /api/analytics, what only the browser sees", () => {
  test("valid events answer 204 and are counted, with their funnel steps", async () => {
    const t = testApp();
    const offer = await createOffer(t.db);
    const post = await createPost(t.db, { slug: "beacon-post" });
    const res = await beacon(t, [
      { metric: "quiz_start", key: "" },
      { metric: "lesson_read", key: "3/2" },
      { metric: "offer_view", key: String(offer.id) },
      { metric: "module_quiz", key: "3/passed" },
      { metric: "pageview", key: `/blog/${post.slug}` },
    ]);
    expect(res.status).toBe(204);
    expect(await beacon(t, [{ metric: "pageview", key: "/quiz/starter-kit" }]).then((r) => r.status)).toBe(204);
    expect(await counts(t)).toEqual({
      "quiz_start:": 1,
      "lesson_read:3/2": 1,
      [`offer_view:${offer.id}`]: 1,
      "module_quiz:3/passed": 1,
      "pageview:blog-post": 1,
      "post_view:beacon-post": 1,
      "pageview:starter-kit": 1,
      "kit_view:": 1,
    });
    const [row] = await visitors(t);
    for (const step of ["quiz-start", "lesson", "starter-kit"] as const) expect(row!.steps & stepBit(step)).not.toBe(0);
  });

  test.each([
    ["an unknown metric", [{ metric: "visitors", key: "" }]],
    ["an unknown offer", [{ metric: "offer_view", key: "999999" }]],
    ["a lesson that does not exist", [{ metric: "lesson_read", key: "11/1" }]],
    ["a module quiz with free text", [{ metric: "module_quiz", key: "3/great" }]],
    ["a page that does not exist", [{ metric: "pageview", key: "/blog/no-such-post" }]],
    ["an added page that does not exist", [{ metric: "pageview", key: "/no-such-page" }]],
    ["an admin page", [{ metric: "pageview", key: "/admin/posts" }]],
    ["another site's address", [{ metric: "pageview", key: "//evil.example/" }]],
    ["a quiz start with a key", [{ metric: "quiz_start", key: "hello" }]],
    [
      "a good event beside a bad one",
      [
        { metric: "quiz_start", key: "" },
        { metric: "lesson_read", key: "x" },
      ],
    ],
    ["no events", []],
    ["an extra field", [{ metric: "quiz_start", key: "", referrer: "x" }]],
  ])("%s: 422 with a clear message, nothing counted", async (_, events) => {
    const t = testApp();
    const res = await beacon(t, events);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: string; details: { message: string }[] };
    expect(body.error).toBeTruthy();
    expect(body.details.length).toBeGreaterThan(0);
    expect(await counts(t)).toEqual({});
    expect(await visitors(t)).toHaveLength(0);
  });

  test("an oversized body is refused with 413, malformed JSON with 400", async () => {
    const t = testApp();
    const big = JSON.stringify({ events: [{ metric: "quiz_start", key: "" }], pad: "x".repeat(5000) });
    expect((await beacon(t, big)).status).toBe(413);
    expect((await beacon(t, "{not json")).status).toBe(400);
    expect(await counts(t)).toEqual({});
  });

  test("another site's beacon is refused with 403", async () => {
    const t = testApp();
    const events = [{ metric: "quiz_start", key: "" }];
    expect((await beacon(t, events, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await beacon(t, events, { origin: "https://evil.example" })).status).toBe(403);
    expect(await counts(t)).toEqual({});
  });

  test("a client over the beacon's limit gets 429; the beacon never uses up the quiz's budget", async () => {
    const t = testApp({
      testHooks: {
        writeLimiter: new WriteLimiter({ count: 1, windowSeconds: 60 }),
        beaconLimiter: new WriteLimiter({ count: 2, windowSeconds: 60 }),
      },
    });
    const events = [{ metric: "quiz_start", key: "" }];
    expect((await beacon(t, events)).status).toBe(204);
    expect((await beacon(t, events)).status).toBe(204);
    const refused = await beacon(t, events);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect((await counts(t))["quiz_start:"]).toBe(2);
    // The quiz's one write is still there.
    const quiz = await t.request("/api/quiz/result", {
      method: "POST",
      headers: { "content-type": "application/json", ...BROWSER },
      body: JSON.stringify(QUIZ),
    });
    expect(quiz.status).toBe(201);
  });
});

describe("what cannot be inflated", () => {
  test("another site's image or script pointing at a page or a link counts nothing", async () => {
    const t = testApp();
    await createLink(t.db, { slug: "platform-a" });
    const embedded = {
      ...BROWSER,
      "sec-fetch-dest": "image",
      "sec-fetch-mode": "no-cors",
      "sec-fetch-site": "cross-site",
    };
    expect((await get(t, "/learn/1", embedded)).status).toBe(200);
    expect((await get(t, "/go/platform-a?p=footer", embedded)).status).toBe(302);
    expect((await get(t, "/learn/1", { ...embedded, "sec-fetch-dest": "script" })).status).toBe(200);
    expect(await counts(t)).toEqual({});
    // The same page opened in the window is counted.
    expect((await get(t, "/go/platform-a?p=footer", { ...BROWSER, "sec-fetch-dest": "document" })).status).toBe(302);
    expect((await counts(t))["click:platform-a/footer"]).toBe(1);
  });

  test("one visitor counts for at most the day's limit of events; the rest only as a bot", async () => {
    const t = testApp();
    for (let i = 0; i < DAILY_EVENTS_PER_VISITOR + 20; i++) await get(t, "/learn");
    const c = await counts(t);
    expect(c["pageview:learn"]).toBe(DAILY_EVENTS_PER_VISITOR);
    expect(c["bot:over-daily-limit"]).toBe(20);
    // Another visitor is counted as before.
    await get(t, "/learn", { "user-agent": `${UA} another` });
    expect((await counts(t))["pageview:learn"]).toBe(DAILY_EVENTS_PER_VISITOR + 1);
  });

  test("one network adds at most its share of new referrers and utm sources a day; addresses and bare names are no referrer", async () => {
    const t = testApp({ dailyLimits: { newValuesPerClient: 4 } });
    for (let i = 0; i < 7; i++)
      await get(t, `/blog?utm_source=s${i}`, { "user-agent": `${UA} ${i}`, referer: `https://r${i}.spam.example/` });
    // A site already recorded today takes no new slot.
    await get(t, "/blog?utm_source=s0", { "user-agent": `${UA} again`, referer: "https://r0.spam.example/" });
    const c = await counts(t);
    expect(Object.keys(c).filter((k) => k.startsWith("referrer:") && k !== `referrer:${OTHER_KEY}`)).toHaveLength(4);
    expect(c["referrer:r0.spam.example"]).toBe(2);
    expect(c[`referrer:${OTHER_KEY}`]).toBe(3);
    expect(c[`utm_source:${OTHER_KEY}`]).toBe(3);
    // Each visit is still counted, with its page.
    expect(c["pageview:blog"]).toBe(8);
    const before = Object.keys(c).length;
    for (const referer of ["https://192.168.1.5:8443/private", "http://[::1]/", "http://intranet/", "http://10.0.0.1/"])
      await get(t, "/blog", { "user-agent": `${UA} private`, referer });
    const after = await counts(t);
    expect(Object.keys(after)).toHaveLength(before);
  });

  test("new visitors beyond a network's daily limit are counted only in each metric's (over the limit) total", async () => {
    const t = testApp({ dailyLimits: { visitorsPerClient: 3 } });
    const link = await createLink(t.db, { slug: "platform-a" });
    // A new user agent on every request: a new visitor each time to hash-based counting.
    for (let i = 0; i < 8; i++) await get(t, `/go/${link.slug}?p=footer`, { "user-agent": `${UA} rotating ${i}` });
    for (let i = 0; i < 4; i++)
      await get(t, "/learn?utm_source=flood", { "user-agent": `${UA} page ${i}`, referer: "https://flood.example/" });
    const c = await counts(t);
    expect(await visitors(t)).toHaveLength(3);
    expect(c["click:platform-a/footer"]).toBe(3);
    // Not dropped: every click is in the total, the detail is what is capped.
    expect(c[`click:${OVER_LIMIT_KEY}`]).toBe(5);
    expect(c[`pageview:${OVER_LIMIT_KEY}`]).toBe(4);
    expect(c[`referrer:${OVER_LIMIT_KEY}`]).toBe(4);
    expect(c[`utm_source:${OVER_LIMIT_KEY}`]).toBe(4);
    expect(c["pageview:learn"]).toBeUndefined();
    // A visitor admitted earlier today is still counted in full.
    await get(t, "/learn", { "user-agent": `${UA} rotating 0` });
    expect((await counts(t))["pageview:learn"]).toBe(1);
  });

  test("quiz and calculator results beyond a network's daily limit: 429 until midnight UTC, nothing saved, the finish counted in the totals", async () => {
    const t = testApp({ dailyLimits: { resultsPerClient: 2 } });
    const post = (path: string, body: unknown) =>
      t.request(path, {
        method: "POST",
        headers: { ...BROWSER, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post("/api/quiz/result", QUIZ)).status).toBe(201);
    expect((await post("/api/quiz/result", QUIZ)).status).toBe(201);
    // An invalid body uses up nothing.
    expect((await post("/api/quiz/result", { ...QUIZ, archetype: "Dominatrix" })).status).toBe(422);
    const refused = await post("/api/quiz/result", QUIZ);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(86_400);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^Too many quiz results were saved from your network today \(the limit is 2 a day\)\. Yours was not saved/,
    );
    // The calculator has a limit of its own.
    const EARNINGS = {
      tier: "Casual Starter",
      estimatedEarnings: "$30 – $470 a month",
      score: 15,
      answers: Array(15).fill(1),
    };
    expect((await post("/api/earnings/result", EARNINGS)).status).toBe(201);
    expect((await post("/api/earnings/result", EARNINGS)).status).toBe(201);
    expect((await post("/api/earnings/result", EARNINGS)).status).toBe(429);
    // Without JavaScript: a page that says so.
    const form = await t.request("/quiz", {
      method: "POST",
      headers: { ...BROWSER, "content-type": "application/x-www-form-urlencoded" },
      body: `answers=${"A".repeat(15)}`,
    });
    expect(form.status).toBe(429);
    expect(form.headers.get("content-type")).toMatch(/^text\/html/);
    expect(t.sqlite.query("select count(*) as n from quiz_results").get()).toEqual({ n: 2 });
    expect(t.sqlite.query("select count(*) as n from earnings_results").get()).toEqual({ n: 2 });
    const c = await counts(t);
    expect(c["quiz_finish:Girl Next Door"]).toBe(2);
    expect(c[`quiz_finish:${OVER_LIMIT_KEY}`]).toBe(2);
    expect(c[`calculator_finish:${OVER_LIMIT_KEY}`]).toBe(1);
  });

  test("while data cannot be kept, a visit writes nothing, not even the day's salt, and the log says so once", async () => {
    const full = { ok: false, status: 507, reason: "the disk holding the data is full" } as const;
    const t = testApp({ storage: { check: () => full, recheck: () => full, roomFor: () => full } });
    for (let i = 0; i < 3; i++) expect((await get(t, "/learn", { "user-agent": `${UA} ${i}` })).status).toBe(200);
    expect(await counts(t)).toEqual({});
    expect(await t.db.select().from(analyticsSalts)).toEqual([]);
    expect(t.logger.lines.filter((line) => line.includes("visit counts are not written"))).toHaveLength(1);
  });

  test("the same event twice in one beacon is one event", async () => {
    const t = testApp();
    const offer = await createOffer(t.db);
    const events = Array(5).fill({ metric: "offer_view", key: String(offer.id) });
    expect((await beacon(t, events)).status).toBe(204);
    expect((await counts(t))[`offer_view:${offer.id}`]).toBe(1);
  });
});
