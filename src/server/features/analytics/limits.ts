import type { Server } from "elysia/universal";
import type { Db } from "#server/db/types.ts";
import {
  DAILY_LIMITS,
  type DailyLimits,
  type DailyQuota,
  MemoryDailyQuota,
  sharesOf,
} from "#server/lib/daily-quota.ts";
import type { ResultLimit } from "#server/lib/result-limit.ts";
import { DAILY_EVENTS_PER_VISITOR, METRICS, OTHER_KEY, OVER_LIMIT_KEY } from "#shared/features/analytics/constants.ts";
import { markVisitorOver, SharedDailyQuota, VISITOR_OVER, visitorEvents } from "../limits/shared.ts";
import type { Analytics, Counted } from "./counting.ts";
import type { CountEvent } from "./service.ts";

// What counting may write in a day (docs/product.md#analytics, "Limits against inflation").
// A new user agent is a new visitor to hash-based counting, so the number of visitor rows is
// bounded by the network a request comes from (a share that shrinks as the day fills, for an
// IPv6 network its /56 and /48 too) and for everyone, never by what it sends; the referrer
// sites and utm_source values a network may add are bounded the same way.

/** What a visit may count, once the day's limits are applied. */
export type Admitted =
  /** As asked, a visitor row included (a referrer or source beyond its limits as "(other)"). */
  | { kind: "count"; events: CountEvent[] }
  /** One visitor repeating itself past its daily events: the bot counter only. */
  | { kind: "bot"; events: CountEvent[] }
  /** A new visitor beyond its network's or everyone's daily limit: no visitor row, each event in its metric's "(over the limit)" total. */
  | { kind: "over"; events: CountEvent[] };

/** A visitor hash as a number (its first 52 bits): the day's admitted visitors cost a few bytes each. */
const visitorId = (visitor: string) => Number.parseInt(visitor.slice(0, 13), 16);

/** Today's counting limits, in memory (a restart starts them again). */
export class CountLimits {
  private day = "";
  /** The visitors admitted today and the events each has counted: at most `limits.visitors`. */
  private eventsOf = new Map<number, number>();
  private readonly visitors: DailyQuota;
  private readonly values: Record<string, { seen: Set<string>; quota: DailyQuota }>;

  constructor(limits: DailyLimits = DAILY_LIMITS) {
    const shares = sharesOf(limits);
    this.visitors = new MemoryDailyQuota(shares.visitors, limits.maxClients);
    const values = () => ({
      seen: new Set<string>(),
      quota: new MemoryDailyQuota(shares.newValues, limits.maxClients),
    });
    this.values = { [METRICS.referrer]: values(), [METRICS.utmSource]: values() };
  }

  /** What the visit of `visitor` from the client at `address` may count on `day`. */
  admit(address: string, visitor: string, events: readonly CountEvent[], day: string): Admitted {
    if (day !== this.day) {
      this.day = day;
      this.eventsOf = new Map();
      for (const value of Object.values(this.values)) value.seen = new Set();
    }
    const id = visitorId(visitor);
    const used = this.eventsOf.get(id);
    if (used === undefined && this.visitors.take(address, day) !== "ok")
      return { kind: "over", events: events.map(({ metric }) => ({ metric, key: OVER_LIMIT_KEY })) };
    if ((used ?? 0) >= DAILY_EVENTS_PER_VISITOR)
      return { kind: "bot", events: [{ metric: METRICS.bot, key: "over-daily-limit" }] };
    this.eventsOf.set(id, (used ?? 0) + events.length);
    return { kind: "count", events: events.map((event) => this.value(address, event, day)) };
  }

  /** A referrer site or utm_source not yet seen today takes a slot from its network's and everyone's allowance, or counts as "(other)". */
  private value(address: string, event: CountEvent, day: string): CountEvent {
    const limit = this.values[event.metric];
    if (!limit || limit.seen.has(event.key)) return event;
    if (limit.quota.take(address, day) !== "ok") return { metric: event.metric, key: OTHER_KEY };
    limit.seen.add(event.key);
    return event;
  }
}

/**
 * Today's counting limits in the database, shared by every instance of the site (and kept
 * across restarts): the same rules as CountLimits. A visitor's events of the day are one row
 * (limits/shared.ts), raised by each counted request. The referrer sites and sources already
 * seen today are remembered per instance: one that another instance admitted takes a slot
 * again here, so across instances the limit can only be stricter, never looser.
 */
export class SharedCountLimits {
  private day = "";
  private readonly visitors: SharedDailyQuota;
  private readonly values: Record<string, { seen: Set<string>; quota: SharedDailyQuota }>;

  constructor(
    private readonly db: Db,
    limits: DailyLimits = DAILY_LIMITS,
  ) {
    const shares = sharesOf(limits);
    this.visitors = new SharedDailyQuota(db, shares.visitors, "visitors");
    const values = (metric: string) => ({
      seen: new Set<string>(),
      quota: new SharedDailyQuota(db, shares.newValues, `values:${metric}`),
    });
    this.values = { [METRICS.referrer]: values("referrer"), [METRICS.utmSource]: values("utm-source") };
  }

  async admit(address: string, visitor: string, events: readonly CountEvent[], day: string): Promise<Admitted> {
    if (day !== this.day) {
      this.day = day;
      for (const value of Object.values(this.values)) value.seen = new Set();
    }
    const over = (): Admitted => ({
      kind: "over",
      events: events.map(({ metric }) => ({ metric, key: OVER_LIMIT_KEY })),
    });
    const total = await visitorEvents(this.db, day, visitor, events.length);
    if (total === VISITOR_OVER) return over();
    // The visitor's first request today (on any instance): a new visitor takes a slot.
    if (total === events.length && (await this.visitors.take(address, day)) !== "ok") {
      await markVisitorOver(this.db, day, visitor);
      return over();
    }
    if (total - events.length >= DAILY_EVENTS_PER_VISITOR)
      return { kind: "bot", events: [{ metric: METRICS.bot, key: "over-daily-limit" }] };
    const counted: CountEvent[] = [];
    for (const event of events) counted.push(await this.value(address, event, day));
    return { kind: "count", events: counted };
  }

  private async value(address: string, event: CountEvent, day: string): Promise<CountEvent> {
    const limit = this.values[event.metric];
    if (!limit || limit.seen.has(event.key)) return event;
    if ((await limit.quota.take(address, day)) !== "ok") return { metric: event.metric, key: OTHER_KEY };
    limit.seen.add(event.key);
    return event;
  }
}

/**
 * The daily limit on one kind of saved result, as the quiz and the calculator take it just
 * before a checked result is written: a result over the limit is not saved, and is counted
 * (its finish in the metric's "(over the limit)" total, with `counted`'s other events) before
 * the refusal is thrown, so the totals stay honest.
 */
export function takeResult(
  limit: ResultLimit | undefined,
  analytics: Analytics | undefined,
  request: Request,
  server: Server | null,
  counted: Counted,
): () => Promise<void> {
  return async () => {
    try {
      await limit?.(request, server);
    } catch (refusal) {
      await analytics?.track(request, server, counted);
      throw refusal;
    }
  };
}
