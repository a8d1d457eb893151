import { clientKey } from "#server/lib/client.ts";

/** An attempt the throttle let through: say how it ended, exactly once. */
export interface Reservation {
  allowed: true;
  /** The password was right: the client's failures are forgotten. */
  succeed(): void | Promise<void>;
  /** The password was wrong (or the check failed): the reserved attempt stays counted. */
  fail(): void;
}

export interface Refusal {
  allowed: false;
  /** Whole seconds until an attempt may be allowed again (at least 1). */
  retryAfter: number;
  /** Whose budget is used up: this client's, or the site's while it is under attack. */
  scope: "client" | "site";
}

export interface ThrottleOptions {
  /** Failures across all clients within the window before the site-wide gate closes. */
  siteFree?: number;
  /** The longest spacing the site-wide gate imposes between attempts, in ms. */
  siteCapMs?: number;
  /** Clients remembered at most; the oldest without an attempt in flight are forgotten first. */
  maxClients?: number;
}

/**
 * What the sign-in routes ask before checking a password or a code: LoginThrottle in memory on
 * a single server, SharedLoginThrottle (features/limits/shared.ts) in the database when several
 * instances share one.
 */
export interface SignInThrottle {
  /** Reserves an attempt for the client at `address`, or says how long to wait. */
  begin(address: string): Reservation | Refusal | Promise<Reservation | Refusal>;
}

interface ClientRecord {
  /** Times of failed attempts inside the window, oldest first. */
  failures: number[];
  /** Attempts reserved and still being checked. */
  pending: number;
}

/**
 * The sign-in throttle. Kept in memory: a restart forgets, which only helps the admin.
 *
 * - Per client (an IPv4 address or an IPv6 /64, as the client resolver sees it):
 *   at most `limit` failed attempts inside a sliding `windowMs`; further attempts answer
 *   429 until the oldest failure leaves the window.
 * - Site-wide, for every user name together (the site has one admin): once `siteFree`
 *   failures from anywhere fall inside the window, the site is under attack. A client
 *   with no failure and nothing in flight (a clean address) still has its attempt
 *   checked at once, so the admin at their own address is never kept out; any other
 *   attempt needs a free slot, spaced 1 s, 2 s, 4 s... apart, never more than `siteCapMs`.
 *
 * An attempt is reserved before the password is checked and counted as a failure while
 * the check runs, so a parallel burst is held to the same budget as a sequential one.
 * Memory is bounded: at most `maxClients` client records, and a fixed number of the
 * site's most recent failure times.
 */
export class LoginThrottle implements SignInThrottle {
  private readonly clients = new Map<string, ClientRecord>();
  /** The most recent failures from anywhere (only enough of them to reach the cap). */
  private siteFailures: number[] = [];
  private sitePending = 0;
  private nextSiteSlot = 0;
  private readonly siteFree: number;
  private readonly siteCapMs: number;
  private readonly maxClients: number;

  constructor(
    private readonly limit = 5,
    private readonly windowMs = 15 * 60_000,
    private readonly now: () => number = Date.now,
    { siteFree = 10, siteCapMs = 30_000, maxClients = 10_000 }: ThrottleOptions = {},
  ) {
    this.siteFree = siteFree;
    this.siteCapMs = siteCapMs;
    this.maxClients = maxClients;
  }

  /** Reserves an attempt for the client at `address`, or says how long to wait. */
  begin(address: string): Reservation | Refusal {
    const key = clientKey(address);
    const now = this.now();
    const record = this.touch(key, now);
    const used = record.failures.length + record.pending;
    if (used >= this.limit) {
      // In-flight attempts are counted as failures that happen now.
      const times = [...record.failures, ...Array<number>(record.pending).fill(now)];
      return refuse(times[used - this.limit]! + this.windowMs - now, "client");
    }
    const siteCount = this.recentSiteFailures(now) + this.sitePending;
    if (siteCount >= this.siteFree && used > 0) {
      if (now < this.nextSiteSlot) return refuse(this.nextSiteSlot - now, "site");
      this.nextSiteSlot = now + Math.min(this.siteCapMs, 1000 * 2 ** (siteCount - this.siteFree));
    }
    record.pending++;
    this.sitePending++;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      record.pending--;
      this.sitePending--;
      return true;
    };
    return {
      allowed: true,
      succeed: () => {
        if (!settle()) return;
        record.failures = [];
        if (record.pending === 0) this.clients.delete(key);
      },
      fail: () => {
        if (!settle()) return;
        const at = this.now();
        // The record may have been forgotten meanwhile (it cannot while pending, but be safe).
        const current = this.clients.get(key) ?? this.touch(key, at);
        current.failures.push(at);
        this.siteFailures.push(at);
        if (this.siteFailures.length > this.siteFree + 16) this.siteFailures.shift();
      },
    };
  }

  /** How many clients are remembered (for tests of the memory bound). */
  get size(): number {
    return this.clients.size;
  }

  private recentSiteFailures(now: number): number {
    const cutoff = now - this.windowMs;
    while (this.siteFailures.length && this.siteFailures[0]! <= cutoff) this.siteFailures.shift();
    return this.siteFailures.length;
  }

  /** The client's record with old failures dropped, moved to the newest end of the map. */
  private touch(key: string, now: number): ClientRecord {
    const record = this.clients.get(key) ?? { failures: [], pending: 0 };
    const cutoff = now - this.windowMs;
    while (record.failures.length && record.failures[0]! <= cutoff) record.failures.shift();
    this.clients.delete(key);
    this.clients.set(key, record);
    if (this.clients.size > this.maxClients) this.forget(now, key);
    return record;
  }

  /** Brings the map back under 90% of its bound: expired records first, then the oldest idle ones. */
  private forget(now: number, keep: string): void {
    const target = Math.floor(this.maxClients * 0.9);
    const cutoff = now - this.windowMs;
    const idle = (key: string, record: ClientRecord) => key !== keep && record.pending === 0;
    for (const [key, record] of this.clients) {
      if (idle(key, record) && (record.failures.at(-1) ?? 0) <= cutoff) this.clients.delete(key);
    }
    for (const [key, record] of this.clients) {
      if (this.clients.size <= target) break;
      if (idle(key, record)) this.clients.delete(key);
    }
  }
}

function refuse(ms: number, scope: Refusal["scope"]): Refusal {
  return { allowed: false, retryAfter: Math.max(1, Math.ceil(ms / 1000)), scope };
}
