import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type AppDeps, createApp } from "#server/app.ts";
import { type DatabaseHandle, databaseImage, openMemoryCopy, openMemoryDatabase } from "#server/db/client.ts";
import { seedDatabase } from "#server/db/seed.ts";
import type { LoginThrottle } from "#server/features/auth/throttle.ts";
import { DAILY_LIMITS, type DailyLimits } from "#server/lib/daily-quota.ts";
import { StorageHealth } from "#server/lib/storage-health.ts";
import { memoryLogger } from "#server/logger.ts";
import type { WriteLimiter } from "#server/plugins/write-limit.ts";
import { type AssetStore, loadAssets } from "#server/ssr/assets.ts";
import type { PageCache } from "#server/ssr/page-cache.ts";
import { createSettings } from "./factories.ts";
import { scratchDir } from "./scratch.ts";

let assets: AssetStore | undefined;
export const TEST_SECRET = "test-secret-test-secret-test-secret-0123";

// Seeding is asynchronous, and an app is wanted at once: the seed runs once into a template,
// and every test app opens its own copy of it.
const seeded = await (async () => {
  const template = openMemoryDatabase();
  await seedDatabase(template);
  const image = databaseImage(template);
  template.close();
  return image;
})();

export interface TestAppOptions {
  /** Load the bundled content (the seed). Default true; tests that build their own rows pass false. */
  seed?: boolean;
  loginThrottle?: LoginThrottle;
  publicUrl?: string | null;
  /** TRUSTED_PROXIES, already split; they matter only on a listening server (app.listen). */
  trustedProxies?: string[];
  /** A limiter with its own clock and limit, or null for none; default: the default limit. */
  writeLimiter?: WriteLimiter | null;
  /** The visit-count beacon's own limiter (default: its default limit). */
  beaconLimiter?: WriteLimiter | null;
  /** To look at what the render cache holds. */
  pageCache?: PageCache;
  /** ANALYTICS: false as with ANALYTICS=off (default true). */
  analytics?: boolean;
  /** The clock counting uses (default: the real one). */
  analyticsClock?: () => Date;
  /** Smaller daily limits on anonymous writes than DAILY_LIMITS (the rest as they are). */
  dailyLimits?: Partial<DailyLimits>;
  /** The clock that decides which posts are public (scheduled posts); default: the real one. */
  clock?: () => Date;
  /** What the app learns about its storage; default: the real check of the disk under the uploads. */
  storage?: AppDeps["storage"];
  /** LINK_CHECK_INTERVAL as set on the server (null: set to off); unset by default, and nothing is scheduled. */
  linkCheckInterval?: number | null;
  /** The link checker's network (tests/support/link-network.ts); default: the public internet only. */
  linkNetwork?: AppDeps["linkNetwork"];
}

/** The real app on a fresh in-memory database with the real migrations (and the seed unless `seed: false`). */
export function testApp(options: TestAppOptions = {}) {
  const database: DatabaseHandle = options.seed === false ? openMemoryDatabase() : openMemoryCopy(seeded);
  assets ??= loadAssets();
  const logger = memoryLogger();
  // As in DATA_DIR: the uploads in a folder of their own, beside the rest of the data.
  const dataDir = scratchDir("data");
  const uploadsDir = join(dataDir, "uploads");
  mkdirSync(uploadsDir);
  const app = createApp({
    database,
    secret: TEST_SECRET,
    uploadsDir,
    // An in-memory database: only the disk under the data folder is watched.
    storage: options.storage ?? new StorageHealth({ dir: dataDir, databaseFile: null, logger }),
    config: {
      publicUrl: options.publicUrl ?? null,
      trustedProxies: options.trustedProxies ?? [],
      analytics: options.analytics ?? true,
      ...(options.linkCheckInterval !== undefined
        ? { linkCheckInterval: options.linkCheckInterval, linkCheckIntervalSet: true }
        : {}),
    },
    analyticsClock: options.analyticsClock,
    dailyLimits: { ...DAILY_LIMITS, ...options.dailyLimits },
    clock: options.clock,
    assets,
    logger,
    loginThrottle: options.loginThrottle,
    writeLimiter: options.writeLimiter,
    beaconLimiter: options.beaconLimiter,
    pageCache: options.pageCache,
    linkNetwork: options.linkNetwork,
  });
  const request = (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init));
  return { app, database, db: database.db, sqlite: database.sqlite, logger, request, uploadsDir };
}

export type TestApp = ReturnType<typeof testApp>;

/** An app on a database holding only the settings row, which every page reads for the brand. */
export async function siteApp(
  options: Omit<TestAppOptions, "seed"> & { settings?: Parameters<typeof createSettings>[1] } = {},
) {
  const t = testApp({ ...options, seed: false });
  await createSettings(t.db, options.settings);
  return t;
}
