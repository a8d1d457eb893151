import { clientKey } from "./client.ts";

// Daily bounds on what requests without a session may add to the database (docs/security.md,
// "Anonymous writes"): per network (an IPv4 address, an IPv6 /64) and for everyone, per UTC day.
// Nothing here depends on a value the client chooses (its user agent, a referrer, a query).

/** The daily limits on rows anonymous requests can add (decision 051 gives the reasoning). */
export interface DailyLimits {
  /** New visitors (raw visitor-day rows) a day from one network. */
  visitorsPerClient: number;
  /** New visitors a day from everyone. */
  visitors: number;
  /** Saved results a day from one network, for the quiz and for the calculator each. */
  resultsPerClient: number;
  /** Saved results a day from everyone, for the quiz and for the calculator each. */
  results: number;
  /** Referrer sites, and utm_source values, not yet seen that day that one network may add. */
  newValuesPerClient: number;
  /** Referrer sites, and utm_source values, recorded a day (the rest count as "(other)"). */
  newValues: number;
  /** Networks each counter remembers at most; the least recently seen are forgotten first. */
  maxClients: number;
}

/**
 * Sized so a busy site (50,000 visitors a day, hundreds of them behind one carrier or school
 * NAT address) never meets them in normal use, while a flood writes a bounded number of rows.
 */
export const DAILY_LIMITS: DailyLimits = {
  visitorsPerClient: 2_000,
  visitors: 250_000,
  resultsPerClient: 500,
  results: 50_000,
  newValuesPerClient: 10,
  newValues: 300,
  maxClients: 20_000,
};

/** Which limit refused: the client's network's, or everyone's. */
export type QuotaAnswer = "ok" | "client" | "everyone";

/** The UTC date of `now`, YYYY-MM-DD: the day every limit counts under. */
export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Seconds from `now` to the next UTC midnight, when every daily limit starts again (at least 1). */
export function secondsUntilTomorrow(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

/**
 * A daily allowance: `perClient` a day for each network (its key from clientKey, so an IPv6
 * client counts by its /64) and `daily` for everyone. In memory, one number per network: at
 * most `maxClients` networks are remembered, the least recently seen forgotten first (a
 * forgotten network starts again with its whole allowance; everyone's total still holds).
 * A restart starts the day again.
 */
export class DailyQuota {
  private day = "";
  private total = 0;
  private used = new Map<string, number>();

  constructor(
    readonly perClient: number,
    readonly daily: number,
    private readonly maxClients = DAILY_LIMITS.maxClients,
  ) {}

  /** Takes one for the client at `address` on `day`; when a limit is reached, nothing is taken. */
  take(address: string, day: string): QuotaAnswer {
    if (day !== this.day) {
      this.day = day;
      this.total = 0;
      this.used = new Map();
    }
    const key = clientKey(address);
    const used = this.used.get(key) ?? 0;
    // Re-inserted on every request: the map's order is then least recently seen first.
    this.used.delete(key);
    const answer: QuotaAnswer = used >= this.perClient ? "client" : this.total >= this.daily ? "everyone" : "ok";
    if (answer === "ok") this.total++;
    this.used.set(key, answer === "ok" ? used + 1 : used);
    if (this.used.size > this.maxClients) {
      // Forget the least recently seen tenth at once, so this stays rare.
      const target = Math.floor(this.maxClients * 0.9);
      for (const old of this.used.keys()) {
        if (this.used.size <= target) break;
        this.used.delete(old);
      }
    }
    return answer;
  }

  /** How many networks are remembered (for tests). */
  get clients(): number {
    return this.used.size;
  }
}
