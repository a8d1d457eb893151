import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import { BEACON_PATH } from "#shared/features/analytics/constants.ts";
import { PREVIEW_PATH } from "#shared/features/blog/constants.ts";
import { EDITOR_PREVIEW_PATH } from "#shared/features/editor/preview.ts";
import { VIDEO_PLAYER_ORIGINS } from "#shared/features/offers/video-url.ts";
import { THEME_SCRIPT } from "#web/theme-script.ts";
import type { AppOptions } from "./app-options.ts";
import { followSettings, requestOrigins, signInThrottles, siteServices, writeBudgets } from "./app-parts.ts";
import { BUILD_DATE } from "./build-info.ts";
import { analyticsAdminRoutes } from "./features/analytics/admin-routes.ts";
import { analyticsRoutes } from "./features/analytics/routes.ts";
import { accountAdminRoutes } from "./features/auth/admin-routes.ts";
import { ADMIN_PREFIX, adminGuard, isUnder, refuseForeign } from "./features/auth/guard.ts";
import { recoveryCodeState } from "./features/auth/recovery-codes.ts";
import { AUTH_PATH, authRoutes, LOGIN_PATH } from "./features/auth/routes.ts";
import { sessionAdmin, sessionTokens } from "./features/auth/session.ts";
import { backupAdminRoutes } from "./features/backups/admin-routes.ts";
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
import { linkRoutes } from "./features/links/routes.ts";
import { mediaAdminRoutes } from "./features/media/admin-routes.ts";
import { uploadRoutes } from "./features/media/routes.ts";
import { bucketStore, keepUploadsIn } from "./features/media/store.ts";
import { UPLOAD_PATH, uploadAdminRoutes } from "./features/media/upload-admin-routes.ts";
import { offerAdminRoutes } from "./features/offers/admin-routes.ts";
import { offerRoutes } from "./features/offers/routes.ts";
import { productAdminRoutes } from "./features/products/admin-routes.ts";
import { quizRoutes } from "./features/quiz/routes.ts";
import { seoRoutes } from "./features/seo/routes.ts";
import { settingsAdminRoutes } from "./features/settings/admin-routes.ts";
import { linkCheckScheduleRoutes } from "./features/settings/link-check-schedule.ts";
import { publicAddressStore } from "./features/settings/public-address.ts";
import { resultRetentionRoutes } from "./features/settings/result-retention.ts";
import { sitePageAdminRoutes } from "./features/site-pages/admin-routes.ts";
import { createReads } from "./lib/reads.ts";
import { timeLimits } from "./lib/time-limits.ts";
import { connections } from "./plugins/connections.ts";
import { errorHandler, HttpError, isApiPath } from "./plugins/errors.ts";
import { hostCheck } from "./plugins/host.ts";
import { cspHash, dropCarriedHeaders, securityHeaderLists, securityHeaders } from "./plugins/security.ts";
import { staticFiles } from "./plugins/static.ts";
import { writeGate } from "./plugins/write-gate.ts";
import { writeLimit } from "./plugins/write-limit.ts";
import { publicReads } from "./public-reads.ts";
import { cachedAnswerHeaders, PageCache } from "./ssr/page-cache.ts";
import { createRenderer } from "./ssr/render.tsx";

// JSON bodies of the API are small; uploads (a later route) set their own limit.
const MAX_BODY_BYTES = 105 * 1024 * 1024;

/** Not counted against a client's write budget: the admin's own paths, signing in and out and the post preview. */
function adminPath(request: Request): boolean {
  // The admin's mounts refuse anyone else before reading a body; signing in and out stores
  // nothing and has its own throttle (a form sign-in refused there goes back to its page
  // instead of a bare JSON answer); the post preview checks the session before reading its
  // body and stores nothing.
  return [ADMIN_PREFIX, UPLOAD_PATH, AUTH_PATH, PREVIEW_PATH].some((prefix) => isUnder(prefix, request.url));
}

/** The password step of signing in: it stores nothing (but, on PostgreSQL, the throttle's count). */
function signingIn(request: Request): boolean {
  return new URL(request.url).pathname === LOGIN_PATH;
}

/**
 * Builds the whole application from its options (app-options.ts). Every feature module is
 * mounted in this one list, as one chain of `.use()`: the routes' paths, bodies and answers
 * add up to the type `App`, which the admin pages' typed client is built from.
 */
export function createApp(options: AppOptions) {
  const { database, secret, uploadsDir, config, assets, logger, storage } = options;
  const hooks = options.testHooks ?? {};
  const clock = hooks.clock ?? (() => new Date());
  const pageCache = options.services?.pageCache ?? new PageCache();
  // S3_BUCKET: uploads are kept in the bucket, and this instance's folder is its cache.
  if (config.uploadBucket) keepUploadsIn(uploadsDir, bucketStore(config.uploadBucket));
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
  const { client, secure, allowedOrigins, untrustedProxy } = requestOrigins(options, address);
  const { linkChecks, linkCheckSchedules, backups, backupDir, resultRetention, analytics } = siteServices(options, {
    address,
    pageCache,
    client,
    clock,
  });
  followSettings(options, { address, schedules: linkCheckSchedules, pageCache });
  const { limiter, beaconLimiter, results } = writeBudgets(options, client);
  const throttles = signInThrottles(options);
  const tokens = sessionTokens(secret);
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
  // Every answer's security headers: set by the plugin below, and carried by cached pages.
  const carried = securityHeaderLists({
    inlineScriptHashes: [cspHash(THEME_SCRIPT)],
    frameSources: VIDEO_PLAYER_ORIGINS,
  });
  const app = new Elysia({
    serve: { reusePort: false, maxRequestBodySize: MAX_BODY_BYTES, development, idleTimeout: limits.idleSeconds },
  });
  return (
    app
      // Around everything: each client's share of the server, body and answer deadlines.
      .use(
        connections({
          client,
          server: (): Server | null => app.server,
          limits,
          logger,
          slots: options.services?.openRequests,
        }),
      )
      .use(hostCheck())
      .use(securityHeaders({ lists: carried, https: secure }))
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
      .use(quizRoutes(database.db, analytics, results("quiz results", "quiz")))
      .use(earningsRoutes(database.db, analytics, results("calculator results", "earnings")))
      .use(offerRoutes(database.db))
      .use(linkRoutes(database.db, analytics))
      .use(analyticsRoutes(database.db, analytics, clock))
      .use(seoRoutes(database.db, { publicBase: address.base, contentDate: BUILD_DATE, now: clock, cache: pageCache }))
      .use(
        authRoutes(database.db, {
          tokens,
          secure,
          allowedOrigins,
          client,
          throttle: throttles.password,
          codeThrottle: throttles.code,
          onSignIn,
        }),
      )
      .use(
        adminMount(ADMIN_PREFIX)
          .use(blogAdminRoutes(database.db))
          .use(offerAdminRoutes(database.db))
          .use(productAdminRoutes(database.db))
          .use(linkAdminRoutes(database.db, linkChecks))
          .use(analyticsAdminRoutes(database.db))
          .use(settingsAdminRoutes(database.db, address))
          .use(accountAdminRoutes(database.db, { tokens, secure, client, throttle: throttles.account }))
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
              proxy: untrustedProxy,
              backupsBesideData: () => backups.besideData(),
              clock: hooks.analyticsClock,
            }),
          )
          .use(backupAdminRoutes(backups, backupDir, logger))
          .use(mediaAdminRoutes(database.db, uploadsDir))
          .use(editorPreviewRoutes())
          .use(sitePageAdminRoutes(database.db)),
      )
      .use(uploadRoutes(uploadsDir, database.db, logger))
      .use(adminMount(UPLOAD_PATH).use(uploadAdminRoutes(uploadsDir, storage, database.db)))
      .use(config.benchEndpoints ? benchRoutes(render) : new Elysia())
      .use(blogPreviewRoutes({ db: database.db, tokens, allowedOrigins, render, now: clock }))
      // Guarded like the admin API, but an editor's own copy changes nothing visitors see: no cache clearing.
      .use(adminGuard(AUTOSAVE_PATH, { db: database.db, tokens, allowedOrigins }).use(autosaveAdminRoutes(database.db)))
      .all("/api/*", () => {
        throw new HttpError(404, "No such API endpoint.");
      })
      .get("/*", async ({ request, path, server, set }) => {
        // GET /api/<unknown> also lands here: Elysia prefers this GET wildcard over .all.
        if (isApiPath(path)) throw new HttpError(404, "No such API endpoint.");
        // A cached page is answered with the security headers already in it, and sent as made.
        const response = await render(request, undefined, secure(request, server) ? carried.secure : carried.plain);
        dropCarriedHeaders(set, response, cachedAnswerHeaders(response));
        // Counted from the answer, cached or not: a page that was shown.
        await analytics.page(request, server, response.status);
        return response;
      })
  );
}

/** Every route of the app with its body and answer types: what the admin client (Eden Treaty) calls. */
export type App = ReturnType<typeof createApp>;
