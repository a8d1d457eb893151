import { createHash, randomBytes } from "node:crypto";
import { eq, lt, sql } from "drizzle-orm";
import { isbot } from "isbot";
import { alone } from "#server/db/jobs.ts";
import { inTransaction } from "#server/db/transaction.ts";
import type { Db } from "#server/db/types.ts";
import { Lru } from "#server/lib/lru.ts";
import { addDays, utcDay } from "#server/lib/utc-day.ts";
import {
  type BOT_REASONS,
  FUNNEL_STEPS,
  type FunnelStep,
  funnelMask,
  METRICS,
  type Metric,
} from "#shared/features/analytics/constants.ts";
import { analyticsDaily, analyticsSalts, analyticsVisitors } from "./table.ts";

// First-party counting (docs/product.md#analytics). A visitor is a hash of the day's random
// salt, the client's address and its user agent: neither the address nor the user agent is
// kept anywhere, and once the salt is deleted (after two days) a hash cannot be made again.

/** One count to add: a metric and its key ("" when it has none). */
export interface CountEvent {
  metric: Metric;
  key: string;
}

export type BotReason = (typeof BOT_REASONS)[number];

/** What counting does with a request: nothing, the bot counter only, or the numbers. */
export type Verdict = { kind: "skip" } | { kind: "bot"; reason: BotReason } | { kind: "count" };

/** A funnel step's bit in a raw visitor row. */
export function stepBit(step: FunnelStep): number {
  return 1 << FUNNEL_STEPS.findIndex((s) => s.id === step);
}

/**
 * Whether a request is counted. A visitor who asks not to be tracked (Sec-GPC: 1 or DNT: 1)
 * is not counted at all, not even as a bot; HEAD requests, prefetches, empty user agents and
 * known bots only in the bot counter.
 */
export function verdict(request: Request): Verdict {
  const headers = request.headers;
  if (headers.get("sec-gpc")?.trim() === "1" || headers.get("dnt")?.trim() === "1") return { kind: "skip" };
  if (request.method === "HEAD") return { kind: "bot", reason: "head" };
  const purpose = `${headers.get("sec-purpose") ?? ""} ${headers.get("purpose") ?? ""}`.toLowerCase();
  if (purpose.includes("prefetch")) return { kind: "bot", reason: "prefetch" };
  const agent = headers.get("user-agent")?.trim() ?? "";
  if (agent === "") return { kind: "bot", reason: "empty-user-agent" };
  if (isKnownBot(agent)) return { kind: "bot", reason: "user-agent" };
  return { kind: "count" };
}

// isbot's pattern was a seventh of serving a cached page to a browser. The same few agents
// ask again and again, so each answer is kept: for a bounded number of agents of a usual length.
const botAnswers = new Lru<string, boolean>(512);
const MAX_REMEMBERED_AGENT = 512;

function isKnownBot(agent: string): boolean {
  if (agent.length > MAX_REMEMBERED_AGENT) return isbot(agent);
  let answer = botAnswers.get(agent);
  if (answer === undefined) {
    answer = isbot(agent);
    botAnswers.set(agent, answer);
  }
  return answer;
}

// The day's salt is read once per day and process: counting must stay cheap.
const salts = new WeakMap<Db, Map<string, string>>();

/** The salt of `day`, made (16 random bytes) the first time it is needed. */
export async function saltFor(db: Db, day: string): Promise<string> {
  let known = salts.get(db);
  if (!known) {
    known = new Map();
    salts.set(db, known);
  }
  const cached = known.get(day);
  if (cached) return cached;
  await db
    .insert(analyticsSalts)
    .values({ day, salt: randomBytes(16).toString("hex") })
    .onConflictDoNothing();
  const [row] = await db.select({ salt: analyticsSalts.salt }).from(analyticsSalts).where(eq(analyticsSalts.day, day));
  // Only today's and yesterday's are worth keeping in memory.
  for (const old of known.keys()) if (old < addDays(day, -1)) known.delete(old);
  known.set(day, row!.salt);
  return row!.salt;
}

// Today's hashes of the visitors seen last, per database: a visitor reading several pages is
// hashed once (hashing was a quarter of serving a cached page). Forgotten when the day
// changes, with the day's salt.
const todaysHashes = new WeakMap<Db, { day: string; hashes: Lru<string, string> }>();
const REMEMBERED_VISITORS = 2048;

/** The visitor's hash for the day of `now`: SHA-256 of salt, address and user agent, 16 bytes in hex. */
export async function visitorHash(db: Db, address: string, userAgent: string, now: Date): Promise<string> {
  const day = utcDay(now);
  let today = todaysHashes.get(db);
  if (!today || day > today.day) {
    today = { day, hashes: new Lru(REMEMBERED_VISITORS) };
    todaysHashes.set(db, today);
  }
  const key = `${address}\n${userAgent}`;
  // A request of a day that has already ended is hashed, not remembered; nor is an agent of
  // an unusual length (what is kept stays a few hundred kilobytes).
  const memo = day === today.day && userAgent.length <= MAX_REMEMBERED_AGENT ? today.hashes : null;
  const known = memo?.get(key);
  if (known) return known;
  const salt = await saltFor(db, day);
  const hash = createHash("sha256").update(`${salt}\n${key}`).digest("hex").slice(0, 32);
  memo?.set(key, hash);
  return hash;
}

/** Adds the events (each +1, repeats add up) to the day's counts, in one statement. */
function addCounts(db: Db, day: string, events: readonly CountEvent[]) {
  const rows: { day: string; metric: string; key: string; count: number }[] = [];
  const index = new Map<string, number>();
  for (const { metric, key } of events) {
    const id = `${metric}\n${key}`;
    const at = index.get(id);
    if (at === undefined) {
      index.set(id, rows.length);
      rows.push({ day, metric, key, count: 1 });
    } else rows[at]!.count++;
  }
  return db
    .insert(analyticsDaily)
    .values(rows)
    .onConflictDoUpdate({
      target: [analyticsDaily.day, analyticsDaily.metric, analyticsDaily.key],
      set: { count: sql`${analyticsDaily.count} + excluded.count` },
    });
}

function addSteps(db: Db, rows: { day: string; visitor: string; steps: number }[]) {
  return db
    .insert(analyticsVisitors)
    .values(rows)
    .onConflictDoUpdate({
      target: [analyticsVisitors.day, analyticsVisitors.visitor],
      set: { steps: sql`${analyticsVisitors.steps} | excluded.steps` },
    });
}

/** One +1 for `metric` and `key` on the day of `now`. */
export async function count(db: Db, metric: Metric, key: string, now: Date): Promise<void> {
  await addCounts(db, utcDay(now), [{ metric, key }]);
}

/** Marks the visitor as seen on the day of `now`, having reached `step` when one is given. */
export async function reach(db: Db, visitor: string, step: FunnelStep | null, now: Date): Promise<void> {
  await addSteps(db, [{ day: utcDay(now), visitor, steps: step ? stepBit(step) : 0 }]);
}

/** What one request counts: its events, and the visitor with the funnel steps it reached. */
export interface Visit {
  /** The visitor's hash; null for what counts no visitor (a bot). */
  visitor: string | null;
  events: readonly CountEvent[];
  steps: readonly FunnelStep[];
}

/** Counts one request's visit in one small transaction. */
export function record(db: Db, visit: Visit, now: Date): Promise<void> {
  return recordMany(db, [visit], now);
}

/**
 * Counts several visits of the day of `now` in one transaction: all their counts in one
 * statement, all their visitors in another (the server's batches of a second; a test's one request).
 */
export async function recordMany(db: Db, visits: readonly Visit[], now: Date): Promise<void> {
  const day = utcDay(now);
  const seen = new Map<string, number>();
  for (const { visitor, steps } of visits) {
    if (visitor === null) continue;
    seen.set(
      visitor,
      steps.reduce((all, step) => all | stepBit(step), seen.get(visitor) ?? 0),
    );
  }
  const visitorRows = Array.from(seen, ([visitor, steps]) => ({ day, visitor, steps }));
  const events = visits.flatMap((visit) => visit.events);
  await inTransaction(db, async (tx) => {
    if (events.length > 0) await addCounts(tx, day, events);
    for (let i = 0; i < visitorRows.length; i += 500) await addSteps(tx, visitorRows.slice(i, i + 500));
  });
}

/** Counts a bot's request, in the bot counter only. */
export function recordBot(db: Db, reason: BotReason, now: Date): Promise<void> {
  return count(db, METRICS.bot, reason, now);
}

export interface RollUpReport {
  /** The days whose raw visitor rows were turned into counts. */
  days: string[];
  /** How many salts were deleted. */
  salts: number;
}

/**
 * The nightly roll-up: every day before today that still has raw visitor rows gets its
 * visitors count and one funnel count per step (visitors who reached it and every step
 * before it), and those rows are deleted, in one
 * transaction (a second run finds no rows, so nothing is counted twice). Salts older than
 * yesterday are deleted: a hash can then no longer be made again.
 */
export async function rollUp(db: Db, now: Date): Promise<RollUpReport> {
  const today = utcDay(now);
  const stepSums = FUNNEL_STEPS.map(
    (_, i) =>
      sql<number>`sum(case when (${analyticsVisitors.steps} & ${funnelMask(i)}) = ${funnelMask(i)} then 1 else 0 end)`,
  );
  const report = await inTransaction(db, async (tx) => {
    const rows = await tx
      .select({
        day: analyticsVisitors.day,
        visitors: sql<number>`count(*)`,
        ...Object.fromEntries(stepSums.map((s, i) => [`s${i}`, s])),
      })
      .from(analyticsVisitors)
      .where(lt(analyticsVisitors.day, today))
      .groupBy(analyticsVisitors.day);
    const counts: { day: string; metric: string; key: string; count: number }[] = [];
    for (const row of rows as unknown as (Record<string, number> & { day: string; visitors: number })[]) {
      counts.push({ day: row.day, metric: METRICS.visitors, key: "", count: Number(row.visitors) });
      FUNNEL_STEPS.forEach((step, i) => {
        const reached = Number(row[`s${i}`] ?? 0);
        if (reached > 0) counts.push({ day: row.day, metric: METRICS.funnel, key: step.id, count: reached });
      });
    }
    // A few hundred rows at most per statement keeps within any database's parameter limit.
    for (let i = 0; i < counts.length; i += 200) {
      await tx
        .insert(analyticsDaily)
        .values(counts.slice(i, i + 200))
        .onConflictDoUpdate({
          target: [analyticsDaily.day, analyticsDaily.metric, analyticsDaily.key],
          set: { count: sql`${analyticsDaily.count} + excluded.count` },
        });
    }
    if (rows.length > 0) await tx.delete(analyticsVisitors).where(lt(analyticsVisitors.day, today));
    const gone = await tx
      .delete(analyticsSalts)
      .where(lt(analyticsSalts.day, addDays(today, -1)))
      .returning({ day: analyticsSalts.day });
    return { days: rows.map((r) => r.day).sort(), salts: gone.length };
  });
  const known = salts.get(db);
  if (known) for (const day of known.keys()) if (day < addDays(today, -1)) known.delete(day);
  return report;
}

/** The roll-up at once and then every hour (the timer never keeps the process alive). */
export function scheduleRollUp(db: Db, onError: (error: unknown) => void, every = 3_600_000): () => void {
  // One instance at a time rolls up (db/jobs.ts): two at once would count a day twice.
  const run = () => void alone(db, "analytics-roll-up", () => rollUp(db, new Date())).catch(onError);
  run();
  const timer = setInterval(run, every);
  timer.unref?.();
  return () => clearInterval(timer);
}
