import { dirname, join } from "node:path";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import { BEACON_PATH } from "#shared/features/analytics/constants.ts";
import { EDITOR_PREVIEW_PATH } from "#shared/features/editor/preview.ts";
import { VIDEO_PLAYER_ORIGINS } from "#shared/features/offers/video-url.ts";
import { THEME_SCRIPT } from "#web/theme-script.ts";
import { BUILD_DATE } from "./build-info.ts";
import type { DatabaseHandle } from "./db/client.ts";
import { type Config, DEFAULT_WRITE_LIMIT, type WriteLimit } from "./env.ts";

/** Visit-count beacons per client: a browser sends one per page opened in place, offer shown or lesson read. */
const BEACON_LIMIT: WriteLimit = { count: 120, windowSeconds: 60 };

import { PREVIEW_PATH } from "#shared/features/blog/constants.ts";
import { analyticsAdminRoutes } from "./features/analytics/admin-routes.ts";
import { type Analytics, createAnalytics } from "./features/analytics/counting.ts";
import { analyticsRoutes } from "./features/analytics/routes.ts";
import { accountAdminRoutes } from "./features/auth/admin-routes.ts";
import { ADMIN_PREFIX, adminGuard, isUnder, refuseForeign } from "./features/auth/guard.ts";
import { recoveryCodeState } from "./features/auth/recovery-codes.ts";
import { AUTH_PATH, authRoutes, LOGIN_PATH } from "./features/auth/routes.ts";
import { sessionAdmin, sessionTokens } from "./features/auth/session.ts";
import type { LoginThrottle } from "./features/auth/throttle.ts";
import { backupAdminRoutes } from "./features/backups/admin-routes.ts";
import { Backups } from "./features/backups/service.ts";
import { benchRoutes } from "./features/bench/routes.ts";
import { blogAdminRoutes } from "./features/blog/admin-routes.ts";
import { blogPreviewRoutes } from "./features/blog/preview-routes.ts";
import { nextPublishAt } from "./features/blog/service.ts";
import { earningsRoutes } from "./features/earnings/routes.ts";
import { AUTOSAVE_PATH, autosaveAdminRoutes } from "./features/editor/admin-routes.ts";
import { editorPreviewRoutes } from "./features/editor/preview-routes.ts";
import { healthRoutes } from "./features/health/routes.ts";
import { homeAdminRoutes } from "./features/home/admin-routes.ts";
import { linkAdminRoutes } from "./features/links/admin-routes.ts";
import { checkerUserAgent, LinkChecks } from "./features/links/health.ts";
import type { CheckerNetwork } from "./features/links/network.ts";
import { linkRoutes } from "./features/links/routes.ts";
import { mediaAdminRoutes } from "./features/media/admin-routes.ts";
import { offerAdminRoutes } from "./features/offers/admin-routes.ts";
import { offerRoutes } from "./features/offers/routes.ts";
import { productAdminRoutes } from "./features/products/admin-routes.ts";
import { quizRoutes } from "./features/quiz/routes.ts";
import { seoRoutes } from "./features/seo/routes.ts";
import { settingsAdminRoutes } from "./features/settings/admin-routes.ts";
import { LinkCheckSchedules, linkCheckScheduleRoutes } from "./features/settings/link-check-schedule.ts";
import { publicAddressStore } from "./features/settings/public-address.ts";
import { ResultRetentionPolicy, resultRetentionRoutes } from "./features/settings/result-retention.ts";
import { sitePageAdminRoutes } from "./features/site-pages/admin-routes.ts";
import { UPLOAD_PATH, uploadAdminRoutes } from "./features/uploads/admin-routes.ts";
import { uploadRoutes } from "./features/uploads/routes.ts";
import { clientResolver } from "./lib/client.ts";
import { DAILY_LIMITS, type DailyLimits, MemoryDailyQuota, sharesOf } from "./lib/daily-quota.ts";
import { createReads } from "./lib/reads.ts";
import { resultLimit } from "./lib/result-limit.ts";
import type { StorageHealth } from "./lib/storage-health.ts";
import { timeLimits } from "./lib/time-limits.ts";
import type { Logger } from "./logger.ts";
import { connections } from "./plugins/connections.ts";
import { errorHandler, HttpError, isApiPath } from "./plugins/errors.ts";
import { hostCheck } from "./plugins/host.ts";
import { cspHash, securityHeaders } from "./plugins/security.ts";
import { staticFiles } from "./plugins/static.ts";
import { writeGate } from "./plugins/write-gate.ts";
import { WriteLimiter, writeLimit } from "./plugins/write-limit.ts";
import { publicReads } from "./public-reads.ts";
import type { AssetStore } from "./ssr/assets.ts";
import { PageCache } from "./ssr/page-cache.ts";
import { createRenderer } from "./ssr/render.tsx";

export interface AppDeps {
  database: DatabaseHandle;
  /** Signs admin sessions (JWT_SECRET or the generated one in DATA_DIR). */
  secret: string;
  /** Where uploads are stored: DATA_DIR/uploads. */
  uploadsDir: string;
  /** Whether writes can be kept (database file in place, room on the disk): /healthz and the write gate. */
  storage: Pick<StorageHealth, "check" | "recheck" | "roomFor"> & Partial<Pick<StorageHealth, "descriptorProblem">>;
  /** Tests pass their own to control the clock. */
  loginThrottle?: LoginThrottle;
  /** Tests pass their own (a clock, a small limit) or null; otherwise made from config.writeLimit. */
  writeLimiter?: WriteLimiter | null;
  /** The beacon's own budget: tests pass theirs; otherwise BEACON_LIMIT (none when the write limit is off). */
  beaconLimiter?: WriteLimiter | null;
  /** Tests pass their own to look at what it holds. */
  pageCache?: PageCache;
  config: Pick<Config, "publicUrl"> &
    Partial<
      Pick<
        Config,
        | "benchEndpoints"
        | "trustedProxies"
        | "development"
        | "writeLimit"
        | "linkCheckInterval"
        | "analytics"
        | "linkCheckIntervalSet"
        | "backupCron"
        | "backupKeep"
        | "backupDir"
        | "idleTimeout"
      >
    >;
  /** Tests pass their own clock for counting. */
  analyticsClock?: () => Date;
  /** The daily limits on rows anonymous requests add (tests pass small ones; the server, config.dailyLimits). */
  dailyLimits?: DailyLimits;
  /** The time that decides which posts are public (a scheduled post appears at its date); tests pass their own. */
  clock?: () => Date;
  /** The server passes counting that writes in batches (it flushes them on shutdown); else each request writes its own. */
  analytics?: Analytics;
  assets: AssetStore;
  logger: Logger;
  /** The server passes its automatic backups (started, stopped on shutdown); else one is made from config. */
  backups?: Backups;
  /**
   * Where the link checker resolves names and which addresses it may connect to. Default: the
   * public internet only. Tests pass their own to reach servers they start on loopback.
   */
  linkNetwork?: CheckerNetwork;
  /** The server passes the deletion of expired results it runs hourly; else one that runs only when Settings change. */
  resultRetention?: ResultRetentionPolicy;
}

// JSON bodies of the API are small; uploads (a later route) set their own limit.
const MAX_BODY_BYTES = 105 * 1024 * 1024;

/**
 * Builds the whole application. Every feature module is mounted in this one list, as one
 * chain of `.use()`: the routes' paths, bodies and answers add up to the type `App`, which
 * the admin pages' typed client is built from.
 */
export function createApp({
  database,
  secret,
  uploadsDir,
  config,
  assets,
  logger,
  loginThrottle,
  writeLimiter,
  beaconLimiter: givenBeaconLimiter,
  storage,
  pageCache = new PageCache(),
  analyticsClock,
  dailyLimits = DAILY_LIMITS,
  analytics: givenAnalytics,
  clock = () => new Date(),
  backups: givenBackups,
  linkNetwork,
  resultRetention: givenRetention,
}: AppDeps) {
  // Absolute links (canonical, feeds, the sitemap) start with the site's public address:
  // PUBLIC_URL, else the one stored in the settings, else none. Never a request's Host.
  const address = publicAddressStore(database.db, config.publicUrl);
  void address.base().catch(() => {});
  const contact = async () => (await address.base()) ?? "this website";
  const reads = createReads(publicReads, { db: database.db, contact, now: clock });
  // A cached page rendered before the next scheduled post's date is not served after it.
  pageCache.expireAt({ now: clock, next: (now) => nextPublishAt(database.db, now) });
  const render = createRenderer({
    assets,
    resolveRead: reads.resolve,
    logger,
    publicBase: address.base,
    cache: pageCache,
  });
  // The admin's first sign-in tells where the site is reached (until the admin confirms an
  // address); not while data cannot be kept, so signing in never needs a write.
  const onSignIn = async (request: Request) => {
    if (!storage.check().ok) return;
    try {
      if (await address.recordSignIn(request.headers.get("origin"))) pageCache.clear();
    } catch (error) {
      logger.error("could not record the public address", { error });
    }
  };
  // Link health: the admin's "check now", and the scheduled check: LINK_CHECK_INTERVAL when
  // set, else the schedule chosen in Settings (applied at once when saved), else the default.
  const linkChecks = new LinkChecks({
    db: database.db,
    userAgent: async () => checkerUserAgent(await address.base().catch(() => null)),
    logger,
    network: linkNetwork,
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
    givenBackups ??
    new Backups({
      db: database.db,
      dataDir: dirname(uploadsDir),
      backupDir,
      env: { cron: config.backupCron ?? null, keep: config.backupKeep ?? null },
      logger,
    });
  if (!givenBackups) void backups.start().catch((error) => logger.error("could not start backups", { error }));
  // Saved results older than the retention in Settings are deleted in small batches
  // (docs/product.md#keeping-results); the pages of deleted ones leave the render cache.
  const resultRetention =
    givenRetention ??
    new ResultRetentionPolicy({
      db: database.db,
      logger,
      now: clock,
      writable: () => storage.check().ok,
      onDeleted: () => pageCache.forgetVisitorPages(),
    });
  const tokens = sessionTokens(secret);
  // Which address a request comes from, and whether over HTTPS (trusted proxies only).
  const client = clientResolver(config.trustedProxies ?? [], { warn: (message) => logger.warn(message) });
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
  // First-party counting (docs/product.md#analytics); ANALYTICS=off turns it off.
  const analytics =
    givenAnalytics ??
    createAnalytics({
      db: database.db,
      client,
      enabled: config.analytics ?? true,
      logger,
      now: analyticsClock,
      limits: dailyLimits,
      storage,
    });
  // Saved results a day, per network and for everyone (docs/security.md, "Anonymous writes").
  const resultShare = sharesOf(dailyLimits).results;
  const results = (what: string) =>
    resultLimit({
      what,
      share: resultShare,
      quota: new MemoryDailyQuota(resultShare, dailyLimits.maxClients),
      client,
      logger,
      now: analyticsClock,
    });
  const writeLimitConfig = config.writeLimit === undefined ? DEFAULT_WRITE_LIMIT : config.writeLimit;
  const limiter = writeLimiter !== undefined ? writeLimiter : writeLimitConfig && new WriteLimiter(writeLimitConfig);
  // The visit-count beacon has a budget of its own (a browser sends one per page it opens in
  // place, offer it shows, lesson read): off when the write limit is off.
  const beaconLimiter =
    givenBeaconLimiter !== undefined ? givenBeaconLimiter : limiter && new WriteLimiter(BEACON_LIMIT);
  // Not counted: the admin's own mounts (they refuse anyone else before reading a body) and
  // signing in and out, which store nothing and have their own throttle; a form sign-in
  // refused there goes back to its page instead of a bare JSON answer. The post preview
  // checks the session before reading its body and stores nothing.
  const adminPath = (request: Request) =>
    [ADMIN_PREFIX, UPLOAD_PATH, AUTH_PATH, PREVIEW_PATH].some((prefix) => isUnder(prefix, request.url));
  // The password step of signing in: it stores nothing (the throttle is in memory).
  const signingIn = (request: Request) => new URL(request.url).pathname === LOGIN_PATH;
  // Everything used inside an admin mount is guarded by its prefix. Whatever the admin
  // changes may show on any cached page, so every admin write empties the page cache.
  const adminMount = <const Prefix extends string>(prefix: Prefix) =>
    adminGuard(prefix, { db: database.db, tokens, allowedOrigins }).onAfterHandle(({ request }) => {
      // The editor's preview changes nothing.
      if (request.method !== "GET" && !isUnder(EDITOR_PREVIEW_PATH, request.url)) pageCache.clear();
    });

  // Bun's developer error page (a stack and the working directory) only when asked for.
  const development = config.development ?? false;
  // Bun's idle timeout, and the deadlines for bodies and answers that follow from it.
  const limits = timeLimits(config.idleTimeout);
  const app = new Elysia({
    serve: { reusePort: false, maxRequestBodySize: MAX_BODY_BYTES, development, idleTimeout: limits.idleSeconds },
  });
  return (
    app
      // Around everything: each client's share of the server, body and answer deadlines.
      .use(connections({ client, server: (): Server | null => app.server, limits, logger }))
      .use(hostCheck())
      .use(
        securityHeaders({
          inlineScriptHashes: [cspHash(THEME_SCRIPT)],
          frameSources: VIDEO_PLAYER_ORIGINS,
          https: secure,
        }),
      )
      .use(errorHandler({ logger, renderErrorPage: (request, status) => render(request, status), storage }))
      // Writes the server cannot keep are refused first, so they use up no client's budget.
      // Signing in with the password stores nothing, and the admin's own writes keep a share
      // of the reserve: the admin can sign in and act on a disk the site filled.
      .use(writeGate(storage, { storesNothing: signingIn, admin: adminPath }))
      .use(
        writeLimit({
          limiter,
          client,
          exempt: adminPath,
          refuseForeign: (request, server) => refuseForeign(request, allowedOrigins(request, server)),
          logger,
          separate: { matches: (request) => new URL(request.url).pathname === BEACON_PATH, limiter: beaconLimiter },
        }),
      )
      .use(staticFiles(assets))
      .use(healthRoutes(database, storage, backups))
      .use(reads.routes)
      .use(quizRoutes(database.db, analytics, results("quiz results")))
      .use(earningsRoutes(database.db, analytics, results("calculator results")))
      .use(offerRoutes(database.db))
      .use(linkRoutes(database.db, analytics))
      .use(analyticsRoutes(database.db, analytics, clock))
      .use(seoRoutes(database.db, { publicBase: address.base, contentDate: BUILD_DATE, now: clock }))
      .use(authRoutes(database.db, { tokens, secure, allowedOrigins, client, throttle: loginThrottle, onSignIn }))
      .use(
        adminMount(ADMIN_PREFIX)
          .use(blogAdminRoutes(database.db))
          .use(offerAdminRoutes(database.db))
          .use(productAdminRoutes(database.db))
          .use(linkAdminRoutes(database.db, linkChecks))
          .use(analyticsAdminRoutes(database.db))
          .use(settingsAdminRoutes(database.db, address))
          .use(accountAdminRoutes(database.db, { tokens, secure, client }))
          .use(linkCheckScheduleRoutes(linkCheckSchedules))
          .use(resultRetentionRoutes(resultRetention))
          .use(
            homeAdminRoutes(database.db, {
              analytics: config.analytics ?? true,
              schedule: () => linkCheckSchedules.describe(),
              address: () => address.describe(),
              recoveryCodes: async (request) => {
                const admin = await sessionAdmin(database.db, tokens, request);
                return admin && recoveryCodeState(database.db, admin.id);
              },
              clock: analyticsClock,
            }),
          )
          .use(backupAdminRoutes(backups, backupDir, logger))
          .use(mediaAdminRoutes(database.db, uploadsDir))
          .use(editorPreviewRoutes())
          .use(sitePageAdminRoutes(database.db)),
      )
      .use(uploadRoutes(uploadsDir, logger))
      .use(adminMount(UPLOAD_PATH).use(uploadAdminRoutes(uploadsDir, storage, database.db)))
      .use(config.benchEndpoints ? benchRoutes(render) : new Elysia())
      .use(blogPreviewRoutes({ db: database.db, tokens, allowedOrigins, render, now: clock }))
      // Guarded like the admin API, but an editor's own copy changes nothing visitors see: no cache clearing.
      .use(adminGuard(AUTOSAVE_PATH, { db: database.db, tokens, allowedOrigins }).use(autosaveAdminRoutes(database.db)))
      .all("/api/*", () => {
        throw new HttpError(404, "No such API endpoint.");
      })
      .get("/*", async ({ request, path, server }) => {
        // GET /api/<unknown> also lands here: Elysia prefers this GET wildcard over .all.
        if (isApiPath(path)) throw new HttpError(404, "No such API endpoint.");
        const response = await render(request);
        // Counted from the answer, cached or not: a page that was shown.
        await analytics.page(request, server, response.status);
        return response;
      })
  );
}

/** Every route of the app with its body and answer types: what the admin client (Eden Treaty) calls. */
export type App = ReturnType<typeof createApp>;
