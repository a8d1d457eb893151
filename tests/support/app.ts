import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "#server/app.ts";
import type { AppServices, AppStorage, TestHooks } from "#server/app-options.ts";
import { openMemoryCopy, openMemoryDatabase } from "#server/db/client.ts";
import { dialect } from "#server/db/dialect.ts";
import type { BucketConfig } from "#server/features/media/store.ts";
import { DAILY_LIMITS, type DailyLimits } from "#server/lib/daily-quota.ts";
import { StorageHealth } from "#server/lib/storage-health.ts";
import { memoryLogger } from "#server/logger.ts";
import { type AssetStore, loadAssets } from "#server/ssr/assets.ts";
import { openTestDatabase, seededSqlite, sqliteTestDatabase, type TestDatabase } from "./database.ts";
import { createSettings } from "./factories.ts";
import { scratchDir } from "./scratch.ts";

let assets: AssetStore | undefined;
export const TEST_SECRET = "test-secret-test-secret-test-secret-0123";

// Seeding is asynchronous, and an app is wanted at once: the seed runs once into a template,
// and every test app opens its own copy of it. (On PostgreSQL, apps come from newTestApp(),
// whose databases copy a seeded template of their own: tests/support/database.ts.)
const seeded = dialect === "sqlite" ? await seededSqlite() : null;

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
  /**
   * On PostgreSQL, the database may be one an earlier test of this process finished with, brought
   * back to the same rows (tests/support/postgres.ts): for tests that change rows only.
   */
  reuseDatabase?: boolean;
  /** PUBLIC_URL (default: unset). */
  publicUrl?: string | null;
  /** S3_BUCKET and the rest: uploads kept in this bucket (tests/support/s3.ts); default none. */
  uploadBucket?: BucketConfig;
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

/**
 * The real app on a fresh in-memory SQLite database with the real migrations (and the seed
 * unless `seed: false`), at once. For a test that runs on either database, newTestApp().
 */
export function testApp(options: TestAppOptions = {}) {
  if (!seeded) throw new Error("testApp() opens SQLite databases only: use newTestApp(), which opens either.");
  const handle = options.image
    ? openMemoryCopy(options.image)
    : options.seed === false
      ? openMemoryDatabase()
      : openMemoryCopy(seeded);
  const app = appOn(sqliteTestDatabase(handle), options);
  return { ...app, database: handle, sqlite: handle.sqlite };
}

/**
 * The real app on a fresh database of the dialect this test process runs on (SQLite in memory,
 * or PostgreSQL: `bun run test:postgres`), migrated, and seeded unless `seed: false`.
 * close() closes the database (a PostgreSQL one is dropped).
 */
export async function newTestApp(options: TestAppOptions = {}) {
  return appOn(
    await openTestDatabase({ seed: options.seed !== false, image: options.image, reuse: options.reuseDatabase }),
    options,
  );
}

/** The app on an open test database. */
function appOn(testDb: TestDatabase, options: TestAppOptions) {
  assets ??= loadAssets();
  const logger = memoryLogger();
  // As in DATA_DIR: the uploads in a folder of their own, beside the rest of the data.
  const dataDir = scratchDir("data");
  const uploadsDir = join(dataDir, "uploads");
  mkdirSync(uploadsDir);
  const app = createApp({
    database: testDb,
    secret: TEST_SECRET,
    uploadsDir,
    // An in-memory database: only the disk under the data folder is watched.
    storage: options.storage ?? new StorageHealth({ dir: dataDir, databaseFile: null, logger }),
    config: {
      publicUrl: options.publicUrl ?? null,
      ...(options.uploadBucket ? { uploadBucket: options.uploadBucket } : {}),
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
  return {
    app,
    testDb,
    db: testDb.db,
    logger,
    request,
    uploadsDir,
    close: () => testDb.close(),
    release: () => testDb.release(),
  };
}

/** An app on either database (newTestApp), with what any test may use. */
export type AnyTestApp = ReturnType<typeof appOn>;

export type TestApp = ReturnType<typeof testApp>;

/** An app on a database holding only the settings row, which every page reads for the brand. */
export async function siteApp(
  options: Omit<TestAppOptions, "seed"> & { settings?: Parameters<typeof createSettings>[1] } = {},
) {
  const t = testApp({ ...options, seed: false });
  await createSettings(t.db, options.settings);
  return t;
}

/** siteApp() on either database (newTestApp). */
export async function newSiteApp(
  options: Omit<TestAppOptions, "seed"> & { settings?: Parameters<typeof createSettings>[1] } = {},
) {
  const t = await newTestApp({ ...options, seed: false });
  await createSettings(t.db, options.settings);
  return t;
}
