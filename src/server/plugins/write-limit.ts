import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { WriteLimit } from "#server/env.ts";
import { type ClientOf, clientKey } from "#server/lib/client.ts";
import { changesState } from "#server/lib/methods.ts";
import type { Logger } from "#server/logger.ts";
import { HttpError } from "./errors.ts";

interface Bucket {
  /** Writes left; refilled evenly over the window, up to the limit. */
  tokens: number;
  at: number;
}

export interface WriteLimiterOptions {
  /** Tests pass their own clock. */
  now?: () => number;
  /** How many clients are remembered at most (memory stays bounded under a flood of addresses). */
  maxClients?: number;
}

/**
 * Anonymous writes per client, as a token bucket: a client may make `count` writes at
 * once, then one more each `windowSeconds / count` seconds. Each client costs one small
 * entry; a client whose bucket is full again is forgotten (it is the same as a new one),
 * and when `maxClients` are remembered the least recently seen go first.
 */
export class WriteLimiter implements WriteBudget {
  private buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly now: () => number;
  private readonly maxClients: number;

  constructor(
    readonly limit: WriteLimit,
    { now = Date.now, maxClients = 10_000 }: WriteLimiterOptions = {},
  ) {
    this.perMs = limit.count / (limit.windowSeconds * 1000);
    this.now = now;
    this.maxClients = maxClients;
  }

  private level(bucket: Bucket, now: number): number {
    return Math.min(this.limit.count, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs);
  }

  /** Takes one write for the client at `address`: 0 when it may go ahead, else the seconds until it may. */
  take(address: string): number {
    const key = clientKey(address);
    const now = this.now();
    const bucket = this.buckets.get(key);
    const tokens = bucket ? this.level(bucket, now) : this.limit.count;
    // Re-inserted on every request: the map's order is then least recently seen first.
    if (bucket) this.buckets.delete(key);
    else this.makeRoom(now);
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000));
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return 0;
  }

  private makeRoom(now: number): void {
    if (this.buckets.size < this.maxClients) return;
    for (const [key, bucket] of this.buckets) if (this.level(bucket, now) >= this.limit.count) this.buckets.delete(key);
    // Still full: forget the least recently seen tenth at once, so this sweep stays rare.
    const target = Math.floor(this.maxClients * 0.9);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= target) break;
      this.buckets.delete(key);
    }
  }

  /** How many clients are remembered (for tests). */
  get clients(): number {
    return this.buckets.size;
  }
}

function limitText({ count, windowSeconds }: WriteLimit): string {
  const per =
    windowSeconds === 1
      ? "second"
      : windowSeconds === 60
        ? "minute"
        : windowSeconds === 3600
          ? "hour"
          : `${windowSeconds} seconds`;
  return `${count} per ${per}`;
}

/**
 * A budget of writes per client: WriteLimiter in memory on a single server, SharedWriteLimiter
 * (features/limits/shared.ts) in the database when several instances share one.
 */
export interface WriteBudget {
  readonly limit: WriteLimit;
  /** Takes one write for the client at `address`: 0 when it may go ahead, else the seconds until it may. */
  take(address: string): number | Promise<number>;
}

export interface WriteLimitOptions {
  limiter: WriteBudget | null;
  client: ClientOf;
  /** Requests under these paths are the signed-in admin's (their mounts check that first): not counted. */
  exempt: (request: Request) => boolean;
  /**
   * Throws the refusal of a request another site made (a foreign Origin): it is refused
   * before it is counted, so no other site can use up a visitor's budget.
   */
  refuseForeign: (request: Request, server: Server | null) => void;
  logger: Logger;
  /**
   * Writes that take from a budget of their own instead (the visit-count beacon, which a
   * browser sends as it goes): they never use up a visitor's budget for quiz results.
   */
  separate?: { matches: (request: Request) => boolean; limiter: WriteBudget | null };
}

/**
 * Every state-changing request that is not the admin's (quiz and calculator results, sign
 * in and out, any other POST/PUT/PATCH/DELETE) takes one write from its client's budget,
 * before its body is read; one another site made is refused first (403) and not counted.
 * Over the limit: 429 with Retry-After, and nothing is written.
 */
export function writeLimit({ limiter: shared, client, exempt, refuseForeign, logger, separate }: WriteLimitOptions) {
  let lastWarning = Number.NEGATIVE_INFINITY;
  // Async, so Elysia waits for it (it decides from the function, not from what it returns).
  return new Elysia({ name: "write-limit" }).onRequest(async ({ request, server, set }) => {
    if (!changesState(request) || exempt(request)) return;
    // Also with the limit turned off: another site's request changes nothing here.
    refuseForeign(request, server);
    const limiter = separate?.matches(request) ? separate.limiter : shared;
    if (!limiter) return;
    const address = client(request, server).address;
    const answer = (wait: number) => {
      if (wait === 0) return;
      const message = limitText(limiter.limit);
      // One line a minute at most: enough to notice that everyone shares one address (a
      // reverse proxy that is not trusted) without a flood filling the log.
      if (performance.now() - lastWarning > 60_000) {
        lastWarning = performance.now();
        logger.warn("write limit reached", { address, limit: message });
      }
      set.headers["retry-after"] = String(wait);
      throw new HttpError(
        429,
        `Too many submissions from your network in a short time (the limit is ${message}). Nothing was lost: please try again in ${wait} second${wait === 1 ? "" : "s"}.`,
      );
    };
    answer(await limiter.take(address));
  });
}
