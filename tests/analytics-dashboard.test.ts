import { describe, expect, test } from "bun:test";
import { csvField } from "#server/features/analytics/reads.ts";
import { analyticsDaily, analyticsVisitors } from "#server/features/analytics/table.ts";
import { addDays, utcDay } from "#server/lib/utc-day.ts";
import { FUNNEL_STEPS, METRICS } from "#shared/features/analytics/constants.ts";
import type { AnalyticsReport } from "#shared/features/analytics/report.ts";
import { adminApp } from "#tests/support/admin.ts";
import { testApp } from "#tests/support/app.ts";
import { createOffer, createPost } from "#tests/support/factories.ts";

// The admin's analytics page reads the kept daily counts and, for days not rolled up yet,
// the raw visitor rows; these tests write both tables directly.

type App = Awaited<ReturnType<typeof adminApp>>;
const today = utcDay();
const ago = (n: number) => addDays(today, -n);

async function daily(t: App, rows: { day: string; metric: string; key?: string; count: number }[]) {
  await t.db.insert(analyticsDaily).values(rows.map((r) => ({ key: "", ...r })));
}

/** Raw visitor rows for `day`, each with the funnel steps (by id) it reached. */
async function visitors(t: App, day: string, steps: string[][]) {
  await t.db.insert(analyticsVisitors).values(
    steps.map((ids, i) => ({
      day,
      visitor: `${day}-visitor-${i}`,
      steps: ids.reduce((bits, id) => bits | (1 << FUNNEL_STEPS.findIndex((s) => s.id === id)), 0),
    })),
  );
}

async function report(t: App, days = 7): Promise<AnalyticsReport> {
  const res = await t.asAdmin(`/api/admin/analytics?days=${days}`);
  expect(res.status).toBe(200);
  return (await res.json()) as AnalyticsReport;
}

describe("GET /api/admin/analytics", () => {
  test("answers the period ending today and the one before it, with the change in percent", async () => {
    const t = await adminApp({ seed: false });
    await daily(t, [
      { day: ago(1), metric: METRICS.visitors, count: 30 },
      { day: ago(6), metric: METRICS.visitors, count: 10 },
      { day: ago(7), metric: METRICS.visitors, count: 8 }, // the previous period's last day
      { day: ago(13), metric: METRICS.visitors, count: 12 },
      { day: ago(14), metric: METRICS.visitors, count: 1000 }, // before both periods
      { day: ago(2), metric: METRICS.pageview, key: "home", count: 50 },
      { day: ago(9), metric: METRICS.pageview, key: "home", count: 50 },
      { day: ago(3), metric: METRICS.quizFinish, key: "Girl Next Door", count: 3 },
      { day: ago(3), metric: METRICS.click, key: "platform-one/footer", count: 4 },
    ]);
    const r = await report(t);
    expect(r).toMatchObject({ days: 7, from: ago(6), to: today, previousFrom: ago(13), previousTo: ago(7) });
    expect(r.empty).toBe(false);
    expect(r.visitors).toHaveLength(7);
    expect(r.visitors[0]).toEqual({ day: ago(6), count: 10, previousDay: ago(13), previous: 12 });
    expect(r.visitors[6]).toEqual({ day: today, count: 0, previousDay: ago(7), previous: 8 });
    const totals = Object.fromEntries(r.totals.map((x) => [x.id, x]));
    expect(totals.visitors).toMatchObject({ current: 40, previous: 20, change: 100 });
    expect(totals.pageviews).toMatchObject({ current: 50, previous: 50, change: 0 });
    // Nothing in the previous period: no percentage to give.
    expect(totals.quizFinishes).toMatchObject({ current: 3, previous: 0, change: null });
    expect(totals.clicks).toMatchObject({ current: 4, previous: 0, change: null });
    expect(r.quizFinishes).toEqual([{ key: "Girl Next Door", count: 3 }]);

    const month = await report(t, 30);
    expect(month.visitors).toHaveLength(30);
    expect(month.totals.find((x) => x.id === "visitors")).toMatchObject({ current: 1060, previous: 0 });
    expect((await report(t, 90)).visitors).toHaveLength(90);
  });

  test("counts the days not rolled up yet (today) from the raw visitor rows", async () => {
    const t = await adminApp({ seed: false });
    await visitors(t, today, [["home"], ["home", "quiz-start"], ["home", "quiz-start", "result"], []]);
    // A rolled-up day keeps its counts, even if raw rows were left behind.
    await daily(t, [
      { day: ago(1), metric: METRICS.visitors, count: 5 },
      { day: ago(1), metric: METRICS.funnel, key: "home", count: 5 },
    ]);
    await visitors(t, ago(1), [["home", "click"]]);
    const r = await report(t);
    expect(r.visitors.at(-1)).toMatchObject({ day: today, count: 4 });
    expect(r.visitors.at(-2)).toMatchObject({ day: ago(1), count: 5 });
    const steps = Object.fromEntries(r.funnel.map((f) => [f.id, f.visitors]));
    expect(steps).toMatchObject({ home: 8, "quiz-start": 2, result: 1, click: 0 });
  });

  test("the funnel follows the steps in order with conversion and drop-off from the step before", async () => {
    const t = await adminApp({ seed: false });
    const counts = [200, 100, 50, 25, 0, 0, 5];
    await daily(t, [
      { day: ago(2), metric: METRICS.visitors, count: 200 },
      ...FUNNEL_STEPS.map((s, i) => ({ day: ago(2), metric: METRICS.funnel, key: s.id, count: counts[i]! })),
    ]);
    const { funnel } = await report(t);
    expect(funnel.map((f) => f.id)).toEqual(FUNNEL_STEPS.map((s) => s.id));
    expect(funnel[0]).toMatchObject({ visitors: 200, conversion: null, dropOff: null });
    expect(funnel[1]).toMatchObject({ visitors: 100, conversion: 50, dropOff: 100 });
    expect(funnel[3]).toMatchObject({ visitors: 25, conversion: 50, dropOff: 25 });
    expect(funnel[4]).toMatchObject({ visitors: 0, conversion: 0, dropOff: 25 });
    // After a step nobody reached there is no conversion to give.
    expect(funnel[5]).toMatchObject({ visitors: 0, conversion: null, dropOff: 0 });
    expect(funnel[6]).toMatchObject({ visitors: 5, conversion: null, dropOff: 0 });
  });

  test("offers: views, clicks on their link in the offer placement, and click-through", async () => {
    const t = await adminApp({ seed: false });
    const shown = await createOffer(t.db, { title: "Webcam bundle" });
    const unseen = await createOffer(t.db, { title: "Never on screen" });
    await daily(t, [
      { day: ago(1), metric: METRICS.offerView, key: String(shown.id), count: 40 },
      { day: today, metric: METRICS.offerView, key: String(shown.id), count: 8 },
      { day: ago(1), metric: METRICS.click, key: `${shown.linkSlug}/offer`, count: 6 },
      // The same link placed elsewhere is not a click on the offer card.
      { day: ago(1), metric: METRICS.click, key: `${shown.linkSlug}/footer`, count: 9 },
      { day: ago(1), metric: METRICS.click, key: "platform-one/", count: 2 },
    ]);
    const r = await report(t);
    expect(r.offers).toEqual([
      { id: shown.id, title: "Webcam bundle", slug: shown.linkSlug, views: 48, clicks: 6, ctr: 12.5 },
    ]);
    expect(r.offers.some((o) => o.id === unseen.id)).toBe(false);
    expect(r.links).toEqual([
      { key: shown.linkSlug!, count: 15 },
      { key: "platform-one", count: 2 },
    ]);
    expect(r.placements).toEqual([
      { key: "footer", count: 9 },
      { key: "offer", count: 6 },
      { key: "", count: 2 },
    ]);
    expect(r.clicks).toContainEqual({ slug: "platform-one", placement: "", count: 2 });
  });

  test("top posts with titles, modules, referrers, utm sources, tiers and the bot share", async () => {
    const t = await adminApp({ seed: false });
    await createPost(t.db, { slug: "first-stream", title: "Your first stream" });
    await daily(t, [
      { day: ago(1), metric: METRICS.postView, key: "first-stream", count: 7 },
      { day: ago(1), metric: METRICS.postView, key: "gone-post", count: 2 },
      { day: ago(1), metric: METRICS.moduleView, key: "3", count: 11 },
      { day: ago(1), metric: METRICS.lessonRead, key: "3/1", count: 4 },
      { day: ago(1), metric: METRICS.lessonRead, key: "3/2", count: 2 },
      { day: ago(1), metric: METRICS.moduleQuiz, key: "3/passed", count: 3 },
      { day: ago(1), metric: METRICS.moduleQuiz, key: "3/failed", count: 1 },
      ...Array.from({ length: 12 }, (_, i) => ({
        day: ago(1),
        metric: METRICS.referrer,
        key: `site${i}.example`,
        count: i + 1,
      })),
      { day: ago(1), metric: METRICS.utmSource, key: "newsletter", count: 5 },
      { day: ago(1), metric: METRICS.calculatorFinish, key: "rising", count: 2 },
      { day: ago(1), metric: METRICS.pageview, key: "home", count: 60 },
      { day: ago(1), metric: METRICS.bot, key: "user-agent", count: 30 },
      { day: ago(1), metric: METRICS.bot, key: "head", count: 10 },
    ]);
    const r = await report(t);
    expect(r.posts).toEqual([
      { slug: "first-stream", title: "Your first stream", views: 7 },
      { slug: "gone-post", title: "gone-post", views: 2 },
    ]);
    expect(r.modules).toEqual([{ module: 3, views: 11, lessonsRead: 6, quizPassed: 3, quizFailed: 1 }]);
    expect(r.referrers).toHaveLength(10);
    expect(r.referrers[0]).toEqual({ key: "site11.example", count: 12 });
    expect(r.utmSources).toEqual([{ key: "newsletter", count: 5 }]);
    expect(r.calculatorFinishes).toEqual([{ key: "rising", count: 2 }]);
    expect(r.bots).toEqual({
      reasons: [
        { key: "user-agent", count: 30 },
        { key: "empty-user-agent", count: 0 },
        { key: "head", count: 10 },
        { key: "prefetch", count: 0 },
        { key: "over-daily-limit", count: 0 },
      ],
      bots: 40,
      humans: 60,
      share: 40,
    });
  });

  test("an empty site says so", async () => {
    const t = await adminApp({ seed: false });
    const r = await report(t, 30);
    expect(r.empty).toBe(true);
    expect(r.visitors.every((v) => v.count === 0)).toBe(true);
    expect(r.funnel.every((f) => f.visitors === 0)).toBe(true);
  });

  test("any period but 7, 30 or 90 days is a 400 with a clear message", async () => {
    const t = await adminApp({ seed: false });
    for (const days of ["", "1", "14", "7.0", "abc", "-7", "0x7", "07%00", "9999999"]) {
      for (const path of ["/api/admin/analytics", "/api/admin/analytics.csv"]) {
        const res = await t.asAdmin(`${path}?days=${days}`);
        expect(res.status).toBe(400);
        expect(JSON.stringify(await res.json())).toContain("days must be one of 7, 30, 90");
      }
    }
    expect((await t.asAdmin("/api/admin/analytics")).status).toBe(400);
  });

  test("only the admin reads it", async () => {
    const t = testApp({ seed: false });
    for (const path of ["/api/admin/analytics?days=7", "/api/admin/analytics.csv?days=7"]) {
      const anonymous = await t.request(path);
      expect(anonymous.status).toBe(401);
      const forged = await t.request(path, { headers: { cookie: "session=forged" } });
      expect([401, 403]).toContain(forged.status);
      expect(await forged.text()).not.toContain("day,metric");
    }
  });
});

describe("GET /api/admin/analytics.csv", () => {
  test("downloads the period's daily counts, escaped and safe to open in a spreadsheet", async () => {
    const t = await adminApp({ seed: false });
    await daily(t, [
      { day: ago(1), metric: METRICS.referrer, key: 'evil.example,"quoted"', count: 2 },
      { day: ago(1), metric: METRICS.utmSource, key: '=HYPERLINK("http://x")', count: 1 },
      { day: ago(1), metric: METRICS.utmSource, key: "+1", count: 1 },
      { day: ago(1), metric: METRICS.utmSource, key: "-2", count: 1 },
      { day: ago(1), metric: METRICS.utmSource, key: "@sum", count: 1 },
      { day: ago(2), metric: METRICS.visitors, count: 9 },
      { day: ago(8), metric: METRICS.visitors, count: 100 }, // outside the 7 days
    ]);
    await visitors(t, today, [["home"], ["home", "quiz-start"]]);
    const res = await t.asAdmin("/api/admin/analytics.csv?days=7");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/csv");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename=cam-guide-analytics-${ago(6)}-${today}.csv`,
    );
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("day,metric,key,count");
    expect(lines).toContain(`${ago(1)},referrer,"evil.example,""quoted""",2`);
    expect(lines).toContain(`${ago(1)},utm_source,"'=HYPERLINK(""http://x"")",1`);
    expect(lines).toContain(`${ago(1)},utm_source,"'+1",1`);
    expect(lines).toContain(`${ago(1)},utm_source,"'-2",1`);
    expect(lines).toContain(`${ago(1)},utm_source,"'@sum",1`);
    expect(lines).toContain(`${ago(2)},visitors,,9`);
    // Today, counted live from the raw rows.
    expect(lines).toContain(`${today},visitors,,2`);
    expect(lines).toContain(`${today},funnel,home,2`);
    expect(lines).toContain(`${today},funnel,quiz-start,1`);
    expect(lines.some((l) => l.startsWith(ago(8)))).toBe(false);
  });

  test("csvField quotes separators and defuses formulas", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField(12)).toBe("12");
    expect(csvField("a\nb")).toBe('"a\nb"');
    expect(csvField("=1+1")).toBe(`"'=1+1"`);
    expect(csvField("\t=1")).toBe(`"'\t=1"`);
  });
});
