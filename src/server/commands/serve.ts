// `cam-guide serve` (the default command): the site itself.

import { join, resolve } from "node:path";
import { createApp } from "#server/app.ts";
import { makePrivateDir, noteDatabaseChanged, tightenDataDir } from "#server/data-dir.ts";
import type { ChangeFeed } from "#server/db/changes.ts";
import { scheduleCheckpoints } from "#server/db/checkpoints.ts";
import { forgetCleanStop, noteCleanStop } from "#server/db/file-view.ts";
import { lockDataDir } from "#server/db/lock.ts";
import { describeSeed, seedDatabase } from "#server/db/seed.ts";
import type { DatabaseAccess } from "#server/db/types.ts";
import type { Config } from "#server/env.ts";
import { createAnalytics } from "#server/features/analytics/counting.ts";
import { scheduleRollUp } from "#server/features/analytics/service.ts";
import { type EnsureAdminResult, ensureAdmin, loadJwtSecret } from "#server/features/auth/bootstrap.ts";
import { removeRestoreLeftovers } from "#server/features/backups/archive.ts";
import { Backups } from "#server/features/backups/service.ts";
import { type CheckerNetwork, TEST_LOOPBACK_HOST, testLoopbackNetwork } from "#server/features/links/network.ts";
import { reconcileMedia, registerMediaInBackground } from "#server/features/media/at-start.ts";
import { bucketStore, keepUploadsIn } from "#server/features/media/store.ts";
import { removeUnfinishedUploads } from "#server/features/media/uploads.ts";
import { ResultRetentionPolicy } from "#server/features/settings/result-retention.ts";
import { clientResolver } from "#server/lib/client.ts";
import { ClientSlots } from "#server/lib/connection-limits.ts";
import { DESCRIPTOR_ADVICE, descriptorLimit, reserveDescriptor } from "#server/lib/descriptors.ts";
import { removeStaleProbes, StorageHealth } from "#server/lib/storage-health.ts";
import { consoleLogger as logger } from "#server/logger.ts";
import { storageRefusal } from "#server/plugins/errors.ts";
import { loadAssets } from "#server/ssr/assets.ts";
import { PageCache } from "#server/ssr/page-cache.ts";
import {
  backUpBeforeUpgrade,
  fail,
  openData,
  orFail,
  refuseUnknownMigrations,
  refuseUnusable,
  upgradeData,
} from "./common.ts";
import { servePostgres } from "./serve-postgres.ts";

/** Below this many file descriptors a few busy networks can take every connection the server may hold. */
const LOW_DESCRIPTOR_LIMIT = 4096;

/**
 * The link checker's network for cam-guide's own tests (the browser journeys and the suites that
 * start this executable check links against servers they run on 127.0.0.1), said loudly at
 * every start; undefined, the public internet only, for every real site.
 */
function testLinkNetwork(config: Config): CheckerNetwork | undefined {
  if (config.testLoopbackLinkPort === null) return undefined;
  logger.warn(
    `CAM_GUIDE_TEST_LOOPBACK_LINK_PORT is set: the link checker reaches 127.0.0.1:${config.testLoopbackLinkPort} for links to ${TEST_LOOPBACK_HOST}. It exists for cam-guide's own tests; unset it on a real site.`,
  );
  return testLoopbackNetwork(config.testLoopbackLinkPort);
}

/** Stops with a clear sentence when the port cannot be listened on; rethrows anything else. */
function failToListen(config: Config, error: unknown): never {
  const code = (error as { code?: string }).code;
  if (code === "EADDRINUSE")
    fail(`Port ${config.port} is already in use on ${config.host}. Stop the other process or set PORT.`);
  if (code === "EACCES")
    fail(`Not allowed to listen on port ${config.port}. Use a port above 1023 or run with the right permissions.`);
  throw error;
}

/**
 * Tries the port before anything is created: a start that cannot listen must not make a
 * site (a database, an admin whose generated password scrolls away) it then leaves behind.
 */
export function checkPort(config: Config): void {
  try {
    Bun.listen({ hostname: config.host, port: config.port, socket: { data() {} } }).stop(true);
  } catch (error) {
    failToListen(config, error);
  }
}

/**
 * Where the server listens, as the operator reads it at start: a wildcard address means every
 * address of the machine (reachable from elsewhere unless a firewall says otherwise), not only
 * this machine's own "localhost".
 */
export function listeningLine(host: string, port: number): string {
  if (host === "0.0.0.0" || host === "::")
    return `cam-guide listening on port ${port} of every ${host === "::" ? "IPv4 and IPv6 " : "IPv4 "}address of this machine (HOST=${host}); from this machine: http://localhost:${port}`;
  const shown = host.includes(":") ? `[${host}]` : host;
  return `cam-guide listening on http://${shown}:${port}`;
}

export async function serve(config: Config) {
  if (config.databaseUrl) return servePostgres(config);
  const dir = resolve(config.dataDir);
  orFail(() => makePrivateDir(dir));
  // Before anything is written or changed (the lock file, a new secret, a file's mode): a site
  // whose database went missing or is not recognised, or a newer release's, stops here. Asked
  // again once the lock is held (a restore may have been running).
  refuseUnusable(dir);
  refuseUnknownMigrations(join(dir, "app.db"));
  // Taken first and held until the process ends: one server per DATA_DIR, no restore meanwhile.
  const lock = orFail(() => lockDataDir(dir, "serve"));
  refuseUnusable(dir);
  refuseUnknownMigrations(join(dir, "app.db"));
  checkPort(config);
  const { fixed, problems } = tightenDataDir(dir);
  if (fixed > 0) logger.warn(`made ${fixed} files and folders in DATA_DIR private (0600 files, 0700 folders)`);
  for (const problem of problems) logger.warn(problem);
  removeRestoreLeftovers(dir);
  let secret: string;
  try {
    secret = loadJwtSecret(dir, config.jwtSecret, (message) => logger.warn(message));
  } catch (error) {
    fail((error as Error).message);
  }
  await backUpBeforeUpgrade(dir, config.backupDir);
  forgetCleanStop(join(dir, "app.db"));
  const { database } = openData(dir, { server: true });
  await upgradeData(database);
  const report = await seedDatabase(database);
  if (Object.values(report).some((n) => n > 0)) logger.info(describeSeed(report));
  announceAdmin(await ensureAdmin(database.db, config.adminUsername, config.adminPassword));
  // S3_BUCKET: uploads are kept in the bucket, and this instance's folder is its cache.
  if (config.uploadBucket) keepUploadsIn(join(dir, "uploads"), bucketStore(config.uploadBucket));
  await tidyUploads(dir, database);
  // What the start wrote (the seed, the admin) goes into app.db itself before it is watched.
  database.checkpoint();
  // Watches the files opened above and the disk under them for as long as the server runs;
  // from here on only this server's checkpoints below may write app.db.
  const storage = new StorageHealth({
    dir,
    databaseFile: join(dir, "app.db"),
    logger,
    onDatabaseChanged: (reason) => {
      try {
        noteDatabaseChanged(dir, reason);
      } catch (error) {
        logger.error("could not leave a note beside app.db", { error: (error as Error).message });
      }
    },
  });
  await storage.settled();
  // Every write, the background ones included, asks first: nothing goes into the write-ahead
  // log (nor, after it, into a checkpoint) while the file is not the database opened above.
  database.guardWrites(() => {
    const state = storage.databaseFileState();
    if (!state.ok) throw storageRefusal(state);
  });
  const checkpoints = scheduleCheckpoints({
    database,
    file: join(dir, "app.db"),
    everyMs: config.checkpointEveryMs,
    mayWrite: () => storage.mayCheckpoint(),
    written: () => storage.checkpointed(),
    logger,
  });

  // Folding the log back into a file that is no longer the database (emptied, overwritten)
  // would destroy what the log holds: it is then left as it is, beside the file.
  await runSite(config, { database, secret, dir, storage }, async () => {
    checkpoints.stop();
    const ours = storage.databaseFileState().ok;
    database.close({ checkpoint: ours });
    if (ours) noteCleanStop(join(dir, "app.db"));
    if (!ours) logger.warn("the database file is not the one opened: its write-ahead log was kept as it is");
    await storage.stop();
    lock.release();
  });
}

/** Prints a generated admin password once, on the start that created the account; it is stored only as a hash. */
export function announceAdmin(admin: EnsureAdminResult | undefined): void {
  if (!admin?.created || !admin.generatedPassword) return;
  console.log(
    `\n  Admin account created.\n  Username: ${admin.username}\n  Password: ${admin.generatedPassword}\n  Keep it safe: it will not be shown again (reset with \`cam-guide admin reset-password\`).\n`,
  );
}

/** What a crash may have left in DATA_DIR, set right before the site serves. */
export async function tidyUploads(dir: string, database: DatabaseAccess): Promise<void> {
  const uploadsDir = join(dir, "uploads");
  // Uploads cut short by a crash left only temporary names: never served, removed here.
  const unfinished = removeUnfinishedUploads(uploadsDir);
  if (unfinished > 0) logger.info(`removed ${unfinished} unfinished upload${unfinished === 1 ? "" : "s"}`);
  // A server killed while its write probe was on the disk left the probe's file.
  removeStaleProbes(dir);
  // The media library's rows and the files put in step: deletions a crash cut short finished.
  await reconcileMedia(database.db, uploadsDir, logger);
}

/** What runSite() serves: the open database, the session secret, DATA_DIR and the watch on its disk. */
interface SiteParts {
  database: DatabaseAccess;
  secret: string;
  dir: string;
  storage: StorageHealth;
  /** The changes other instances make (PostgreSQL): the page cache follows them. None on SQLite: one server per DATA_DIR. */
  changes?: ChangeFeed;
}

/**
 * The site once its database is ready, on SQLite or PostgreSQL: the jobs beside requests, the
 * app listening, and the shutdown on SIGTERM or SIGINT, which ends with `close` (what the
 * dialect's start opened: its database, its watch, its lock).
 */
export async function runSite(
  config: Config,
  { database, secret, dir, storage, changes }: SiteParts,
  close: () => Promise<void>,
) {
  const uploadsDir = join(dir, "uploads");
  // Counts wait a second in memory and are written together; shutdown writes what is left.
  // None are written while data cannot be kept (the room left is the admin's).
  const analytics = createAnalytics({
    db: database.db,
    client: clientResolver(config.trustedProxies),
    enabled: config.analytics,
    logger,
    flushMs: 1000,
    limits: config.dailyLimits,
    storage,
  });
  // Automatic backups (BACKUP_CRON or Settings), each run in a child process.
  const backups = new Backups({
    db: database.db,
    dataDir: dir,
    backupDir: config.backupDir,
    env: { cron: config.backupCron, keep: config.backupKeep },
    logger,
  });
  await backups.start();
  // Saved results older than the retention in Settings go, in small batches: at start, then hourly.
  const pageCache = new PageCache();
  const unfollow = changes ? await pageCache.follow(changes) : null;
  const openRequests = new ClientSlots();
  const resultRetention = new ResultRetentionPolicy({
    db: database.db,
    logger,
    writable: () => storage.check().ok,
    onDeleted: () => pageCache.forgetVisitorPages(),
  });
  const app = createApp({
    database,
    secret,
    uploadsDir,
    storage,
    config,
    assets: loadAssets(),
    logger,
    services: { analytics, backups, resultRetention, pageCache, openRequests, changes },
    testHooks: { linkNetwork: testLinkNetwork(config) },
  });
  // Yesterday's raw visitor rows become daily counts, and old salts go: at start, then hourly.
  if (config.analytics) scheduleRollUp(database.db, (error) => logger.error("analytics roll-up failed", { error }));
  // One descriptor is kept back so the server can still say how many it holds when it runs out.
  reserveDescriptor();
  const descriptors = descriptorLimit();
  if (descriptors !== null && descriptors < LOW_DESCRIPTOR_LIMIT)
    logger.warn(
      `the server may hold only ${descriptors} connections and open files at once (ulimit -n): ${DESCRIPTOR_ADVICE}`,
    );
  try {
    app.listen({ port: config.port, hostname: config.host });
  } catch (error) {
    await close();
    failToListen(config, error);
  }
  resultRetention.start();
  logger.info(listeningLine(config.host, config.port));
  // Files without a row (uploads from before the library, or cut short by a crash) are recorded,
  // and missing smaller copies made again, in the background, while the server already serves.
  registerMediaInBackground(database.db, uploadsDir, logger);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: finishing in-flight requests`);
    // stop(false) stops accepting connections and resolves once open requests are done.
    await app.server?.stop(false);
    // Bun's stop can resolve while a handler still runs (a page counting its visit after its
    // render), or before a request it had already taken reaches the app: the first finish,
    // the others are refused with 503, all before the database closes.
    await openRequests.closeAndDrain(30_000);
    await backups.stop();
    await resultRetention.stop();
    await analytics.flush();
    await unfollow?.();
    await close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
