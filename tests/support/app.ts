import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "#server/app.ts";
import type { AppServices, AppStorage, TestHooks } from "#server/app-options.ts";
import { type DatabaseHandle, databaseImage, openMemoryCopy, openMemoryDatabase } from "#server/db/client.ts";
import { seedDatabase } from "#server/db/seed.ts";
import { DAILY_LIMITS, type DailyLimits } from "#server/lib/daily-quota.ts";
import { StorageHealth } from "#server/lib/storage-health.ts";
import { memoryLogger } from "#server/logger.ts";
import { type AssetStore, loadAssets } from "#server/ssr/assets.ts";
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

/**
 * createApp's options as a test gives them: the configuration as the environment would set
 * it, then what replaces the real storage check, services or clocks (app-options.ts says
 * what each one is).
 */
export interface TestAppOptions {
  /** Load the bundled content (the seed). Default true; tests that build their own rows pass false. */
  seed?: boolean;
  /** Start from a copy of this database image (`databaseImage` of a prepared app) instead; `seed` is then ignored. */
  image?: Uint8Array;
  /** PUBLIC_URL (default: unset). */
  publicUrl?: string | null;
  /** TRUSTED_PROXIES, already split; they matter only on a listening server (app.listen). */
  trustedProxies?: string[];
  /** ANALYTICS: false as with ANALYTICS=off (default true). */
  analytics?: boolean;
  /** Smaller daily limits on anonymous writes than DAILY_LIMITS (the rest as they are). */
  dailyLimits?: Partial<DailyLimits>;
  /** LINK_CHECK_INTERVAL as set on the server (null: set to off); unset by default, and nothing is scheduled. */
  linkCheckInterval?: number | null;
  /** What the app learns about its storage; default: the real check of the disk under the uploads. */
  storage?: AppStorage;
  /** Services the test makes itself, such as a page cache to look at what it holds. */
  services?: AppServices;
  /** Clocks, limiters and the link checker's network (tests/support/link-network.ts) of the test's own. */
  testHooks?: TestHooks;
}

/** The real app on a fresh in-memory database with the real migrations (and the seed unless `seed: false`). */
export function testApp(options: TestAppOptions = {}) {
  const database: DatabaseHandle = options.image
    ? openMemoryCopy(options.image)
    : options.seed === false
      ? openMemoryDatabase()
      : openMemoryCopy(seeded);
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
      dailyLimits: { ...DAILY_LIMITS, ...options.dailyLimits },
      ...(options.linkCheckInterval !== undefined
        ? { linkCheckInterval: options.linkCheckInterval, linkCheckIntervalSet: true }
        : {}),
    },
    assets,
    logger,
    services: options.services,
    testHooks: options.testHooks,
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
