import "./production-default.ts";
import { chmodSync, existsSync, rmdirSync, rmSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { backup, describeFailure, removeRestoreLeftovers, restore } from "#server/features/backups/archive.ts";
import { createApp } from "./app.ts";
import {
  DataDirError,
  FILE_MODE,
  LOCK_FILE,
  makePrivateDir,
  markSite,
  noteDatabaseChanged,
  refuseUnusableDatabase,
  type SiteDatabase,
  setDatabaseAside,
  siteDatabase,
  tightenDataDir,
} from "./data-dir.ts";
import { adoptLinks } from "./db/adopt-links.ts";
import { scheduleCheckpoints } from "./db/checkpoints.ts";
import { applyMigrations, type DatabaseHandle, openDatabase } from "./db/client.ts";
import { content } from "./db/content.ts";
import { inspectDatabaseFile } from "./db/file-view.ts";
import { settleIdentity } from "./db/identity.ts";
import { lockDataDir } from "./db/lock.ts";
import { describeSeed, seedDatabase } from "./db/seed.ts";
import { type Config, ConfigError, loadConfig } from "./env.ts";
import { createAnalytics } from "./features/analytics/counting.ts";
import { scheduleRollUp } from "./features/analytics/service.ts";
import { AdminResetError, ensureAdmin, loadJwtSecret, resetAdminPassword } from "./features/auth/bootstrap.ts";
import { resetTwoFactor } from "./features/auth/two-factor.ts";
import { backupProcess } from "./features/backups/backup-process.ts";
import { Backups } from "./features/backups/service.ts";
import { type CheckerNetwork, TEST_LOOPBACK_HOST, testLoopbackNetwork } from "./features/links/network.ts";
import { reconcileMedia, registerMediaInBackground } from "./features/media/at-start.ts";
import { ResultRetentionPolicy } from "./features/settings/result-retention.ts";
import { refreshShippedPages } from "./features/site-pages/shipped.ts";
import { removeUnfinishedUploads } from "./features/uploads/service.ts";
import { clientResolver } from "./lib/client.ts";
import { DESCRIPTOR_ADVICE, descriptorLimit, reserveDescriptor } from "./lib/descriptors.ts";
import { freeBytes, RESERVE_BYTES, removeStaleProbes, StorageHealth, storageFault } from "./lib/storage-health.ts";
import { consoleLogger as logger } from "./logger.ts";
import { storageRefusal } from "./plugins/errors.ts";
import { loadAssets } from "./ssr/assets.ts";
import { PageCache } from "./ssr/page-cache.ts";

const HELP = `cam-guide: the self-hosted guide, quiz and free course for new webcam models.

Usage: cam-guide [command]

Commands:
  serve                 Start the web server (the default). One server per DATA_DIR.
  seed                  Load the bundled content into the database (safe to run twice, also while serving).
  admin reset-password  Set a new password for the admin, whatever its name (ADMIN_PASSWORD, or a generated
                        one that is printed), and sign out every session. Works while serving.
  admin reset-2fa       Turn two-factor sign-in off for the admin (when the phone and the recovery codes
                        are lost), delete its recovery codes and sign out every session. Works while serving.
  backup <file>         Write a consistent copy of the database, its secret and the uploads to <file>
                        (safe while serving; <file> must be outside DATA_DIR; written whole or not at all).
  restore <file>        Put a backup back into DATA_DIR after checking all of it (stop the server first;
                        the old database is kept beside the new one).
  new-database          Begin again with an empty site where a site's database (app.db) went missing or is
                        not recognised (emptied, cut short, overwritten, damaged, another program's or
                        site's, its write-ahead log app.db-wal lost, written by another program under the
                        server); such a file is kept aside as app.db.unrecognised-<time>, never deleted.
                        Every other command refuses to run on such a DATA_DIR.
  backup-auto <auto|manual> <keep>
                        One run of the automatic backups into BACKUP_DIR, checked, old automatic ones
                        deleted beyond <keep>, recorded in Admin > Backups; it says {"busy":true} while
                        another run goes (the server starts it in a child process).
  healthcheck           Exit 0 if the server on PORT answers /healthz (for Docker's HEALTHCHECK).
  --help                Show this help.

Configuration (environment variables):
  PORT            Port to listen on (default 3000)
  HOST            Address to listen on (default 0.0.0.0)
  DATA_DIR        Where the database, secrets and uploads live (default ./data; kept private: 0700, files 0600)
  PUBLIC_URL      The site's public address, e.g. https://example.com (links in feeds, the sitemap
                  and search tags). Unset: the address the admin signs in at, confirmed in Settings
  NODE_ENV        development shows Bun's detailed error pages; anything else runs as production
  JWT_SECRET      Session signing secret, 32+ characters (default: generated once into DATA_DIR)
  TRUSTED_PROXIES Your reverse proxies' addresses or CIDR ranges, comma-separated, e.g. 127.0.0.1,::1
                  (their X-Forwarded-For/-Proto are believed; default: none, the headers are ignored)
  ADMIN_USERNAME  The admin's user name, used on first start (default admin)
  ADMIN_PASSWORD  The admin's password on first start, 12+ characters (default: generated and printed once)
  WRITE_LIMIT     Anonymous writes per client, e.g. 60/minute (the default), 10/30s, 500/hour; "off" or 0 for none
  LINK_CHECK_INTERVAL  Hours between checks of the affiliate links' destinations (default 168, weekly);
                  "off" or 0: only when the admin presses Check now
  ANALYTICS       First-party counting without cookies or stored addresses: on (the default) or off
  BACKUP_CRON     When automatic backups run, a cron schedule of 5 fields (minute hour day month weekday)
                  or 6 with seconds first, in the server's time zone, e.g. "30 3 * * *" every night at 03:30;
                  "off" for none. Unset: off, unless the admin sets a schedule in Settings
  BACKUP_KEEP     Automatic backups kept, 1 to 365 (default 7, or the admin's count in Settings); older
                  automatic ones are deleted, backups made with "Back up now" are always kept
  BACKUP_DIR      Where those backups are written (default DATA_DIR/backups, which no backup copies);
                  point it at another disk so a backup survives losing the disk DATA_DIR is on
`;

/** Below this many file descriptors a few busy networks can take every connection the server may hold. */
const LOW_DESCRIPTOR_LIMIT = 4096;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Runs `work`, turning a refusal about DATA_DIR into its one-line message and exit code 1. */
function orFail<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof DataDirError) fail(error.message);
    throw error;
  }
}

/**
 * A site whose database went missing, or whose app.db is not a cam-guide database this folder
 * held, is never opened, seeded or replaced by an empty one: stops the process with one line
 * naming the ways out. Answers what DATA_DIR's database is otherwise.
 */
function refuseUnusable(dir: string, options?: { creating?: boolean }): SiteDatabase {
  return orFail(() => refuseUnusableDatabase(dir, options));
}

/**
 * Stops the process when the database in `file` (recognised, or absent) was migrated by a
 * release this one does not know; read through a read-only view, as recognising it was.
 */
function refuseUnknownMigrations(file: string): void {
  if (!existsSync(file)) return;
  const { migrations, damage } = inspectDatabaseFile(file);
  if (damage) fail(`Cannot read the database ${file}: it ${damage}. Nothing was changed.`);
  if (migrations) fail(`The database in DATA_DIR (${file}) ${migrations}. Nothing was changed.`);
}

/**
 * Opens DATA_DIR/app.db (creating it when missing) and brings it up to this build's schema,
 * unless it is not recognised or a newer cam-guide made it. `server`: the server's connection,
 * which can close without folding the write-ahead log into a file that stopped being ours, and
 * folds the log in before the folder is marked as a site (so a marked folder's app.db holds
 * cam-guide's tables by itself). Other commands never checkpoint: a server may be running.
 */
function openData(dir: string, { server = false } = {}): { database: DatabaseHandle; id: number } {
  const file = join(dir, "app.db");
  // Both checked before SQLite opens the file: it would change a file it does not recognise.
  // (Whether a missing one may be created was decided before anything, a secret, was written.)
  refuseUnusable(dir, { creating: true });
  refuseUnknownMigrations(file);
  let handle: DatabaseHandle;
  try {
    handle = openDatabase(file, { keeper: server });
  } catch (error) {
    fail(`Cannot open the database ${file}: ${(error as Error).message}`);
  }
  // Only when it differs: a chmod moves the file's change time, which a running server's watch
  // takes for a write by another program (a seed or a password reset runs beside it).
  if ((statSync(file).mode & 0o777) !== FILE_MODE) chmodSync(file, FILE_MODE);
  applyMigrations(handle);
  const id = settleIdentity(handle);
  if (server) handle.checkpoint();
  markSite(dir, id);
  return { database: handle, id };
}

/**
 * The data steps that follow the migrations: an affiliate destination from before managed
 * links gets a link of its own (once; a later start finds nothing to do).
 */
async function upgradeData(database: DatabaseHandle): Promise<void> {
  const adopted = await adoptLinks(database, (source, problem) =>
    logger.warn(`${source} has no managed link: ${problem}. Pick or make a link for it in the admin.`),
  );
  if (adopted > 0)
    logger.info(`gave ${adopted} affiliate destination${adopted === 1 ? "" : "s"} a managed link (/go/)`);
  for (const slug of await refreshShippedPages(database.db, content.sitePages))
    logger.info(`the ${slug} page, never edited here, now has this release's text`);
}

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
function checkPort(config: Config): void {
  try {
    Bun.listen({ hostname: config.host, port: config.port, socket: { data() {} } }).stop(true);
  } catch (error) {
    failToListen(config, error);
  }
}

async function serve(config: Config) {
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
  const { database } = openData(dir, { server: true });
  await upgradeData(database);
  const report = await seedDatabase(database);
  if (Object.values(report).some((n) => n > 0)) logger.info(describeSeed(report));
  const admin = await ensureAdmin(database.db, config.adminUsername, config.adminPassword);
  if (admin.created && admin.generatedPassword) {
    // Printed once, on the start that created the account; it is stored only as a hash.
    console.log(
      `\n  Admin account created.\n  Username: ${admin.username}\n  Password: ${admin.generatedPassword}\n  Keep it safe: it will not be shown again (reset with \`cam-guide admin reset-password\`).\n`,
    );
  }
  const uploadsDir = join(dir, "uploads");
  // Uploads cut short by a crash left only temporary names: never served, removed here.
  const unfinished = removeUnfinishedUploads(uploadsDir);
  if (unfinished > 0) logger.info(`removed ${unfinished} unfinished upload${unfinished === 1 ? "" : "s"}`);
  // A server killed while its write probe was on the disk left the probe's file.
  removeStaleProbes(dir);
  // The media library's rows and the files put in step: deletions a crash cut short finished.
  await reconcileMedia(database.db, uploadsDir, logger);
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
    mayWrite: () => storage.databaseFileState().ok,
    written: () => storage.checkpointed(),
    logger,
  });

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
    analytics,
    dailyLimits: config.dailyLimits,
    backups,
    linkNetwork: testLinkNetwork(config),
    pageCache,
    resultRetention,
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
    database.close();
    failToListen(config, error);
  }
  resultRetention.start();
  logger.info(`cam-guide listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${config.port}`);
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
    await backups.stop();
    await resultRetention.stop();
    await analytics.flush();
    checkpoints.stop();
    // Folding the log back into a file that is no longer the database (emptied, overwritten)
    // would destroy what the log holds: it is then left as it is, beside the file.
    const ours = storage.databaseFileState().ok;
    database.close({ checkpoint: ours });
    if (!ours) logger.warn("the database file is not the one opened: its write-ahead log was kept as it is");
    await storage.stop();
    lock.release();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

async function healthcheck(config: Config) {
  try {
    const res = await fetch(`http://127.0.0.1:${config.port}/healthz`, { signal: AbortSignal.timeout(3000) });
    process.exit(res.ok ? 0 : 1);
  } catch {
    process.exit(1);
  }
}

async function seed(config: Config) {
  const dir = resolve(config.dataDir);
  orFail(() => makePrivateDir(dir));
  refuseUnusable(dir);
  const lock = orFail(() => lockDataDir(dir, "shared"));
  const { database } = openData(dir);
  await upgradeData(database);
  console.log(describeSeed(await seedDatabase(database)));
  database.close();
  lock.release();
}

/**
 * Runs an admin command on the site's existing database, locked beside a running server.
 * Never creates a site: a mistyped DATA_DIR must not get a fresh database and admin.
 */
async function onExistingSite(config: Config, work: (database: DatabaseHandle) => Promise<void>) {
  const dir = resolve(config.dataDir);
  const file = join(dir, "app.db");
  refuseUnusable(dir);
  if (!existsSync(file)) fail(`No database at ${file}: is DATA_DIR right? Nothing was changed.`);
  const lock = orFail(() => lockDataDir(dir, "shared"));
  const { database } = openData(dir);
  try {
    await work(database);
  } finally {
    database.close();
    lock.release();
  }
}

function resetPassword(config: Config) {
  return onExistingSite(config, async (database) => {
    const result = await resetAdminPassword(database.db, config.adminUsername, config.adminPassword);
    const lines = [
      result.generatedPassword
        ? `New password for the admin "${result.username}": ${result.generatedPassword}`
        : `Password for the admin "${result.username}" set from ADMIN_PASSWORD.`,
      "Every existing session has been signed out.",
    ];
    if (result.username !== config.adminUsername)
      lines.push(
        `Sign in as "${result.username}": ADMIN_USERNAME ("${config.adminUsername}") only names the admin when the account is first created.`,
      );
    if (result.removed.length > 0)
      lines.push(
        `Removed ${result.removed.length} extra admin account(s) an older cam-guide had created: ${result.removed.map((name) => `"${name}"`).join(", ")}.`,
      );
    console.log(lines.join("\n"));
  }).catch((error) => {
    if (error instanceof AdminResetError) fail(`${error.message} Nothing was changed.`);
    throw error;
  });
}

/** `cam-guide admin reset-2fa`: the second step off, the recovery codes gone, every session ended. */
function resetSecondFactor(config: Config) {
  return onExistingSite(config, async (database) => {
    const admins = await resetTwoFactor(database.db);
    if (admins.length === 0)
      fail("There is no admin account yet: start the server once and it creates one. Nothing was changed.");
    const lines = admins.map(({ username, wasOn }) =>
      wasOn
        ? `Two-factor sign-in is now off for the admin "${username}"; its recovery codes were deleted.`
        : `Two-factor sign-in was already off for the admin "${username}".`,
    );
    lines.push(
      "Every existing session has been signed out. Sign in with the password alone, then turn it on again in Account.",
    );
    console.log(lines.join("\n"));
  });
}

/** Aborts when the operator interrupts (Ctrl-C, SIGTERM, a closed terminal), so temporary files are removed. */
function interruptions(): AbortController {
  const controller = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => controller.abort(signal));
  return controller;
}

async function runBackup(config: Config, file: string) {
  const dir = resolve(config.dataDir);
  const controller = interruptions();
  // Only a shared lock, and only if a lock file exists: a backup writes nothing in DATA_DIR.
  const lock = orFail(() => lockDataDir(dir, "shared", { create: false }));
  try {
    const { files, path } = await backup(dir, resolve(file), { raw: file, signal: controller.signal });
    console.log(`Backup written to ${path} (${files} files: the database, its secret and the uploads).`);
  } catch (error) {
    // A signal that arrived during a blocking step is delivered on the next turn.
    await new Promise((resolve) => setImmediate(resolve));
    if (controller.signal.aborted) fail(`Backup interrupted (${controller.signal.reason}); nothing was written.`);
    fail(`Backup failed: ${describeFailure(error, resolve(file))} No backup was written.`);
  } finally {
    lock.release();
  }
}

/**
 * `backup-auto <auto|manual> <keep>`: one run, recorded in the database by this process, its
 * progress as JSON lines on stdout for the server that started it (which may be gone).
 */
async function runAutoBackup(config: Config, kind: string | undefined, keep: string | undefined) {
  if ((kind !== "auto" && kind !== "manual") || !/^\d{1,3}$/.test(keep ?? "") || Number(keep) < 1)
    fail("Usage: cam-guide backup-auto <auto|manual> <keep> (the server runs it; see BACKUP_CRON)");
  const dir = resolve(config.dataDir);
  const controller = interruptions();
  const lock = orFail(() => lockDataDir(dir, "shared", { create: false }));
  try {
    const result = await backupProcess(
      { dataDir: dir, backupDir: config.backupDir, kind, keep: Number(keep), signal: controller.signal },
      (report) => console.log(JSON.stringify(report)),
    );
    process.exitCode = result?.ok ? 0 : 1;
  } finally {
    lock.release();
  }
}

async function runRestore(config: Config, file: string) {
  const dir = resolve(config.dataDir);
  // A mistyped name is said first, before a running server is (stopping the site would not help).
  const source = resolve(file);
  if (!existsSync(source)) fail(`Restore failed: ${source} does not exist. Nothing in DATA_DIR was changed.`);
  const controller = interruptions();
  const created = orFail(() => makePrivateDir(dir));
  const lockFile = join(dir, LOCK_FILE);
  const lockExisted = existsSync(lockFile);
  let lock: ReturnType<typeof lockDataDir> | null = null;
  const undo = () => {
    // A refused restore leaves DATA_DIR as it found it: no lock file, no folder it made.
    lock?.release();
    if (lock && !lockExisted) rmSync(lockFile, { force: true });
    if (created) {
      try {
        rmdirSync(dir);
      } catch {
        // Not empty: something else put files there meanwhile; leave it.
      }
    }
  };
  try {
    lock = lockDataDir(dir, "restore");
    const { files, kept } = await restore(dir, resolve(file), controller.signal);
    tightenDataDir(dir);
    lock.release();
    console.log(`Restored ${files} files into ${dir}.${kept ? ` The previous database is kept at ${kept}.` : ""}`);
  } catch (error) {
    undo();
    await new Promise((resolve) => setImmediate(resolve));
    if (error instanceof DataDirError) fail(`Restore failed: ${error.message} Nothing in DATA_DIR was changed.`);
    if (controller.signal.aborted)
      fail(`Restore interrupted (${controller.signal.reason}); nothing in DATA_DIR was changed.`);
    fail(`Restore failed: ${describeFailure(error, dir)} Nothing in DATA_DIR was changed.`);
  }
}

/**
 * A site whose database went missing or is not recognised starts over only when the operator
 * says so; what was there is kept aside, never deleted.
 */
async function newDatabase(config: Config) {
  const dir = resolve(config.dataDir);
  const db = join(dir, "app.db");
  if (siteDatabase(dir).state === "ours")
    fail(
      `${db} is this site's database: new-database only replaces a missing or unrecognised one. To put a backup in its place, use cam-guide restore <file>.`,
    );
  orFail(() => makePrivateDir(dir));
  // Alone, like a restore: never under a running server.
  const lock = orFail(() => lockDataDir(dir, "restore"));
  const found = siteDatabase(dir);
  if (found.state === "ours") fail(`${db} appeared meanwhile; nothing was changed.`);
  const aside = found.state === "none" ? [] : setDatabaseAside(dir);
  const { database } = openData(dir);
  await upgradeData(database);
  console.log(describeSeed(await seedDatabase(database)));
  database.close();
  lock.release();
  if (aside.length > 0)
    console.log(
      `What was there is kept, not deleted: ${aside.map((path) => basename(path)).join(", ")} in ${dir}${found.state === "unrecognised" ? ` (app.db ${found.problem})` : ""}.`,
    );
  console.log(
    `A new, empty database was created at ${db}. Start the server to create the admin account (its password is printed once).`,
  );
}

/** DATA_DIR once the configuration is read, for the message of a start that fails on the disk. */
let dataDirInUse: string | null = null;

/** A command that failed on the storage (a full disk, a read-only folder): a clear message, not a stack. */
function storageFailure(error: unknown): string | null {
  const fault = storageFault(error);
  if (!fault || !dataDirInUse) return null;
  const { code, message } = error as { code?: string; message?: string };
  const free = freeBytes(dataDirInUse);
  const full = fault === "full" || (free !== null && free < RESERVE_BYTES);
  return (
    `Cannot use the data in ${dataDirInUse}: ${code ?? "error"} (${message ?? error}).\n` +
    (full
      ? `The disk holding it is full (${Math.floor((free ?? 0) / 1024)} KB free). Free some space, then run the command again.`
      : "It cannot be read or written. Check the disk and the folder's permissions, then run the command again.")
  );
}

async function main(argv: string[]) {
  // Everything cam-guide creates is private to its user, whatever umask it was started with.
  process.umask(0o077);
  const [command = "serve", sub, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(HELP);
    return;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  dataDirInUse = resolve(config.dataDir);
  switch (command) {
    case "serve":
      return serve(config);
    case "new-database":
      return newDatabase(config);
    case "seed":
      return seed(config);
    case "admin":
      if (sub === "reset-2fa") return resetSecondFactor(config);
      if (sub !== "reset-password")
        fail(`Unknown admin command "${sub ?? ""}". Try: cam-guide admin reset-password or cam-guide admin reset-2fa`);
      return resetPassword(config);
    case "backup":
    case "restore":
      // A name like --help is a mistyped option, not a file to write or read.
      if (!sub || rest.length > 0 || sub.startsWith("-"))
        fail(
          `Usage: cam-guide ${command} <file>${sub?.startsWith("-") ? ` (for a file named ${sub}, write ./${sub})` : ""}`,
        );
      return command === "backup" ? runBackup(config, sub) : runRestore(config, sub);
    case "backup-auto":
      return runAutoBackup(config, sub, rest[0]);
    case "healthcheck":
      return healthcheck(config);
    default:
      fail(`Unknown command "${command}".\n\n${HELP}`);
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  const message = storageFailure(error);
  if (message) fail(message);
  throw error;
}
