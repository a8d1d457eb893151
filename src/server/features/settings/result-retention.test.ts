import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { eq } from "drizzle-orm";
import { openMemoryDatabase } from "#server/db/client.ts";
import { content } from "#server/db/content.ts";
import { earningsResults } from "#server/features/earnings/table.ts";
import { quizResults } from "#server/features/quiz/table.ts";
import { refreshShippedPages } from "#server/features/site-pages/shipped.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { readMarkdown } from "#server/lib/markdown.ts";
import { memoryLogger } from "#server/logger.ts";
import { PageCache } from "#server/ssr/page-cache.ts";
import type { ResultRetention } from "#shared/features/settings/result-retention.ts";
import { SitePage } from "#shared/features/site-pages/contract.ts";
import { adminApp } from "#tests/support/admin.ts";
import { createEarningsResult, createQuizResult, createSettings } from "#tests/support/factories.ts";
import { renderPage } from "#tests/support/page.ts";
import { deleteExpiredResults } from "./expired-results.ts";
import { ResultRetentionPolicy } from "./result-retention.ts";
import { siteSettings } from "./table.ts";

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date("2030-06-15T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);
const PATH = "/api/admin/settings/result-retention";

/** A database with results of every age from 0 to 59 days (quiz results, and an estimate for each linked to it). */
async function resultsOfEveryAge() {
  const { db } = openMemoryDatabase();
  await createSettings(db);
  for (let age = 0; age < 60; age++) {
    const quiz = await createQuizResult(db, { id: `q${age}`, createdAt: daysAgo(age + 0.5) });
    await createEarningsResult(db, { id: `e${age}`, quizResultId: quiz.id, createdAt: daysAgo(age + 0.5) });
  }
  // A recent estimate that points at an old quiz result: it stays, its link is cleared.
  await createEarningsResult(db, { id: "recent", quizResultId: "q50", createdAt: daysAgo(1) });
  return db;
}

/** A pause between statements that returns at once and counts how often it was awaited. */
function countedPauses() {
  const counted = {
    times: 0,
    pause: async () => {
      counted.times++;
    },
  };
  return counted;
}

describe("deleting expired results in batches", () => {
  test("every result older than the retention goes, nothing newer; a statement per batch, a pause between", async () => {
    const db = await resultsOfEveryAge();
    const pauses = countedPauses();
    const deleted = await deleteExpiredResults(db, { now: NOW, days: 30, batchSize: 7, pause: pauses.pause });
    // Ages 30.5 to 59.5 days: 30 of each kind.
    expect(deleted).toEqual({ quiz: 30, earnings: 30 });
    const quizLeft = await db.select({ id: quizResults.id, at: quizResults.createdAt }).from(quizResults);
    expect(quizLeft.map((r) => r.id).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `q${i}`).sort());
    expect(quizLeft.every((r) => r.at >= daysAgo(30))).toBe(true);
    const recent = await db.select().from(earningsResults).where(eq(earningsResults.id, "recent"));
    expect(recent[0]?.quizResultId).toBeNull();
    // 30 rows in batches of 7: 5 statements each (the last one short), a pause after each full one and between the tables.
    expect(pauses.times).toBe(4 + 1 + 4);
    // Nothing more to do.
    expect(await deleteExpiredResults(db, { now: NOW, days: 30 })).toEqual({ quiz: 0, earnings: 0 });
  });

  test("the clock decides: the same rows a day later lose one more day of results", async () => {
    const db = await resultsOfEveryAge();
    expect(await deleteExpiredResults(db, { now: NOW, days: 10 })).toEqual({ quiz: 50, earnings: 50 });
    const tomorrow = new Date(NOW.getTime() + DAY);
    expect(await deleteExpiredResults(db, { now: tomorrow, days: 10 })).toEqual({ quiz: 1, earnings: 1 });
  });

  test("a pass asked to stop stops before its next statement", async () => {
    const db = await resultsOfEveryAge();
    const statements = countedPauses();
    const deleted = await deleteExpiredResults(db, {
      now: NOW,
      days: 1,
      batchSize: 5,
      pause: statements.pause,
      stopped: () => statements.times >= 2,
    });
    expect(deleted).toEqual({ quiz: 0, earnings: 10 });
  });
});

describe("the retention policy: passes, their report and the render cache", () => {
  test("a pass uses the days saved in Settings, reports what it deleted and drops the cached pages of results", async () => {
    const db = await resultsOfEveryAge();
    await db.update(siteSettings).set({ resultRetentionDays: 45 });
    const cache = new PageCache();
    cache.set("visitor", "result q50", { body: new Uint8Array(), status: 200, headers: [], etag: '"x"' }, 0);
    cache.set("shared", "/learn", { body: new Uint8Array(), status: 200, headers: [], etag: '"y"' }, 0);
    const logger = memoryLogger();
    const policy = new ResultRetentionPolicy({
      db,
      logger,
      now: () => NOW,
      onDeleted: () => cache.forgetVisitorPages(),
    });
    const run = await policy.deleteExpired();
    expect(run).toEqual({ finishedAt: NOW.toISOString(), deleted: 30 });
    expect(policy.describe()).toEqual({ days: 45, stored: 45, defaultDays: 180, lastRun: run });
    expect(cache.sizes).toEqual({ shared: 1, visitor: 0 });
    expect(logger.lines.some((l) => l.includes("deleted 30 saved results older than 45 days"))).toBe(true);
    // Nothing left to delete: the cache is left alone.
    cache.set(
      "visitor",
      "result q1",
      { body: new Uint8Array(), status: 200, headers: [], etag: '"z"' },
      cache.generation,
    );
    expect(await policy.deleteExpired()).toEqual({ finishedAt: NOW.toISOString(), deleted: 0 });
    expect(cache.sizes.visitor).toBe(1);
  });

  test("while the data cannot be kept, a pass deletes nothing; a pass asked for during one runs after it", async () => {
    const db = await resultsOfEveryAge();
    let writable = false;
    const policy = new ResultRetentionPolicy({ db, logger: memoryLogger(), now: () => NOW, writable: () => writable });
    expect(await policy.deleteExpired()).toBeNull();
    expect((await db.select().from(quizResults)).length).toBe(60);
    writable = true;
    await db.update(siteSettings).set({ resultRetentionDays: 50 });
    const first = policy.deleteExpired();
    await db.update(siteSettings).set({ resultRetentionDays: 40 });
    // The same pass answers, and another one runs after it with the new value.
    expect(policy.deleteExpired()).toBe(first);
    await first;
    expect((await db.select().from(quizResults)).length).toBe(40);
    await policy.stop();
    expect(await policy.deleteExpired()).toBeNull();
  });
});

async function retentionApp(clock = () => NOW) {
  const t = await adminApp({ testHooks: { clock } });
  const get = async () => (await (await t.asAdmin(PATH)).json()) as ResultRetention;
  const put = (days: unknown) => t.asAdmin(PATH, { method: "PUT", json: { days } });
  const stored = async () =>
    (await t.db.select({ days: siteSettings.resultRetentionDays }).from(siteSettings))[0]?.days ?? null;
  return { ...t, get, put, stored };
}

/** Waits until the pass a save started has finished (it runs in the background). */
async function passAfterSave(t: Awaited<ReturnType<typeof retentionApp>>) {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const { lastRun } = await t.get();
    if (lastRun) return lastRun;
    await Bun.sleep(5);
  }
  throw new Error("no pass after the save");
}

describe("the retention in Settings (admin API)", () => {
  test("the default is 180 days; a saved value applies at once and deletes what it makes expired", async () => {
    const t = await retentionApp();
    await createQuizResult(t.db, { id: "old", createdAt: daysAgo(40) });
    await createQuizResult(t.db, { id: "new", createdAt: daysAgo(10) });
    expect(await t.get()).toEqual({ days: 180, stored: null, defaultDays: 180, lastRun: null });
    const res = await t.put(30);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ days: 30, stored: 30, defaultDays: 180 });
    expect(await t.stored()).toBe(30);
    expect(await passAfterSave(t)).toEqual({ finishedAt: NOW.toISOString(), deleted: 1 });
    expect((await t.db.select({ id: quizResults.id }).from(quizResults)).map((r) => r.id)).toEqual(["new"]);
    // null follows the default again.
    expect(await (await t.put(null)).json()).toMatchObject({ days: 180, stored: null });
    expect(await t.stored()).toBeNull();
    for (const days of [1, 3650]) expect((await t.put(days)).status).toBe(200);
  });

  test("a value outside whole days from 1 to 3,650: 422 at the field with the allowed range, nothing changes", async () => {
    const t = await retentionApp();
    await t.put(90);
    for (const days of [0, -1, 3651, 1.5, "30", "", true, [30], { days: 30 }, undefined]) {
      const res = await t.put(days);
      expect([days, res.status]).toEqual([days, 422]);
      const body = (await res.json()) as { details: { field: string; message: string }[] };
      expect(body.details).toContainEqual({
        field: "days",
        message: "Keep results for a whole number of days from 1 to 3,650 (ten years)",
      });
      expect(await t.stored()).toBe(90);
    }
  });

  test("without the admin's session 401, from another site 403; nothing changes", async () => {
    const t = await retentionApp();
    const body = JSON.stringify({ days: 1 });
    const headers = { "content-type": "application/json" };
    const guest = await t.request(PATH, { method: "PUT", headers: { ...headers, origin: "http://localhost" }, body });
    expect(guest.status).toBe(401);
    const foreign = await t.request(PATH, {
      method: "PUT",
      headers: { ...headers, origin: "https://evil.example", cookie: t.cookie },
      body,
    });
    expect(foreign.status).toBe(403);
    expect(await t.stored()).toBeNull();
  });
});

describe("an expired result is gone for visitors, deleted yet or not", () => {
  test("its read and its page answer 404 with how long results are kept; a newer one still shows", async () => {
    const t = await retentionApp();
    const old = await createQuizResult(t.db, { archetype: "Dominatrix", createdAt: daysAgo(31) });
    const fresh = await createQuizResult(t.db, { archetype: "Dominatrix", createdAt: daysAgo(29) });
    const estimate = await createEarningsResult(t.db, { createdAt: daysAgo(31) });
    // Kept for 180 days: both show.
    expect((await t.request(`/api/quiz/result/${old.id}`)).status).toBe(200);
    await t.db.update(siteSettings).set({ resultRetentionDays: 30 });
    const read = await t.request(`/api/quiz/result/${old.id}`);
    expect(read.status).toBe(404);
    expect(await read.json()).toEqual({ error: "No quiz result with that id (results are kept for 30 days)." });
    expect((await t.request(`/api/quiz/result/${fresh.id}`)).status).toBe(200);
    expect((await t.request(`/api/earnings/result/${estimate.id}`)).status).toBe(404);
    const page = await renderPage(t.request, `/quiz/result?archetype=Dominatrix&id=${old.id}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain("Saved quiz results are kept for 30 days and then deleted");
    const tier = await renderPage(t.request, `/quiz/earnings?tier=Casual%20Starter&id=${estimate.id}`);
    expect(tier.status).toBe(404);
    expect(tier.text).toContain("Saved earnings estimates are kept for 30 days");
    expect((await renderPage(t.request, `/quiz/result?archetype=Dominatrix&id=${fresh.id}`)).status).toBe(200);
  });

  // (A pass on the hourly timer drops the cached pages of results itself: see the policy's test above.)
  test("a cached result page is not served once a shorter retention in Settings deleted its result", async () => {
    let now = NOW;
    const t = await retentionApp(() => now);
    const quiz = await createQuizResult(t.db, { archetype: "Dominatrix", createdAt: daysAgo(29.5) });
    const path = `/quiz/result?archetype=Dominatrix&id=${quiz.id}`;
    expect((await t.request(path)).status).toBe(200);
    expect((await t.request(path)).headers.get("x-cache")).toBe("hit");
    now = new Date(NOW.getTime() + DAY);
    await t.put(30);
    const deadline = Date.now() + 5000;
    while ((await t.db.select().from(quizResults).where(eq(quizResults.id, quiz.id))).length > 0) {
      if (Date.now() > deadline) throw new Error("not deleted");
      await Bun.sleep(5);
    }
    const after = await renderPage(t.request, path);
    expect(after.status).toBe(404);
    expect(after.text).toContain("Saved quiz results are kept for 30 days");
  });
});

describe("the privacy page states the operator's number of days", () => {
  test("the shipped text says 180 days, and the number saved in Settings once saved", async () => {
    const t = await retentionApp();
    const text = async () => (await renderPage(t.request, "/privacy")).text;
    expect(await text()).toContain("Saved results are deleted automatically 180 days after they were made");
    expect((await t.put(1)).status).toBe(200);
    expect(await text()).toContain("Saved results are deleted automatically 1 day after they were made");
    expect((await t.put(3650)).status).toBe(200);
    expect(await text()).toContain("deleted automatically 3,650 days after");
    expect(await text()).not.toContain("{{resultRetention}}");
  });

  test("a site still showing the previous release's privacy text gets this one; an edited page is kept", async () => {
    const t = await retentionApp();
    const previous = readMarkdown(
      "privacy.md",
      await Bun.file(`${import.meta.dir}/../../../../tests/fixtures/privacy-before-retention.md`).text(),
      Type.Pick(SitePage, ["slug", "title", "description"]),
    );
    expect(previous.markdown).not.toContain("{{resultRetention}}");
    // As the previous release's seed stored it: its HTML and its Markdown.
    await t.db
      .update(sitePages)
      .set({ body: previous.html, bodyMarkdown: previous.markdown })
      .where(eq(sitePages.slug, "privacy"));
    expect(await refreshShippedPages(t.db, content.sitePages)).toEqual(["privacy"]);
    expect((await renderPage(t.request, "/privacy")).text).toContain("deleted automatically 180 days after");
    // The operator's own Markdown is never replaced.
    const own = `${previous.markdown}\n\nOur own note.`;
    await t.db.update(sitePages).set({ body: previous.html, bodyMarkdown: own }).where(eq(sitePages.slug, "privacy"));
    expect(await refreshShippedPages(t.db, content.sitePages)).toEqual([]);
  });
});
