import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import type { Logger } from "#server/logger.ts";
import type { HealthClass } from "#shared/features/links/contract.ts";
import { links } from "./table.ts";

/** At most this many redirects are followed; one more makes the link broken. */
export const MAX_HOPS = 10;
/** How long one request of a check may take before the destination counts as not answering. */
export const CHECK_TIMEOUT_MS = 10_000;
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
   * most likely has no internet connection (or no working DNS). Such a run records what it
   * found but counts no failure, so no link switches to its fallback because of it.
   */
  offline: boolean;
}

/** Whether a host name or address is (or resolves to) an address only this machine or its network can reach. */
export type PrivateHostTest = (hostname: string) => Promise<boolean>;

export interface CheckOptions {
  timeoutMs?: number;
  maxHops?: number;
  userAgent: string;
  /** Decides which redirect targets are private; the real one asks DNS (tests pass their own). */
  isPrivateHost?: PrivateHostTest;
}

/** The 32-bit value of a dotted IPv4 address, or null when `host` is not one. */
function ipv4Value(host: string): number | null {
  if (isIP(host) !== 4) return null;
  return host.split(".").reduce((value, part) => value * 256 + Number(part), 0);
}

const inRange = (value: number, base: string, bits: number) => {
  const size = 2 ** (32 - bits);
  return Math.floor(value / size) === Math.floor((ipv4Value(base) ?? 0) / size);
};

function isPrivateIpv4(value: number): boolean {
  return (
    inRange(value, "0.0.0.0", 8) || // "this network", the unspecified address included
    inRange(value, "10.0.0.0", 8) ||
    inRange(value, "100.64.0.0", 10) || // carrier-grade NAT
    inRange(value, "127.0.0.0", 8) ||
    inRange(value, "169.254.0.0", 16) || // link-local, cloud metadata services included
    inRange(value, "172.16.0.0", 12) ||
    inRange(value, "192.168.0.0", 16)
  );
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail included), or null. */
function ipv6Groups(host: string): number[] | null {
  if (isIP(host) !== 6) return null;
  let text = host.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const value = ipv4Value(tail[1]!) ?? 0;
    text = `${text.slice(0, -tail[1]!.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = "", rest] = text.split("::");
  const parse = (part: string) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const front = parse(head);
  const back = rest === undefined ? [] : parse(rest);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * True for an IP address only this machine or its network can reach: loopback, private,
 * link-local, unspecified and carrier-grade NAT addresses, IPv4 ones written as IPv6
 * (::ffff:127.0.0.1) included. False for a public address and for anything not an address.
 */
export function isPrivateAddress(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, "");
  const v4 = ipv4Value(host);
  if (v4 !== null) return isPrivateIpv4(v4);
  const groups = ipv6Groups(host);
  if (!groups) return false;
  const [first = 0] = groups;
  const embedded = (groups[6]! * 0x10000 + groups[7]!) >>> 0;
  // ::/96 (:: and ::1 among them), ::ffff:0:0/96 (IPv4-mapped) and 64:ff9b::/96 (NAT64) carry an IPv4 address.
  if (groups.slice(0, 5).every((group) => group === 0) && (groups[5] === 0 || groups[5] === 0xffff))
    return isPrivateIpv4(embedded);
  if (first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0))
    return isPrivateIpv4(embedded);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80; // fc00::/7 unique local, fe80::/10 link-local
}

/**
 * The real test: an address literal is judged as it is; a name is private when any address
 * it resolves to is. A name that does not resolve is not called private: fetching it fails.
 */
export const isPrivateHost: PrivateHostTest = async (hostname) => {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return isPrivateAddress(host);
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.some(({ address }) => isPrivateAddress(address));
  } catch {
    return false;
  }
};

/** The user agent the checker names itself with: what it is, and whose site sends it. */
export function checkerUserAgent(publicOrigin: string | null): string {
  return `cam-guide link checker (+${publicOrigin ?? "self-hosted"})`;
}

const isRedirect = (status: number) => status >= 300 && status < 400;

/**
 * Fetches `url` the way a visitor's browser would reach it: GET (some networks answer HEAD
 * badly), each redirect followed by hand (a relative Location against the address that sent
 * it; only http and https), at most `maxHops` of them, each request with its own timeout. The
 * body is never read. A redirect from a public destination to a host that is (or resolves to) a
 * private, loopback or link-local address is not followed. Networks redirect by design, so a redirect that ends on a page is not an
 * error; 403 and 429 mean the destination refuses robots, not that it is gone.
 */
export async function checkDestination(
  url: string,
  {
    timeoutMs = CHECK_TIMEOUT_MS,
    maxHops = MAX_HOPS,
    userAgent,
    isPrivateHost: isPrivate = isPrivateHost,
  }: CheckOptions,
): Promise<CheckResult> {
  let current = url;
  // A destination on a private address is the operator's choice and may redirect anywhere; a
  // public one is not followed into a private network (that would map it for whoever runs it).
  let privateAllowed: boolean | null = null;
  let status: number | null = null;
  let hops = 0;
  const seen = new Set<string>();
  const broken = (reason: string): CheckResult => ({ healthClass: "broken", status, finalUrl: current, hops, reason });
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
    privateAllowed ??= await isPrivate(address.hostname);

    let response: Response;
    try {
      response = await fetch(address, {
        method: "GET",
        redirect: "manual",
        headers: { "user-agent": userAgent, accept: "text/html,*/*;q=0.8" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      status = null;
      const name = (error as Error).name;
      return {
        ...broken(
          name === "TimeoutError" || name === "AbortError"
            ? `No answer within ${Math.round(timeoutMs / 100) / 10} seconds.`
            : "Could not connect (the name does not resolve, or the server refused the connection).",
        ),
        unreachable: true,
      };
    }
    status = response.status;
    await response.body?.cancel().catch(() => {});

    if (isRedirect(status)) {
      const location = response.headers.get("location");
      if (!location) return broken(`A ${status} redirect without a Location.`);
      let next: string;
      try {
        next = new URL(location, address).href;
      } catch {
        return broken(`A ${status} redirect to an address that is not valid.`);
      }
      if (hops === maxHops) return broken(`More than ${maxHops} redirects.`);
      const target = new URL(next);
      if (
        !privateAllowed &&
        (target.protocol === "http:" || target.protocol === "https:") &&
        (await isPrivate(target.hostname))
      )
        return broken("It redirects into a private network; not followed.");
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
  clock?: () => Date;
  /** Decides which redirect targets are private (default: the DNS-based isPrivateHost). */
  isPrivateHost?: PrivateHostTest;
}

/**
 * Runs the checks: one link, or all of them a few at a time. Only one run over many links is
 * under way at once; asking for another meanwhile waits for that one.
 */
export class LinkChecks {
  private run: Promise<RunSummary> | null = null;
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
      isPrivateHost: this.options.isPrivateHost,
    });
  }

  private async checkRow(link: { id: number; destination: string }): Promise<CheckResult> {
    const result = await this.fetchRow(link);
    await recordCheck(this.options.db, link, result, this.now());
    return result;
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
   * Checks the rows a few at a time, then stores what was found. When two or more were checked
   * and not one destination could be reached, this server itself is most likely offline: each
   * link still records the check (broken, no answer) but no failure is counted.
   */
  private runOver(pick: () => Promise<{ id: number; destination: string }[]>): Promise<RunSummary> {
    if (this.run) return this.run;
    const run = (async () => {
      const rows = await pick();
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
        }
      };
      await Promise.all(Array.from({ length: Math.min(AT_ONCE, rows.length) }, worker));
      const offline = found.length >= 2 && found.every(({ result }) => result.unreachable === true);
      if (offline) this.options.logger.warn("no link destination could be reached: is this server offline?");
      const now = this.now();
      for (const { row, result } of found) {
        try {
          await recordCheck(this.options.db, row, result, now, !offline);
        } catch (error) {
          this.options.logger.error("could not record a link check", { error, id: row.id });
        }
      }
      return { checked: rows.length, offline };
    })();
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
