// The budgets of anonymous writes and the sign-in throttles, kept in the database so that
// several instances of the site (on one PostgreSQL database) share them: a network's write
// budget, its daily saved results, a day's new visitors and the attempts at a password or a
// code are the same numbers whichever instance a request reaches, and a restart forgets none
// (decision 080). Each one answers exactly as its in-memory twin (plugins/write-limit.ts,
// lib/daily-quota.ts, auth/throttle.ts) does on a single server, which keeps those.
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { inTransaction } from "#server/db/transaction.ts";
import type { Db } from "#server/db/types.ts";
import type { WriteLimit } from "#server/env.ts";
import { clientKey } from "#server/lib/client.ts";
import type { DailyQuota } from "#server/lib/daily-quota.ts";
import { judge, type QuotaAnswer, quotaKeys, type Share } from "#server/lib/fair-share.ts";
import type { Refusal, Reservation, SignInThrottle, ThrottleOptions } from "../auth/throttle.ts";
import { sharedLimits } from "./table.ts";

const DAY_MS = 86_400_000;

/** The first moment after `day` (YYYY-MM-DD, UTC) plus an hour's grace: when a day's counts expire. */
function afterDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) + DAY_MS + 3_600_000;
}

/**
 * A write budget as one row per network: `count` writes at once, then one more every
 * `windowSeconds / count` seconds. Stored as the moment the budget is next full minus what is
 * used (the "theoretical arrival time" of the generic cell rate algorithm, which answers
 * exactly as a token bucket), so one atomic statement takes a write or refuses it, and two
 * instances taking at the same moment cannot both take the last one.
 */
export class SharedWriteLimiter {
  private readonly step: number;
  private readonly windowMs: number;

  constructor(
    private readonly db: Db,
    readonly limit: WriteLimit,
    private readonly scope: string,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = limit.windowSeconds * 1000;
    this.step = Math.ceil(this.windowMs / limit.count);
  }

  /** Takes one write for the client at `address`: 0 when it may go ahead, else the seconds until it may. */
  async take(address: string): Promise<number> {
    const key = clientKey(address);
    const now = this.now();
    const { value } = sharedLimits;
    const next = sql`(case when ${value} > ${now} then ${value} else ${now} end) + ${this.step}`;
    const taken = await this.db
      .insert(sharedLimits)
      .values({ scope: this.scope, key, value: now + this.step, expiresAt: now + this.step })
      .onConflictDoUpdate({
        target: [sharedLimits.scope, sharedLimits.key],
        set: { value: next, expiresAt: next },
        setWhere: sql`${next} - ${now} <= ${this.windowMs}`,
      })
      .returning({ value });
    if (taken.length > 0) return 0;
    const [row] = await this.db
      .select({ value })
      .from(sharedLimits)
      .where(and(eq(sharedLimits.scope, this.scope), eq(sharedLimits.key, key)));
    const wait = Math.max(row?.value ?? now, now) + this.step - this.windowMs - now;
    return Math.max(1, Math.ceil(wait / 1000));
  }
}

/**
 * A daily count in the database: today's total and what each network and IPv6 block added,
 * one row each. One statement raises them all and reads them back, so requests arriving
 * together (on any instance) are judged one after the other, each on the counts before its
 * own (fair-share.ts); a refused one takes its step back, so a refusal takes nothing.
 */
export class SharedDailyQuota implements DailyQuota {
  constructor(
    private readonly db: Db,
    readonly share: Share,
    private readonly scope: string,
  ) {}

  async take(address: string, day: string): Promise<QuotaAnswer> {
    const scope = `${this.scope}:${day}`;
    // Always in this order, so two statements never wait for each other's rows.
    const keys = ["total", ...quotaKeys(address)];
    const expiresAt = afterDay(day);
    const raised = await this.db
      .insert(sharedLimits)
      .values(keys.map((key) => ({ scope, key, value: 1, expiresAt })))
      .onConflictDoUpdate({
        target: [sharedLimits.scope, sharedLimits.key],
        set: { value: sql`${sharedLimits.value} + 1` },
      })
      .returning({ key: sharedLimits.key, value: sharedLimits.value });
    const before = (key: string) => (raised.find((row) => row.key === key)?.value ?? 1) - 1;
    const [, ...mine] = keys;
    const answer = judge(this.share, before("total"), mine.map(before));
    // The step back takes the rows in the same order as the step forward (rows of a VALUES
    // list are taken in turn). An UPDATE … WHERE key IN (…) took them in the index's order,
    // the network's before "total", and so waited on a step forward that held "total" and
    // waited for it: a deadlock each time a network over its limit sent requests at once.
    if (answer !== "ok")
      await this.db
        .insert(sharedLimits)
        .values(keys.map((key) => ({ scope, key, value: 0, expiresAt })))
        .onConflictDoUpdate({
          target: [sharedLimits.scope, sharedLimits.key],
          set: { value: sql`${sharedLimits.value} - 1` },
        });
    return answer;
  }
}

/** A visitor over the day's limit: its row says so, and every later request of the day is over too. */
const OVER = -1;

/**
 * The events one visitor counted today, across instances: adds `events` and answers the total
 * (`events` itself for a visitor not seen before today), or OVER for a visitor marked so.
 */
export async function visitorEvents(db: Db, day: string, visitor: string, events: number): Promise<number> {
  const { value } = sharedLimits;
  const [row] = await db
    .insert(sharedLimits)
    .values({ scope: `events:${day}`, key: visitor, value: events, expiresAt: afterDay(day) })
    .onConflictDoUpdate({
      target: [sharedLimits.scope, sharedLimits.key],
      set: { value: sql`case when ${value} < 0 then ${value} else ${value} + ${events} end` },
    })
    .returning({ value });
  return row!.value;
}

/** Marks a visitor over the day's limit (visitorEvents answers OVER for it from now on). */
export async function markVisitorOver(db: Db, day: string, visitor: string): Promise<void> {
  await db
    .update(sharedLimits)
    .set({ value: OVER })
    .where(and(eq(sharedLimits.scope, `events:${day}`), eq(sharedLimits.key, visitor)));
}

export const VISITOR_OVER = OVER;

/** Someone else changed the row between this transaction's read and its write: read again. */
class Raced extends Error {}

interface ThrottleRow {
  key: string;
  /** The row's version (raised by each write, so a write over someone else's is noticed). */
  value: number;
  state: number[] | null;
}

/**
 * The sign-in throttle (auth/throttle.ts has the rules) with its state in the database: a
 * network's failures and the site's recent failures (its last entry: the site-wide gate's next
 * free slot). An attempt is written down as a failure before the password is checked, so a
 * burst spread over several instances, or an instance killed mid-check, cannot try more; a
 * right password takes it back. Each change is one transaction that reads both rows and writes
 * them only if nobody wrote them meanwhile (else it reads again).
 */
export class SharedLoginThrottle implements SignInThrottle {
  private readonly siteFree: number;
  private readonly siteCapMs: number;

  constructor(
    private readonly db: Db,
    private readonly scope: string,
    private readonly limit = 5,
    private readonly windowMs = 15 * 60_000,
    private readonly now: () => number = Date.now,
    { siteFree = 10, siteCapMs = 30_000 }: ThrottleOptions = {},
  ) {
    this.siteFree = siteFree;
    this.siteCapMs = siteCapMs;
  }

  async begin(address: string): Promise<Reservation | Refusal> {
    const key = clientKey(address);
    const at = this.now();
    const answer = await this.change(key, (client, site) => {
      const used = client.length;
      if (used >= this.limit) return refuse(client[used - this.limit]! + this.windowMs - at, "client");
      let [next = 0, ...failures] = site;
      if (failures.length >= this.siteFree && used > 0) {
        if (at < next) return refuse(next - at, "site");
        next = at + Math.min(this.siteCapMs, 1000 * 2 ** (failures.length - this.siteFree));
      }
      // The site keeps only enough of its recent failures to reach the cap.
      return { client: [...client, at], site: [next, ...[...failures, at].slice(-(this.siteFree + 16))] };
    });
    if ("allowed" in answer) return answer;
    let settled = false;
    return {
      allowed: true,
      succeed: async () => {
        if (settled) return;
        settled = true;
        // The right password: this network's failures are forgotten, and this attempt is no failure.
        await this.change(key, (_client, [next = 0, ...failures]) => {
          const mine = failures.indexOf(at);
          return { client: [], site: [next, ...failures.filter((_, i) => i !== mine)] };
        });
      },
      // Already counted as a failure when it began.
      fail: () => {
        settled = true;
      },
    };
  }

  /**
   * Reads the network's and the site's failures inside the window, asks `decide`, and writes
   * what it answers (or nothing, for a refusal), all in one transaction; read again on a race.
   */
  private async change(
    key: string,
    decide: (client: number[], site: number[]) => Refusal | { client: number[]; site: number[] },
  ): Promise<Refusal | { client: number[]; site: number[] }> {
    for (;;) {
      try {
        return await inTransaction(this.db, async (tx) => {
          const rows: ThrottleRow[] = await tx
            .select({ key: sharedLimits.key, value: sharedLimits.value, state: sharedLimits.state })
            .from(sharedLimits)
            .where(and(eq(sharedLimits.scope, this.scope), inArray(sharedLimits.key, [key, "site"])));
          const cutoff = this.now() - this.windowMs;
          const client = rows.find((row) => row.key === key);
          const site = rows.find((row) => row.key === "site");
          const [next = 0, ...failures] = site?.state ?? [];
          const answer = decide(
            (client?.state ?? []).filter((time) => time > cutoff),
            [next, ...failures.filter((time) => time > cutoff)],
          );
          if ("allowed" in answer) return answer;
          await this.write(tx, key, client, answer.client);
          await this.write(tx, "site", site, answer.site);
          return answer;
        });
      } catch (error) {
        if (!(error instanceof Raced)) throw error;
      }
    }
  }

  private async write(tx: Db, key: string, row: ThrottleRow | undefined, times: number[]): Promise<void> {
    const expiresAt = Math.max(this.now(), ...times) + this.windowMs;
    const written = row
      ? await tx
          .update(sharedLimits)
          .set({ state: times, value: row.value + 1, expiresAt })
          .where(and(eq(sharedLimits.scope, this.scope), eq(sharedLimits.key, key), eq(sharedLimits.value, row.value)))
          .returning({ key: sharedLimits.key })
      : await tx
          .insert(sharedLimits)
          .values({ scope: this.scope, key, state: times, value: 1, expiresAt })
          .onConflictDoNothing()
          .returning({ key: sharedLimits.key });
    if (written.length === 0) throw new Raced();
  }
}

function refuse(ms: number, scope: Refusal["scope"]): Refusal {
  return { allowed: false, retryAfter: Math.max(1, Math.ceil(ms / 1000)), scope };
}

/** Deletes the rows that no longer mean anything; answers how many. */
export async function forgetExpiredLimits(db: Db, now = Date.now()): Promise<number> {
  const gone = await db
    .delete(sharedLimits)
    .where(lt(sharedLimits.expiresAt, now))
    .returning({ key: sharedLimits.key });
  return gone.length;
}
