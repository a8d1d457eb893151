import type { Server } from "elysia/universal";
import { dialect } from "#server/db/dialect.ts";
import type { Db } from "#server/db/types.ts";
import type { ClientOf } from "#server/lib/client.ts";
import type { DailyLimits } from "#server/lib/daily-quota.ts";
import type { StorageHealth } from "#server/lib/storage-health.ts";
import { utcDay } from "#server/lib/utc-day.ts";
import type { Logger } from "#server/logger.ts";
import { requestPage } from "#server/ssr/request-page.ts";
import { type FunnelStep, METRICS } from "#shared/features/analytics/constants.ts";
import { isModuleNumber } from "#shared/features/course/course.ts";
import { PLACEMENT_PAGES, placementPost } from "#shared/features/links/constants.ts";
import { matchPage, type PageMatch } from "#web/routes.ts";
import { CountLimits, SharedCountLimits } from "./limits.ts";
import { type CountEvent, recordMany, type Visit, verdict, visitorHash } from "./service.ts";

/** What one request counts, before the visitor is known. */
export interface Counted {
  events: CountEvent[];
  steps: FunnelStep[];
}

/**
 * The counts of a page view at this address (served, or reached by a navigation in the
 * browser), or null for an address that is not a visitor's page (the admin's, an unknown
 * one). Only values from the route table are taken from the address: a post's slug and a
 * module's number, which the page's answer (or the beacon's check) shows to exist.
 */
export function pageCounts(
  pathname: string,
  search: URLSearchParams,
  found: PageMatch = matchPage(pathname, search),
): (Counted & { check?: Check }) | null {
  const { page, params } = found;
  if ("movedTo" in page || page.id === "not-found" || page.id.startsWith("admin")) return null;
  // A wizard's later step (its answers so far in the address) is the same page, already
  // counted: nothing to add, though the address is one of the site's.
  if (search.has("answers") && (page.id === "quiz" || page.id === "earnings")) return { events: [], steps: [] };
  const counted: Counted & { check?: Check } = { events: [{ metric: METRICS.pageview, key: page.id }], steps: [] };
  if (page.id === "home") counted.steps.push("home");
  if (page.id === "blog-post" && params.slug) {
    counted.events.push({ metric: METRICS.postView, key: params.slug });
    counted.check = { post: params.slug };
  }
  // Any one-part address matches an added page: only one that exists is counted.
  if (page.id === "added-page" && params.slug) counted.check = { sitePage: params.slug };
  if (page.id === "module") {
    if (!params.id || !isModuleNumber(params.id)) return null;
    counted.events.push({ metric: METRICS.moduleView, key: String(Number(params.id)) });
  }
  const resultId = search.get("id");
  if (page.id === "quiz-result" && resultId) {
    counted.events.push({ metric: METRICS.resultView, key: "" });
    counted.steps.push("result");
    counted.check = { quizResult: resultId };
  }
  if (page.id === "starter-kit") {
    counted.events.push({ metric: METRICS.kitView, key: "" });
    counted.steps.push("starter-kit");
  }
  return counted;
}

/** A record a beacon's page view names, which must exist before it is counted. */
type Check = { post: string } | { quizResult: string } | { sitePage: string };

/**
 * The counts of a click on /go/<slug>?p=<placement> for a link the site has: key
 * "<slug>/<placement>". The placement is one the site knows, a post it has ("post:<slug>",
 * checked by the caller against the posts), or "" for none: never a word a visitor chose.
 */
export function clickCounts(slug: string, placement: string | null, postExists: boolean): Counted {
  const known = placement && (Object.hasOwn(PLACEMENT_PAGES, placement) || (postExists && placementPost(placement)));
  const place = known ? placement : "";
  return { events: [{ metric: METRICS.click, key: `${slug}/${place}` }], steps: ["click"] };
}

/** The other site a visit came from: its host name, or null for this site, none or anything unreadable. */
function referrerHost(request: Request, ownHost: string): string | null {
  const referrer = request.headers.get("referer");
  if (!referrer || referrer.length > 2048) return null;
  try {
    const url = new URL(referrer);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    const host = url.hostname.toLowerCase();
    // A site's name only: an address (10.0.0.5, [::1]) or a name without a dot (localhost,
    // an intranet host) names no site a visitor came from, and may name a private network.
    if (!host.includes(".") || /^[\d.]+$/.test(host) || host.startsWith("[")) return null;
    return host !== ownHost && host.length <= 253 ? host : null;
  } catch {
    return null;
  }
}

/**
 * Whether a request is a visitor opening a page (or following a link) in the browser's
 * window: a browser says what it fetches for (Sec-Fetch-Dest), and another site's image,
 * script or frame pointing here is no page view and no click. Clients that send no such
 * header (older browsers, tools) are taken at their word.
 */
export function isNavigation(request: Request): boolean {
  const dest = request.headers.get("sec-fetch-dest");
  return dest === null || dest === "document";
}

/** utm_source as counted: trimmed, lower-cased, short and plain, or null. */
function utmSource(search: URLSearchParams): string | null {
  const value = search.get("utm_source")?.trim().toLowerCase().slice(0, 64);
  return value && /^[a-z0-9 ._+-]+$/.test(value) ? value : null;
}

export interface AnalyticsOptions {
  db: Db;
  /** The one decision about who sent a request (trusted proxies). */
  client: ClientOf;
  /** ANALYTICS=off: nothing is counted. */
  enabled: boolean;
  logger: Logger;
  /** Tests pass their own clock. */
  now?: () => Date;
  /**
   * How long counts wait in memory before they are written together (0: written before the
   * request is answered, as tests want). The server uses a second: a request then costs a
   * hash and a few map entries, and one transaction a second writes everyone's counts.
   */
  flushMs?: number;
  /** The day's limits on visitors and new referrer sites and sources (tests pass small ones). */
  limits?: DailyLimits;
  /**
   * Whether data can be kept: while it cannot (a full disk), counts are not written, so
   * visitors' page views never use up the room the admin's own writes are kept for.
   */
  storage?: Pick<StorageHealth, "check">;
}

/** Counting as the routes use it: what a request counts is decided by its handler. */
export interface Analytics {
  readonly enabled: boolean;
  /** Counts what a request did (a bot only in the bot counter; a visitor asking not to be tracked not at all). */
  track(request: Request, server: Server | null, counted: Counted): Promise<void>;
  /** Counts a page the server answered with `status` (only a page that was shown: 2xx, or 304). */
  page(request: Request, server: Server | null, status: number): Promise<void>;
  /** Writes the counts waiting in memory (on shutdown). */
  flush(): Promise<void>;
}

export function createAnalytics({
  db,
  client,
  enabled,
  logger,
  now = () => new Date(),
  flushMs = 0,
  limits,
  storage,
}: AnalyticsOptions): Analytics {
  // Visits waiting to be written, by UTC day.
  let pending = new Map<string, { at: Date; visits: Visit[] }>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const failed = (error: unknown) => logger.error("could not count a visit", { error });
  // Today's limits (in memory on one server): events per visitor, new visitors per network and for everyone,
  // new referrer sites and sources, so neither a script repeating itself nor one making up a
  // user agent, referrer or source on every request can fill the numbers or the database.
  // Several instances share one PostgreSQL database: then so do the limits.
  const counted = dialect === "postgresql" ? new SharedCountLimits(db, limits) : new CountLimits(limits);
  // Counts dropped while data cannot be kept: said once, when it starts.
  let withheld = false;
  const withhold = () => {
    if (!withheld) logger.warn("visit counts are not written while data cannot be kept");
    withheld = true;
  };
  // Asked of every counted request (the first count of a day writes its salt), so the answer
  // is kept for half a second: a few system calls less per page view.
  let kept = { at: Number.NEGATIVE_INFINITY, ok: true };
  const canKeep = () => {
    if (!storage) return true;
    if (performance.now() - kept.at > 500) kept = { at: performance.now(), ok: storage.check().ok };
    return kept.ok;
  };

  async function write(visits: Visit[], at: Date): Promise<void> {
    if (storage && !storage.check().ok) return withhold();
    withheld = false;
    await recordMany(db, visits, at);
  }

  // Flushes run one after another: the one at shutdown ends after any the timer started, so
  // the database never closes under a write still on its way.
  let flushed: Promise<void> = Promise.resolve();
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const batches = pending;
    pending = new Map();
    flushed = flushed.then(async () => {
      for (const [, { at, visits }] of batches) await write(visits, at).catch(failed);
    });
    return flushed;
  }

  async function save(visit: Visit, at: Date): Promise<void> {
    if (flushMs <= 0) return write([visit], at);
    const day = utcDay(at);
    const batch = pending.get(day);
    if (batch) batch.visits.push(visit);
    else pending.set(day, { at, visits: [visit] });
    if (!timer) {
      timer = setTimeout(() => void flush(), flushMs);
      timer.unref?.();
    }
  }

  async function track(request: Request, server: Server | null, { events, steps }: Counted): Promise<void> {
    if (!enabled) return;
    if (!canKeep()) return withhold();
    try {
      const seen = verdict(request);
      if (seen.kind === "skip") return;
      const at = now();
      if (seen.kind === "bot")
        return await save({ visitor: null, events: [{ metric: METRICS.bot, key: seen.reason }], steps: [] }, at);
      const address = client(request, server).address;
      const visitor = await visitorHash(db, address, request.headers.get("user-agent") ?? "", at);
      const admitted = await counted.admit(address, visitor, events, utcDay(at));
      if (admitted.kind !== "count") {
        if (admitted.events.length > 0) await save({ visitor: null, events: admitted.events, steps: [] }, at);
        return;
      }
      await save({ visitor, events: admitted.events, steps }, at);
    } catch (error) {
      // Counting never fails a visitor's request. The log names neither address nor agent.
      failed(error);
    }
  }
  return {
    enabled,
    track,
    flush,
    async page(request, server, status) {
      if (!enabled || !((status >= 200 && status < 300) || status === 304) || !isNavigation(request)) return;
      const { url, found } = requestPage(request);
      const counted = pageCounts(url.pathname, url.searchParams, found);
      if (!counted) return;
      const from = referrerHost(request, url.hostname.toLowerCase());
      if (from) counted.events.push({ metric: METRICS.referrer, key: from });
      const utm = utmSource(url.searchParams);
      if (utm) counted.events.push({ metric: METRICS.utmSource, key: utm });
      await track(request, server, counted);
    },
  };
}
