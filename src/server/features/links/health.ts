import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { alone } from "#server/db/jobs.ts";
import type { Db } from "#server/db/types.ts";
import type { Logger } from "#server/logger.ts";
import type { HealthClass } from "#shared/features/links/contract.ts";
import { hostProblem, isIpAddress } from "#shared/public-host.ts";
import { askFirst, type CheckerNetwork, type HopAnswer, HopTimeout, portOf, publicNetwork } from "./network.ts";
import { links } from "./table.ts";

/** At most this many redirects are followed; one more makes the link broken. */
const MAX_HOPS = 10;
/** How long one request of a check may take before the destination counts as not answering. */
const CHECK_TIMEOUT_MS = 10_000;
/**
 * How long one check may take in all, every redirect included, and how long an admin's request
 * to check waits: well inside the server's idle timeout, so the admin always gets an answer.
 */
export const CHECK_DEADLINE_MS = 15_000;
/** Destinations checked at the same time in a run over all links. */
const AT_ONCE = 3;

export interface CheckResult {
  healthClass: HealthClass;
  /** The status of the last answer; null when nothing answered. */
  status: number | null;
  /** The last address asked for. */
  finalUrl: string;
  /** Redirects followed. */
  hops: number;
  /** A short sentence for the admin. */
  reason: string;
  /** True when the destination could not be reached at all (no connection, no DNS answer, a timeout). */
  unreachable?: boolean;
}

/** What a run over many links did. */
export interface RunSummary {
  /** Links checked. */
  checked: number;
  /**
   * True when two or more links were checked and none of them could be reached: this server
   * most likely has no internet connection (or no working DNS). A run that reached no
   * destination (this one, or a run over one link) records what it found but counts no
   * failure, so no link switches to its fallback because of it.
   */
  offline: boolean;
}

export interface CheckOptions {
  /** How long one request may take. */
  timeoutMs?: number;
  /** How long the whole check may take, every redirect and name lookup included. */
  deadlineMs?: number;
  maxHops?: number;
  userAgent: string;
  /** Where names resolve and which addresses may be connected to: the public internet only, unless a test passes its own. */
  network?: CheckerNetwork;
}

/** The user agent the checker names itself with: what it is, and whose site sends it. */
export function checkerUserAgent(publicOrigin: string | null): string {
  return `cam-guide link checker (+${publicOrigin ?? "self-hosted"})`;
}

const isRedirect = (status: number) => status >= 300 && status < 400;
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** `work`, or null when `ms` pass first. */
async function within<T>(ms: number, work: Promise<T>): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Fetches `url` the way a visitor's browser would reach it: GET (some networks answer HEAD
 * badly), each redirect followed by hand (a relative Location against the address that sent
 * it; only http and https), at most `maxHops` of them, each request with its own timeout and the
 * whole check within `deadlineMs`. The body is never read. Every hop's host must be a public
 * one (the rule a save applies); its name is resolved once, every address it resolves to must be
 * public and none may be held by this machine's own interfaces, and the request goes to one of
 * exactly those addresses. Networks redirect by design,
 * so a redirect that ends on a page is not an error; 403 and 429 mean the destination refuses
 * robots, not that it is gone.
 */
export async function checkDestination(
  url: string,
  {
    timeoutMs = CHECK_TIMEOUT_MS,
    deadlineMs = CHECK_DEADLINE_MS,
    maxHops = MAX_HOPS,
    userAgent,
    network = publicNetwork,
  }: CheckOptions,
): Promise<CheckResult> {
  const until = Date.now() + deadlineMs;
  let current = url;
  let status: number | null = null;
  let hops = 0;
  const seen = new Set<string>();
  const broken = (reason: string): CheckResult => ({ healthClass: "broken", status, finalUrl: current, hops, reason });
  const unreachable = (reason: string): CheckResult => ({ ...broken(reason), status: null, unreachable: true });
  // A redirect into a private network is not followed: the check ends at the last hop asked.
  let asked = url;
  const notFollowed = (reason: string): CheckResult => ({ ...broken(reason), finalUrl: asked, hops: hops - 1 });
  const outOfTime = () =>
    unreachable(
      hops === 0
        ? `No answer within ${seconds(deadlineMs)} seconds.`
        : `No answer within ${seconds(deadlineMs)} seconds for the whole check (after ${hops} redirect${hops === 1 ? "" : "s"}).`,
    );
  for (;;) {
    let address: URL;
    try {
      address = new URL(current);
    } catch {
      return broken("The address is not a valid web address.");
    }
    if (address.protocol !== "http:" && address.protocol !== "https:")
      return broken(`A redirect led to a ${address.protocol} address, not a web page.`);
    if (seen.has(address.href)) return broken("The redirects go round in a loop.");
    seen.add(address.href);
    // Names and addresses no visitor reaches are never asked, whether saved or redirected to.
    const hostRefused = hostProblem(address.hostname);
    if (hostRefused)
      return hops === 0
        ? broken(`Not checked: its host ${address.hostname} ${hostRefused}.`)
        : notFollowed(`It redirects to ${address.hostname}, not a public internet host; not followed.`);
    const host = address.hostname.replace(/^\[|\]$/g, "");
    const port = portOf(address);
    let addresses: string[];
    if (isIpAddress(host)) addresses = [host];
    else {
      let answer: string[] | null;
      try {
        answer = await within(until - Date.now(), network.resolve(host));
      } catch {
        return unreachable(`Could not connect: the name ${host} does not resolve.`);
      }
      if (answer === null) return outOfTime();
      if (answer.length === 0) return unreachable(`Could not connect: the name ${host} does not resolve.`);
      addresses = answer;
    }
    for (const resolved of addresses) {
      const kind = network.refusal(resolved, host, port);
      if (kind)
        return hops === 0
          ? broken(`Not checked: ${host} resolves to ${resolved}, ${kind}, not a public internet address.`)
          : notFollowed(`It redirects to ${host}, which resolves to ${resolved} (${kind}); not followed.`);
    }
    // A public address this machine holds itself reaches it from inside, past its firewall.
    let own: string | undefined;
    try {
      own = addresses.find((resolved) => network.ownAddress(resolved, host, port));
    } catch {
      return unreachable("Not checked: this server could not list its own network addresses just now.");
    }
    if (own !== undefined) {
      const which = own === host ? `${host} is` : `${host} resolves to ${own},`;
      return hops === 0
        ? broken(
            `Not checked: ${which} this server's own address: the checker never connects to the server it runs on.`,
          )
        : notFollowed(
            `It redirects to ${host}${own === host ? "" : `, which resolves to ${own}`}, this server's own address; not followed.`,
          );
    }

    const left = until - Date.now();
    if (left <= 0) return outOfTime();
    asked = address.href;
    let answer: HopAnswer;
    try {
      answer = await askFirst(address, addresses, userAgent, Math.min(timeoutMs, left));
    } catch (error) {
      if (error instanceof HopTimeout)
        return timeoutMs < left ? unreachable(`No answer within ${seconds(timeoutMs)} seconds.`) : outOfTime();
      return unreachable("Could not connect (the server refused the connection or its certificate is not valid).");
    }
    status = answer.status;

    if (isRedirect(status)) {
      if (!answer.location) return broken(`A ${status} redirect without a Location.`);
      let next: string;
      try {
        next = new URL(answer.location, address).href;
      } catch {
        return broken(`A ${status} redirect to an address that is not valid.`);
      }
      if (hops === maxHops) return broken(`More than ${maxHops} redirects.`);
      current = next;
      hops++;
      continue;
    }
    const end = { status, finalUrl: address.href, hops };
    if (status >= 200 && status < 300)
      return hops === 0
        ? { ...end, healthClass: "healthy", reason: `Answered ${status}.` }
        : {
            ...end,
            healthClass: "redirected",
            reason: `Answered ${status} after ${hops} redirect${hops === 1 ? "" : "s"}.`,
          };
    if (status === 403 || status === 429)
      return {
        ...end,
        healthClass: "blocked",
        reason: `Answered ${status}: the site refuses automated checks; open it in a browser to be sure.`,
      };
    return { ...end, healthClass: "broken", reason: `Answered ${status}.` };
  }
}

/** Said after a check that reached nothing: why it did not count. */
const NOT_COUNTED =
  "Nothing else was checked, so this server may be the one offline: this check does not count towards the fallback.";

/** The health columns of a link whose destination was never checked (or has just changed). */
export const HEALTH_RESET = {
  lastCheckedAt: null,
  lastStatus: null,
  finalUrl: null,
  hopCount: null,
  healthClass: null,
  consecutiveFailures: 0,
} as const;

/**
 * Stores a check on the link, unless its destination changed meanwhile. Broken counts one more
 * failure in a row (unless `countFailure` is false: a run that reached no destination at all);
 * healthy and redirected end the count; blocked leaves it as it was.
 */
export async function recordCheck(
  db: Db,
  link: { id: number; destination: string },
  result: CheckResult,
  now: Date,
  countFailure = true,
): Promise<void> {
  const failures =
    result.healthClass === "broken" && countFailure
      ? sql`${links.consecutiveFailures} + 1`
      : result.healthClass === "blocked"
        ? sql`${links.consecutiveFailures}`
        : 0;
  await db
    .update(links)
    .set({
      lastCheckedAt: now,
      lastStatus: result.status,
      finalUrl: result.finalUrl,
      hopCount: result.hops,
      healthClass: result.healthClass,
      consecutiveFailures: failures,
    })
    .where(and(eq(links.id, link.id), eq(links.destination, link.destination)));
}

export interface LinkChecksOptions {
  db: Db;
  /** The checker's user agent (it names the site's public address once known). */
  userAgent: () => Promise<string>;
  logger: Pick<Logger, "info" | "warn" | "error">;
  timeoutMs?: number;
  /** How long one check may take in all (default CHECK_DEADLINE_MS). */
  deadlineMs?: number;
  clock?: () => Date;
  /** Where names resolve and which addresses may be connected to (default: the public internet only). */
  network?: CheckerNetwork;
}

/** A run over many links as the admin's Links page follows it. */
export interface RunState {
  /** Whether a run is under way. */
  running: boolean;
  /** Links checked so far by the run under way, or by the last run. */
  checked: number;
  /** Links the run under way (or the last run) checks. */
  total: number;
  /** The last finished run reached no destination at all (see RunSummary). */
  offline: boolean;
}

/**
 * Runs the checks: one link, or all of them a few at a time. Only one run over many links is
 * under way at once; asking for another meanwhile waits for that one.
 */
export class LinkChecks {
  private run: Promise<RunSummary> | null = null;
  private progress = { checked: 0, total: 0 };
  private last: RunSummary | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private firstTimer: ReturnType<typeof setTimeout> | null = null;
  private hours: number | null = null;

  constructor(private readonly options: LinkChecksOptions) {}

  private now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  private async fetchRow(link: { id: number; destination: string }): Promise<CheckResult> {
    return checkDestination(link.destination, {
      userAgent: await this.options.userAgent(),
      timeoutMs: this.options.timeoutMs,
      deadlineMs: this.options.deadlineMs,
      network: this.options.network,
    });
  }

  /**
   * One link's check. A destination that could not be reached at all is no evidence against
   * the link when nothing else was asked: this server may be the one offline. Such a check is
   * recorded, but counts no failure towards the fallback.
   */
  private async checkRow(link: { id: number; destination: string }): Promise<CheckResult> {
    const result = await this.fetchRow(link);
    await recordCheck(this.options.db, link, result, this.now(), result.unreachable !== true);
    if (result.unreachable !== true) return result;
    return { ...result, reason: `${result.reason} ${NOT_COUNTED}` };
  }

  /** Checks one link now; null when there is no link with that id. */
  async checkOne(id: number): Promise<CheckResult | null> {
    const [link] = await this.options.db
      .select({ id: links.id, destination: links.destination })
      .from(links)
      .where(eq(links.id, id))
      .limit(1);
    return link ? this.checkRow(link) : null;
  }

  /** Whether a run over many links is under way. */
  get running(): boolean {
    return this.run !== null;
  }

  /** The run under way, or the last one. */
  get state(): RunState {
    return {
      running: this.run !== null,
      ...this.progress,
      offline: this.last?.offline ?? false,
    };
  }

  /**
   * Checks every link (or joins the run under way) and waits for it at most `ms`: the summary
   * when it ended in time, null when it goes on (its results are stored when it ends).
   */
  checkAllWithin(ms: number): Promise<RunSummary | null> {
    return within(ms, this.checkAll());
  }

  /** Checks every link; a run already under way is waited for instead. */
  checkAll(): Promise<RunSummary> {
    return this.runOver(() => this.options.db.select({ id: links.id, destination: links.destination }).from(links));
  }

  /** The scheduled run: the links not checked within `intervalMs` of `now`. Skipped while a run is under way. */
  async tick(now: Date, intervalMs: number): Promise<RunSummary> {
    if (this.run) return { checked: 0, offline: false };
    const since = new Date(now.getTime() - intervalMs);
    return this.runOver(() =>
      this.options.db
        .select({ id: links.id, destination: links.destination })
        .from(links)
        .where(or(isNull(links.lastCheckedAt), lt(links.lastCheckedAt, since))),
    );
  }

  /**
   * Checks the rows a few at a time, then stores what was found. When not one destination
   * could be reached, this server itself may be offline: each link still records the check
   * (broken, no answer) but no failure is counted (and with two or more, the run says offline).
   */
  private runOver(pick: () => Promise<{ id: number; destination: string }[]>): Promise<RunSummary> {
    if (this.run) return this.run;
    // One instance at a time checks (db/jobs.ts): each failure is counted once, and the
    // fallback is not switched to early. Another instance's run under way: this one checks none.
    const run = alone(this.options.db, "link-checks", async () => {
      const rows = await pick();
      this.progress = { checked: 0, total: rows.length };
      const found: { row: (typeof rows)[number]; result: CheckResult }[] = [];
      let next = 0;
      const worker = async () => {
        while (next < rows.length) {
          const row = rows[next++]!;
          try {
            found.push({ row, result: await this.fetchRow(row) });
          } catch (error) {
            this.options.logger.error("could not check a link", { error, id: row.id });
          }
          this.progress.checked++;
        }
      };
      await Promise.all(Array.from({ length: Math.min(AT_ONCE, rows.length) }, worker));
      const offline = found.length >= 2 && found.every(({ result }) => result.unreachable === true);
      if (offline) this.options.logger.warn("no link destination could be reached: is this server offline?");
      // Failures count only when this server reached at least one destination in the run.
      const reachedAny = found.some(({ result }) => result.unreachable !== true);
      const now = this.now();
      for (const { row, result } of found) {
        try {
          await recordCheck(this.options.db, row, result, now, reachedAny);
        } catch (error) {
          this.options.logger.error("could not record a link check", { error, id: row.id });
        }
      }
      this.last = { checked: rows.length, offline };
      return this.last;
    }).then((summary) => summary ?? { checked: 0, offline: false });
    this.run = run;
    const done = () => {
      if (this.run === run) this.run = null;
    };
    run.then(done, done);
    return run;
  }

  /**
   * Checks the links not checked within `hours`, soon after the start and then every hour (or
   * every `hours` when shorter). The timer never keeps the process alive.
   */
  schedule(hours: number): void {
    this.stop();
    this.hours = hours;
    const intervalMs = hours * 3_600_000;
    const tick = () => {
      void this.tick(this.now(), intervalMs)
        .then(({ checked }) => {
          if (checked > 0) this.options.logger.info(`checked ${checked} link${checked === 1 ? "" : "s"}`);
        })
        .catch((error) => this.options.logger.error("the scheduled link check failed", { error }));
    };
    const first = setTimeout(tick, 60_000);
    first.unref?.();
    this.timer = setInterval(tick, Math.min(intervalMs, 3_600_000));
    this.timer.unref?.();
    this.firstTimer = first;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.firstTimer) clearTimeout(this.firstTimer);
    this.timer = null;
    this.firstTimer = null;
    this.hours = null;
  }

  /** The hours the scheduled check runs at now; null when it is off. */
  get scheduledHours(): number | null {
    return this.hours;
  }
}
