import { Elysia } from "elysia";
import { VIDEO_PLAYER_ORIGINS } from "#shared/features/offers/video-url.ts";
import { THEME_SCRIPT } from "#web/theme-script.ts";
import { BUILD_DATE } from "./build-info.ts";
import type { DatabaseHandle } from "./db/client.ts";
import type { Config } from "./env.ts";
import { ADMIN_PREFIX, adminGuard } from "./features/auth/guard.ts";
import { authRoutes } from "./features/auth/routes.ts";
import { sessionTokens } from "./features/auth/session.ts";
import type { LoginThrottle } from "./features/auth/throttle.ts";
import { benchRoutes } from "./features/bench/routes.ts";
import { blogAdminRoutes } from "./features/blog/admin-routes.ts";
import { earningsRoutes } from "./features/earnings/routes.ts";
import { healthRoutes } from "./features/health/routes.ts";
import { offerAdminRoutes } from "./features/offers/admin-routes.ts";
import { offerRoutes } from "./features/offers/routes.ts";
import { productAdminRoutes } from "./features/products/admin-routes.ts";
import { quizRoutes } from "./features/quiz/routes.ts";
import { seoRoutes } from "./features/seo/routes.ts";
import { settingsAdminRoutes } from "./features/settings/admin-routes.ts";
import { UPLOAD_PATH, uploadAdminRoutes } from "./features/uploads/admin-routes.ts";
import { uploadRoutes } from "./features/uploads/routes.ts";
import { clientResolver } from "./lib/client.ts";
import { createReads } from "./lib/reads.ts";
import type { StorageHealth } from "./lib/storage-health.ts";
import type { Logger } from "./logger.ts";
import { errorHandler, HttpError, isApiPath } from "./plugins/errors.ts";
import { cspHash, securityHeaders } from "./plugins/security.ts";
import { staticFiles } from "./plugins/static.ts";
import { writeGate } from "./plugins/write-gate.ts";
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
  storage: Pick<StorageHealth, "check" | "recheck" | "roomFor">;
  /** Tests pass their own to control the clock. */
  loginThrottle?: LoginThrottle;
  config: Pick<Config, "publicUrl"> & Partial<Pick<Config, "benchEndpoints" | "trustedProxies">>;
  assets: AssetStore;
  logger: Logger;
}

// JSON bodies of the API are small; uploads (a later route) set their own limit.
export const MAX_BODY_BYTES = 105 * 1024 * 1024;

/** Builds the whole application. Every feature module is mounted in this one list. */
export function createApp({ database, secret, uploadsDir, storage, config, assets, logger, loginThrottle }: AppDeps) {
  const contact = config.publicUrl ?? "this website";
  // Links in feeds, the sitemap and canonical tags use PUBLIC_URL when it is set.
  const origin = (request: Request) => config.publicUrl ?? new URL(request.url).origin;
  const reads = createReads(publicReads, { db: database.db, contact });
  const pageCache = new PageCache();
  const render = createRenderer({ assets, resolveRead: reads.resolve, logger, origin, cache: pageCache });
  // State-changing admin calls must come from this site: its public origin or the one reached.
  const allowedOrigins = (request: Request) => [
    ...new Set([new URL(request.url).origin, ...(config.publicUrl ? [new URL(config.publicUrl).origin] : [])]),
  ];
  const secure = (request: Request) => (config.publicUrl ?? request.url).startsWith("https:");
  const tokens = sessionTokens(secret);
  // Which address a request comes from, and whether over HTTPS (trusted proxies only).
  const client = clientResolver(config.trustedProxies ?? []);
  // Everything used inside an admin mount is guarded by its prefix. Whatever the admin
  // changes may show on any cached page, so every admin write empties the page cache.
  const adminMount = (prefix: string) =>
    adminGuard(prefix, { db: database.db, tokens, allowedOrigins }).onAfterHandle(({ request }) => {
      if (request.method !== "GET") pageCache.clear();
    });

  return new Elysia({ serve: { reusePort: false, maxRequestBodySize: MAX_BODY_BYTES } })
    .use(securityHeaders({ inlineScriptHashes: [cspHash(THEME_SCRIPT)], frameSources: VIDEO_PLAYER_ORIGINS }))
    .use(errorHandler({ logger, renderErrorPage: (request, status) => render(request, status), storage }))
    .use(writeGate(storage))
    .use(staticFiles(assets))
    .use(healthRoutes(database, storage))
    .use(reads.routes)
    .use(quizRoutes(database.db))
    .use(earningsRoutes(database.db))
    .use(offerRoutes(database.db))
    .use(seoRoutes(database.db, { origin, contentDate: BUILD_DATE }))
    .use(authRoutes(database.db, { tokens, secure, allowedOrigins, client, throttle: loginThrottle }))
    .use(
      adminMount(ADMIN_PREFIX)
        .use(blogAdminRoutes(database.db))
        .use(offerAdminRoutes(database.db))
        .use(productAdminRoutes(database.db))
        .use(settingsAdminRoutes(database.db)),
    )
    .use(uploadRoutes(uploadsDir))
    .use(adminMount(UPLOAD_PATH).use(uploadAdminRoutes(uploadsDir, storage)))
    .use(config.benchEndpoints ? benchRoutes(render) : new Elysia())
    .all("/api/*", () => {
      throw new HttpError(404, "No such API endpoint.");
    })
    .get("/*", ({ request, path }) => {
      // GET /api/<unknown> also lands here: Elysia prefers this GET wildcard over .all.
      if (isApiPath(path)) throw new HttpError(404, "No such API endpoint.");
      return render(request);
    });
}
