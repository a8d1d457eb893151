// The parts createApp wires together, each made by one named function from the app's options:
// who a request comes from, the work that runs beside requests, and the budgets of anonymous
// writes. createApp itself keeps the one list of what is mounted.
import { dirname, join } from "node:path";
import type { Server } from "elysia/universal";
import type { AppOptions } from "./app-options.ts";
import { dialect } from "./db/dialect.ts";
import { DEFAULT_WRITE_LIMIT, type WriteLimit } from "./env.ts";
import { createAnalytics } from "./features/analytics/counting.ts";
import { LoginThrottle, type SignInThrottle } from "./features/auth/throttle.ts";
import { Backups } from "./features/backups/service.ts";
import { SharedDailyQuota, SharedLoginThrottle, SharedWriteLimiter } from "./features/limits/shared.ts";
import { checkerUserAgent, LinkChecks } from "./features/links/health.ts";
import { forgetDeletedLocally } from "./features/media/registry.ts";
import { LinkCheckSchedules } from "./features/settings/link-check-schedule.ts";
import type { publicAddressStore } from "./features/settings/public-address.ts";
import { ResultRetentionPolicy } from "./features/settings/result-retention.ts";
import { type ClientOf, clientResolver, untrustedProxyWatch } from "./lib/client.ts";
import { DAILY_LIMITS, MemoryDailyQuota, sharesOf } from "./lib/daily-quota.ts";
import { resultLimit } from "./lib/result-limit.ts";
import { type WriteBudget, WriteLimiter } from "./plugins/write-limit.ts";
import type { PageCache } from "./ssr/page-cache.ts";

/** Visit-count beacons per client: a browser sends one per page opened in place, offer shown or lesson read. */
const BEACON_LIMIT: WriteLimit = { count: 120, windowSeconds: 60 };

type PublicAddress = ReturnType<typeof publicAddressStore>;

/** Several instances share this process's database (PostgreSQL): so must their limits. */
const shared = dialect === "postgresql";

/**
 * Which address a request comes from, whether over HTTPS, which origins may change anything,
 * and the proxy TRUSTED_PROXIES should name when requests came through one it does not.
 */
export function requestOrigins({ config, logger }: AppOptions, address: PublicAddress) {
  // Which address a request comes from, and whether over HTTPS (trusted proxies only).
  const proxyWatch = untrustedProxyWatch((message) => logger.warn(message));
  const client = clientResolver(config.trustedProxies ?? [], { warn: proxyWatch.warn });
  // Served over HTTPS: said by a trusted proxy, or else by PUBLIC_URL (or the connection).
  const secure = (request: Request, server: Server | null) => {
    const seen = client(request, server);
    return seen.schemeForwarded ? seen.https : seen.https || (config.publicUrl ?? "").startsWith("https:");
  };
  // State-changing admin calls must come from this site: its public origin or the one reached
  // (its scheme as a trusted proxy says; a client's own X-Forwarded-Proto is not believed).
  const allowedOrigins = (request: Request, server: Server | null) => {
    const reached = `${client(request, server).https ? "https:" : "http:"}//${new URL(request.url).host}`;
    const confirmed = address.known();
    return [
      ...new Set([
        reached,
        ...(config.publicUrl ? [new URL(config.publicUrl).origin] : []),
        ...(confirmed ? [confirmed] : []),
      ]),
    ];
  };
  return { client, secure, allowedOrigins, untrustedProxy: proxyWatch.seen };
}

interface ServiceInputs {
  address: PublicAddress;
  pageCache: PageCache;
  client: ClientOf;
  clock: () => Date;
}

/**
 * The work that runs beside requests: link checks and their schedule, automatic backups, the
 * deletion of expired results and visit counting. The server's own ones are used when it
 * passes them; the rest are made (and started) here.
 */
export function siteServices(options: AppOptions, { address, pageCache, client, clock }: ServiceInputs) {
  const { database, config, logger, storage, uploadsDir } = options;
  const given = options.services ?? {};
  const hooks = options.testHooks ?? {};
  // Link health: the admin's "check now", and the scheduled check: LINK_CHECK_INTERVAL when
  // set, else the schedule chosen in Settings (applied at once when saved), else the default.
  const linkChecks = new LinkChecks({
    db: database.db,
    userAgent: async () => checkerUserAgent(await address.base().catch(() => null)),
    logger,
    network: hooks.linkNetwork,
  });
  const linkCheckSchedules = new LinkCheckSchedules({
    db: database.db,
    timer: linkChecks,
    environment: config.linkCheckIntervalSet ? (config.linkCheckInterval ?? null) : undefined,
    fallback: config.linkCheckInterval ?? null,
  });
  void linkCheckSchedules
    .load()
    .catch((error) => logger.error("could not read the link-check schedule from the settings", { error }));
  // Automatic backups and "Back up now", each run in a child process (docs/product.md#automatic-backups).
  const backupDir = config.backupDir ?? join(dirname(uploadsDir), "backups");
  const backups =
    given.backups ??
    new Backups({
      db: database.db,
      dataDir: dirname(uploadsDir),
      backupDir,
      env: { cron: config.backupCron ?? null, keep: config.backupKeep ?? null },
      logger,
    });
  if (!given.backups) void backups.start().catch((error) => logger.error("could not start backups", { error }));
  // Saved results older than the retention in Settings are deleted in small batches
  // (docs/product.md#keeping-results); the pages of deleted ones leave the render cache.
  const resultRetention =
    given.resultRetention ??
    new ResultRetentionPolicy({
      db: database.db,
      logger,
      now: clock,
      writable: () => storage.check().ok,
      onDeleted: () => pageCache.forgetVisitorPages(),
    });
  // First-party counting (docs/product.md#analytics); ANALYTICS=off turns it off.
  const analytics =
    given.analytics ??
    createAnalytics({
      db: database.db,
      client,
      enabled: config.analytics ?? true,
      logger,
      now: hooks.analyticsClock,
      limits: config.dailyLimits ?? DAILY_LIMITS,
      storage,
    });
  return { linkChecks, linkCheckSchedules, backups, backupDir, resultRetention, analytics };
}

/**
 * The budgets of anonymous writes: each client's share of writes (config.writeLimit), the
 * visit-count beacon's own, and saved results a day per network and for everyone
 * (docs/security.md, "Anonymous writes").
 */
export function writeBudgets({ config, logger, database, testHooks: hooks = {} }: AppOptions, client: ClientOf) {
  const { db } = database;
  const writeLimit = config.writeLimit === undefined ? DEFAULT_WRITE_LIMIT : config.writeLimit;
  // Several instances on one PostgreSQL database share every budget there; one server keeps them in memory.
  const budget = (limit: WriteLimit, scope: string): WriteBudget =>
    shared ? new SharedWriteLimiter(db, limit, scope) : new WriteLimiter(limit);
  const limiter = hooks.writeLimiter !== undefined ? hooks.writeLimiter : writeLimit && budget(writeLimit, "write");
  // The visit-count beacon has a budget of its own (a browser sends one per page it opens in
  // place, offer it shows, lesson read): off when the write limit is off.
  const beaconLimiter =
    hooks.beaconLimiter !== undefined ? hooks.beaconLimiter : limiter && budget(BEACON_LIMIT, "beacon");
  const dailyLimits = config.dailyLimits ?? DAILY_LIMITS;
  const resultShare = sharesOf(dailyLimits).results;
  const results = (what: string, kind: string) =>
    resultLimit({
      what,
      share: resultShare,
      quota: shared
        ? new SharedDailyQuota(db, resultShare, `results:${kind}`)
        : new MemoryDailyQuota(resultShare, dailyLimits.maxClients),
      client,
      logger,
      now: hooks.analyticsClock,
    });
  return { limiter, beaconLimiter, results };
}

/**
 * The throttles on guessing: the password at sign-in, the second step's code, and the password
 * or code the account page asks again before a change. In the database when several instances
 * share it (a guess on one counts on all), else in memory.
 */
export function signInThrottles({ database, testHooks: hooks = {} }: AppOptions) {
  const throttle = (scope: string): SignInThrottle =>
    shared ? new SharedLoginThrottle(database.db, scope) : new LoginThrottle();
  return {
    password: hooks.loginThrottle ?? throttle("sign-in"),
    code: throttle("second-factor"),
    account: throttle("account"),
  };
}

/**
 * Several instances on one database: a change to the settings made through another instance
 * (or a command) reaches what this one keeps of them, the public address and the link-check
 * schedule, and an upload deleted there leaves this one's folder, when it is told (and after a
 * reconnection, when a notice may have been missed).
 */
export function followSettings(
  { services, logger, database, uploadsDir }: AppOptions,
  { address, schedules, pageCache }: { address: PublicAddress; schedules: LinkCheckSchedules; pageCache: PageCache },
): void {
  const changes = services?.changes;
  if (!changes) return;
  // Uploads kept in a bucket: one deleted through another instance leaves this one's folder too.
  const media = () => {
    void forgetDeletedLocally(database.db, uploadsDir).catch((error) =>
      logger.error("could not remove deleted uploads from this instance's folder", { error }),
    );
  };
  const reread = () => {
    void Promise.all([address.reload(), schedules.load()])
      // A page rendered while the address was read again may hold the old one.
      .then(() => pageCache.clear())
      .catch((error) => logger.error("could not read the changed settings", { error }));
  };
  void changes
    .listen(
      ({ table }) => {
        if (table === "site_settings") reread();
        if (table === "media") media();
      },
      () => {
        reread();
        media();
      },
    )
    .catch((error) => logger.error("could not follow the settings' changes", { error }));
}
