import { and, between, gte, inArray, lte } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { blogPosts } from "#server/features/blog/table.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { addDays, utcDay } from "#server/lib/utc-day.ts";
import {
  BOT_REASONS,
  FUNNEL_STEPS,
  funnelMask,
  METRICS,
  OVER_LIMIT_KEY,
} from "#shared/features/analytics/constants.ts";
import type {
  AnalyticsPeriod,
  AnalyticsReport,
  KeyCount,
  ModuleRow,
  Total,
} from "#shared/features/analytics/report.ts";
import { analyticsDaily, analyticsVisitors } from "./table.ts";

// The admin's analytics page (docs/product.md#analytics-page): the kept daily counts of a
// period and the one before it, with the days not rolled up yet (today) counted live from the
// raw visitor rows.

const TOP = 10;

interface DailyRow {
  day: string;
  metric: string;
  key: string;
  count: number;
}

/**
 * Every daily count from `from` to `to`, in order: the kept rows, and for each day whose
 * visitors are not rolled up yet the visitors and funnel steps counted from its raw rows.
 */
export async function dailyCounts(db: Db, from: string, to: string): Promise<DailyRow[]> {
  const kept = await db
    .select({
      day: analyticsDaily.day,
      metric: analyticsDaily.metric,
      key: analyticsDaily.key,
      count: analyticsDaily.count,
    })
    .from(analyticsDaily)
    .where(between(analyticsDaily.day, from, to));
  const rolledUp = new Set(kept.filter((r) => r.metric === METRICS.visitors).map((r) => r.day));
  const raw = await db
    .select({ day: analyticsVisitors.day, steps: analyticsVisitors.steps })
    .from(analyticsVisitors)
    .where(and(gte(analyticsVisitors.day, from), lte(analyticsVisitors.day, to)));
  const live = new Map<string, number>();
  const bump = (day: string, metric: string, key: string) => {
    const id = `${day}\n${metric}\n${key}`;
    live.set(id, (live.get(id) ?? 0) + 1);
  };
  for (const { day, steps } of raw) {
    if (rolledUp.has(day)) continue;
    bump(day, METRICS.visitors, "");
    FUNNEL_STEPS.forEach((step, i) => {
      if ((steps & funnelMask(i)) === funnelMask(i)) bump(day, METRICS.funnel, step.id);
    });
  }
  const rows: DailyRow[] = kept.filter(
    (r) => rolledUp.has(r.day) || (r.metric !== METRICS.visitors && r.metric !== METRICS.funnel),
  );
  for (const [id, count] of live) {
    const [day = "", metric = "", key = ""] = id.split("\n");
    rows.push({ day, metric, key, count });
  }
  // Code-unit order: a locale-aware comparison made a 90-day report several times slower.
  const ordinal = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => ordinal(a.day, b.day) || ordinal(a.metric, b.metric) || ordinal(a.key, b.key));
}

/** The first and last day of a period ending today, and of the one before it. */
function periodBounds(days: AnalyticsPeriod, today: string) {
  const from = addDays(today, -(days - 1));
  const previousTo = addDays(from, -1);
  return { from, to: today, previousFrom: addDays(previousTo, -(days - 1)), previousTo };
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);
const change = (current: number, previous: number) =>
  previous > 0 ? Math.round(((current - previous) / previous) * 100) : null;

/** Sums of one metric's keys, most first (ties by key). */
function byKey(rows: DailyRow[], metric: string): KeyCount[] {
  const sums = new Map<string, number>();
  for (const r of rows) if (r.metric === metric) sums.set(r.key, (sums.get(r.key) ?? 0) + r.count);
  return [...sums]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

const sum = (rows: DailyRow[], metric: string) =>
  rows.reduce((total, r) => (r.metric === metric ? total + r.count : total), 0);

/** A click's key "<slug>/<placement>": the slug never holds a slash. Clicks over the daily limits have neither. */
function splitClick(key: string) {
  if (key === OVER_LIMIT_KEY) return { slug: key, placement: key };
  const at = key.indexOf("/");
  return at < 0 ? { slug: key, placement: "" } : { slug: key.slice(0, at), placement: key.slice(at + 1) };
}

export async function analyticsReport(db: Db, days: AnalyticsPeriod, today = utcDay()): Promise<AnalyticsReport> {
  const bounds = periodBounds(days, today);
  const all = await dailyCounts(db, bounds.previousFrom, bounds.to);
  const rows = all.filter((r) => r.day >= bounds.from);
  const before = all.filter((r) => r.day < bounds.from);

  const total = (id: Total["id"], label: string, metric: string): Total => {
    const current = sum(rows, metric);
    const previous = sum(before, metric);
    return { id, label, current, previous, change: change(current, previous) };
  };
  const totals = [
    total("visitors", "Visitors", METRICS.visitors),
    total("pageviews", "Page views", METRICS.pageview),
    total("quizFinishes", "Quizzes finished", METRICS.quizFinish),
    total("clicks", "Link clicks", METRICS.click),
  ];

  const perDay = (list: DailyRow[]) => {
    const map = new Map<string, number>();
    for (const r of list) if (r.metric === METRICS.visitors) map.set(r.day, (map.get(r.day) ?? 0) + r.count);
    return map;
  };
  const current = perDay(rows);
  const previous = perDay(before);
  const visitors = Array.from({ length: days }, (_, i) => {
    const day = addDays(bounds.from, i);
    const previousDay = addDays(bounds.previousFrom, i);
    return { day, count: current.get(day) ?? 0, previousDay, previous: previous.get(previousDay) ?? 0 };
  });

  const steps = new Map(byKey(rows, METRICS.funnel).map((k) => [k.key, k.count]));
  const funnel = FUNNEL_STEPS.map((step, i) => {
    const reached = steps.get(step.id) ?? 0;
    const prior = i === 0 ? null : (steps.get(FUNNEL_STEPS[i - 1]?.id ?? "") ?? 0);
    return {
      id: step.id,
      label: step.label,
      visitors: reached,
      conversion: prior === null ? null : percent(reached, prior),
      dropOff: prior === null ? null : Math.max(0, prior - reached),
    };
  });

  const clickRows = byKey(rows, METRICS.click).map((k) => ({ ...splitClick(k.key), count: k.count }));
  const grouped = (pick: (c: { slug: string; placement: string }) => string): KeyCount[] => {
    const sums = new Map<string, number>();
    for (const c of clickRows) sums.set(pick(c), (sums.get(pick(c)) ?? 0) + c.count);
    return [...sums]
      .map(([key, count]) => ({ key, count }))
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  };

  const views = new Map(byKey(rows, METRICS.offerView).map((k) => [k.key, k.count]));
  const offerClicks = new Map(clickRows.filter((c) => c.placement === "offer").map((c) => [c.slug, c.count]));
  const offerList = await db
    .select({ id: affiliateOffers.id, title: affiliateOffers.title, slug: affiliateOffers.linkSlug })
    .from(affiliateOffers);
  const offers = offerList
    .map((o) => {
      const seen = views.get(String(o.id)) ?? 0;
      const clicked = o.slug ? (offerClicks.get(o.slug) ?? 0) : 0;
      return { id: o.id, title: o.title, slug: o.slug, views: seen, clicks: clicked, ctr: percent(clicked, seen) };
    })
    .filter((o) => o.views > 0 || o.clicks > 0)
    .sort((a, b) => b.views - a.views || b.clicks - a.clicks || a.id - b.id);

  const topPosts = byKey(rows, METRICS.postView).slice(0, TOP);
  const titles = topPosts.length
    ? await db
        .select({ slug: blogPosts.slug, title: blogPosts.title })
        .from(blogPosts)
        .where(
          inArray(
            blogPosts.slug,
            topPosts.map((p) => p.key),
          ),
        )
    : [];
  const titleOf = new Map(titles.map((t) => [t.slug, t.title]));
  const posts = topPosts.map((p) => ({ slug: p.key, title: titleOf.get(p.key) ?? p.key, views: p.count }));

  const modules = new Map<number, ModuleRow>();
  const moduleRow = (key: string) => {
    const n = Number.parseInt(key, 10);
    if (!Number.isInteger(n) || n < 1) return null;
    const row = modules.get(n) ?? { module: n, views: 0, lessonsRead: 0, quizPassed: 0, quizFailed: 0 };
    modules.set(n, row);
    return row;
  };
  for (const r of rows) {
    if (r.metric === METRICS.moduleView) {
      const row = moduleRow(r.key);
      if (row) row.views += r.count;
    } else if (r.metric === METRICS.lessonRead) {
      const row = moduleRow(r.key.split("/")[0] ?? "");
      if (row) row.lessonsRead += r.count;
    } else if (r.metric === METRICS.moduleQuiz) {
      const [module = "", outcome] = r.key.split("/");
      const row = moduleRow(module);
      if (row && outcome === "passed") row.quizPassed += r.count;
      else if (row && outcome === "failed") row.quizFailed += r.count;
    }
  }

  // Every reason, in the order they are checked, then any other key the counter wrote.
  const botCounts = byKey(rows, METRICS.bot);
  const reasons = [
    ...BOT_REASONS.map((key) => ({ key, count: botCounts.find((b) => b.key === key)?.count ?? 0 })),
    ...botCounts.filter((b) => !(BOT_REASONS as readonly string[]).includes(b.key)),
  ];
  const bots = reasons.reduce((n, r) => n + r.count, 0);
  const humans = sum(rows, METRICS.pageview);

  return {
    days,
    ...bounds,
    empty: all.length === 0,
    overLimitDays: [...new Set(rows.filter((r) => r.key === OVER_LIMIT_KEY).map((r) => r.day))].sort(),
    totals,
    visitors,
    funnel,
    offers,
    links: grouped((c) => c.slug),
    placements: grouped((c) => c.placement),
    clicks: clickRows,
    posts,
    modules: [...modules]
      .map(([, m]) => m)
      .sort((a, b) => b.views - a.views || a.module - b.module)
      .slice(0, TOP),
    referrers: byKey(rows, METRICS.referrer).slice(0, TOP),
    utmSources: byKey(rows, METRICS.utmSource).slice(0, TOP),
    quizFinishes: byKey(rows, METRICS.quizFinish),
    calculatorFinishes: byKey(rows, METRICS.calculatorFinish),
    bots: { reasons, bots, humans, share: percent(bots, bots + humans) },
  };
}

/**
 * What makes a spreadsheet read a cell as a formula (OWASP's list: = + - @, a tab, a carriage
 * return; also a line feed or NUL first, the full-width = + - @ some spreadsheets convert, and
 * any of them after leading spaces or control characters, which an import may trim).
 */
const FORMULA_START = /^(?:[\t\r\n\0]|[\p{White_Space}\p{Cc}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

/** Characters that need the field quoted: either separator (, or the ; of many locales), a quote, a tab, a line break. */
const NEEDS_QUOTES = /[",;\t\r\n]|^\s|\s$/;

/**
 * One CSV field (RFC 4180), never read as a formula by a spreadsheet: text that could start
 * one gets a leading ' (shown by spreadsheets as plain text) and, like every field holding a
 * separator, a quote, a line break or edge spaces, is quoted, with quotes doubled. Numbers
 * are written as they are.
 */
export function csvField(value: string | number): string {
  if (typeof value === "number") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return text !== value || NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The daily counts of a period ending today as CSV (day,metric,key,count), with its file name. */
export async function analyticsCsv(db: Db, days: AnalyticsPeriod, today = utcDay()) {
  const { from, to } = periodBounds(days, today);
  const rows = await dailyCounts(db, from, to);
  const lines = ["day,metric,key,count", ...rows.map((r) => [r.day, r.metric, r.key, r.count].map(csvField).join(","))];
  return { filename: `cam-guide-analytics-${from}-${to}.csv`, body: `${lines.join("\r\n")}\r\n` };
}
