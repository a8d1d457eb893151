import { judge, type QuotaAnswer, quotaKeys, type Share } from "./fair-share.ts";

// Daily bounds on what requests without a session may add to the database (docs/security.md,
// "Anonymous writes"): per network (an IPv4 address, an IPv6 /64, under pressure its /56 and
// /48 too) and for everyone, per UTC day, shared out by `judge` (fair-share.ts). Nothing here
// depends on a value the client chooses (its user agent, a referrer, a query).

/** The daily limits on rows anonymous requests can add (decisions 051 and 061 give the reasoning). */
export interface DailyLimits {
  /** New visitors (raw visitor-day rows) a day from one network while the day is quiet. */
  visitorsPerClient: number;
  /** New visitors a day from everyone. */
  visitors: number;
  /** New visitors one network may add in the last quarter of the day's ceiling. */
  visitorsFloor: number;
  /** Saved results a day from one network while the day is quiet, for the quiz and for the calculator each. */
  resultsPerClient: number;
  /** Saved results a day from everyone, for the quiz and for the calculator each. */
  results: number;
  /** Saved results one network may add in the last quarter of the day's ceiling: a visitor's first few. */
  resultsFloor: number;
  /** Referrer sites, and utm_source values, not yet seen that day that one network may add while the day is quiet. */
  newValuesPerClient: number;
  /** Referrer sites, and utm_source values, recorded a day (the rest count as "(other)"). */
  newValues: number;
  /** New referrer sites, and utm_source values, one network may add once a quarter of the day's are taken. */
  newValuesFloor: number;
  /** Networks and IPv6 blocks each counter remembers at most; the least recently seen are forgotten first. */
  maxClients: number;
}

/**
 * Sized so a busy site (50,000 visitors a day, hundreds of them behind one carrier or school
 * NAT address) never meets them in normal use, while a flood writes a bounded number of rows
 * and needs thousands of unrelated networks to reach a ceiling.
 */
export const DAILY_LIMITS: DailyLimits = {
  visitorsPerClient: 2_000,
  visitors: 250_000,
  visitorsFloor: 3,
  resultsPerClient: 500,
  results: 50_000,
  resultsFloor: 3,
  newValuesPerClient: 10,
  newValues: 300,
  newValuesFloor: 1,
  maxClients: 20_000,
};

/** The bounds on new visitors, saved results (each kind) and new referrer or source values. */
export function sharesOf(limits: DailyLimits): Record<"visitors" | "results" | "newValues", Share> {
  return {
    visitors: { perClient: limits.visitorsPerClient, daily: limits.visitors, floor: limits.visitorsFloor },
    results: { perClient: limits.resultsPerClient, daily: limits.results, floor: limits.resultsFloor },
    newValues: { perClient: limits.newValuesPerClient, daily: limits.newValues, floor: limits.newValuesFloor },
  };
}

/** Seconds from `now` to the next UTC midnight, when every daily limit starts again (at least 1). */
export function secondsUntilTomorrow(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

/**
 * One kind of row's daily count: today's total, and what each network and IPv6 block added
 * today. The one interface the limits use, so a count kept in a database (shared by several
 * instances) can replace the one in memory: it reads the total and the counts of
 * `quotaKeys(address)`, asks `judge`, and adds one to each on "ok", in one transaction.
 */
export interface DailyQuota {
  /** Takes one for the client at `address` on `day` (YYYY-MM-DD, UTC); when refused, nothing is taken. */
  take(address: string, day: string): QuotaAnswer | Promise<QuotaAnswer>;
}

/**
 * A daily count in memory, one number per network or block: at most `maxKeys` are
 * remembered, the least recently seen forgotten first (a forgotten network starts again with
 * today's allowance; everyone's total still holds). A refused network that added nothing is
 * not stored, so refusals take no memory and push nobody out. A restart starts the day again.
 */
export class MemoryDailyQuota implements DailyQuota {
  private day = "";
  private added = 0;
  private counts = new Map<string, number>();

  constructor(
    readonly share: Share,
    private readonly maxKeys = DAILY_LIMITS.maxClients,
  ) {}

  take(address: string, day: string): QuotaAnswer {
    if (day !== this.day) {
      this.day = day;
      this.added = 0;
      this.counts = new Map();
    }
    const keys = quotaKeys(address);
    const counts = keys.map((key) => this.counts.get(key) ?? 0);
    const answer = judge(this.share, this.added, counts);
    const step = answer === "ok" ? 1 : 0;
    if (step) this.added++;
    keys.forEach((key, i) => {
      const count = counts[i]! + step;
      if (count === 0) return;
      // Re-inserted on every request: the map's order is then least recently seen first.
      this.counts.delete(key);
      this.counts.set(key, count);
    });
    if (this.counts.size > this.maxKeys) {
      // Forget the least recently seen tenth at once, so this stays rare.
      const target = Math.floor(this.maxKeys * 0.9);
      for (const old of this.counts.keys()) {
        if (this.counts.size <= target) break;
        this.counts.delete(old);
      }
    }
    return answer;
  }

  /** What was added today. */
  get total(): number {
    return this.added;
  }

  /** How many networks and blocks are remembered. */
  get remembered(): number {
    return this.counts.size;
  }
}
