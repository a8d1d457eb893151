import { describe, expect, test } from "bun:test";
import { dialect } from "#server/db/dialect.ts";
import { analyticsDaily, analyticsVisitors } from "#server/features/analytics/table.ts";
import { backupRuns } from "#server/features/backups/table.ts";
import { METRICS } from "#shared/features/analytics/constants.ts";
import type { AdminHome } from "#shared/features/home/contract.ts";
import { adminApp } from "#tests/support/admin.ts";
import { createLink, createPost, createSettings } from "#tests/support/factories.ts";
import { runScenarios } from "#tests/support/scenario.ts";

const NOW = new Date("2026-03-10T12:00:00Z");
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

/** An admin app on a database with only the settings row (and its two unchecked platform links). */
async function homeApp(options: { analytics?: boolean } = {}) {
  const t = await adminApp({ seed: false, ...options, testHooks: { analyticsClock: () => NOW } });
  await createSettings(t.db);
  const home = async () => {
    const res = await t.asAdmin("/api/admin/home");
    expect(res.status).toBe(200);
    return (await res.json()) as AdminHome;
  };
  return { ...t, home };
}

// A scenario table, so it runs on PostgreSQL too (bun run test:postgres): the checklist's
// search of the offers is SQL both databases must understand.
runScenarios("GET /api/admin/home on the seeded site", [
  {
    name: "the setup checklist counts the seeded offers that still name a placeholder",
    who: "admin",
    seed: true,
    path: "/api/admin/home",
    status: 200,
    check: (res) => {
      const home = res.json() as AdminHome;
      const offers = home.setup.find((item) => item.id === "offers");
      expect(offers?.detail).toMatch(/^\d+ offers still name the placeholder platforms or an example link\.$/);
      // cam-guide backs up SQLite only: on PostgreSQL the home asks for no backup here.
      expect(home.backupsHere).toBe(dialect === "sqlite");
    },
  },
]);

describe("GET /api/admin/home", () => {
  test("without the admin's session: 401, nothing about the site", async () => {
    const t = await homeApp();
    const res = await t.request("/api/admin/home", { headers: { origin: "http://localhost" } });
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain("posts");
  });

  test("posts published, drafts and scheduled; links needing attention; the last backup; 7 days of counts", async () => {
    const t = await homeApp();
    await createPost(t.db);
    await createPost(t.db, { publishAt: at(-24 * HOUR) }); // its date has come: published
    await createPost(t.db, { publishAt: at(2 * HOUR) }); // still to come: scheduled
    await createPost(t.db, { published: false });
    await createPost(t.db, { published: false, publishAt: at(2 * HOUR) }); // a draft with a date stays a draft

    const checked = { lastCheckedAt: at(-HOUR), lastStatus: 200 };
    await createLink(t.db, { ...checked, healthClass: "healthy" });
    await createLink(t.db, { ...checked, healthClass: "broken", lastStatus: 404 });
    await createLink(t.db, { ...checked, healthClass: "blocked", lastStatus: 403 });
    await createLink(t.db, { ...checked, healthClass: "redirected" });
    await createLink(t.db, { ...checked, healthClass: "broken", lastStatus: 500, active: false });

    await t.db.insert(backupRuns).values([
      { trigger: "schedule", status: "ok", startedAt: at(-48 * HOUR), finishedAt: at(-48 * HOUR), size: 2048 },
      {
        trigger: "schedule",
        status: "failed",
        startedAt: at(-24 * HOUR),
        finishedAt: at(-24 * HOUR + 5000),
        error: "The disk is full.",
      },
    ]);

    // Kept daily counts inside the 7 days (2026-03-04 to today) and one day before them, and
    // today's visitors still as raw rows.
    await t.db.insert(analyticsDaily).values([
      { day: "2026-03-04", metric: METRICS.visitors, key: "", count: 5 },
      { day: "2026-03-09", metric: METRICS.visitors, key: "", count: 7 },
      { day: "2026-03-03", metric: METRICS.visitors, key: "", count: 100 },
      { day: "2026-03-09", metric: METRICS.click, key: "platform-one/footer", count: 3 },
      { day: "2026-03-10", metric: METRICS.click, key: "platform-two/banner", count: 1 },
      { day: "2026-03-03", metric: METRICS.click, key: "platform-one/footer", count: 50 },
      { day: "2026-03-09", metric: METRICS.pageview, key: "/", count: 40 },
    ]);
    await t.db.insert(analyticsVisitors).values([
      { day: "2026-03-10", visitor: "a" },
      { day: "2026-03-10", visitor: "b" },
    ]);

    const home = await t.home();
    expect(home.posts).toEqual({ published: 2, drafts: 2, scheduled: 1 });
    // The settings' two platform links are active and not checked yet.
    expect(home.links).toMatchObject({
      total: 7,
      broken: 1,
      blocked: 1,
      redirected: 1,
      unchecked: 2,
      off: 1,
      offline: false,
    });
    expect(home.backup).toEqual({
      status: "failed",
      trigger: "schedule",
      startedAt: at(-24 * HOUR).toISOString(),
      finishedAt: at(-24 * HOUR + 5000).toISOString(),
      size: null,
      error: "The disk is full.",
    });
    expect(home.analytics).toEqual({ from: "2026-03-04", to: "2026-03-10", visitors: 14, clicks: 4 });
    expect(home.address).toEqual({ origin: null, source: "none" });
  });

  test("a new site: no backup yet, no counts, nothing checked; with ANALYTICS off there are no counts to show", async () => {
    const fresh = await homeApp();
    expect(await fresh.home()).toMatchObject({
      posts: { published: 0, drafts: 0, scheduled: 0 },
      links: { total: 2, broken: 0, unchecked: 2, offline: false },
      backup: null,
      analytics: { visitors: 0, clicks: 0 },
      // What `cam-guide --version` says; from source, no commit is known.
      version: "cam-guide 0.1.0 (run from source)",
    });
    const off = await homeApp({ analytics: false });
    expect((await off.home()).analytics).toBeNull();
  });

  test("every checked link without an answer: offline, so no link is blamed", async () => {
    const t = await homeApp();
    const dead = { healthClass: "broken", lastStatus: null, lastCheckedAt: at(-HOUR) } as const;
    await createLink(t.db, dead);
    await createLink(t.db, dead);
    expect((await t.home()).links).toMatchObject({ broken: 2, offline: true });
  });
});
