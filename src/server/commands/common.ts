// What the commands share: the one-line refusals, and opening DATA_DIR's database only when
// it is recognised and this release knows its migrations.

import { chmodSync, existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { DataDirError, FILE_MODE, markSite, refuseUnusableDatabase, type SiteDatabase } from "#server/data-dir.ts";
import { adoptLinks } from "#server/db/adopt-links.ts";
import { applyMigrations, type DatabaseHandle, openDatabase } from "#server/db/client.ts";
import { content } from "#server/db/content.ts";
import { inspectDatabaseFile } from "#server/db/file-view.ts";
import { settleIdentity } from "#server/db/identity.ts";
import { lockDataDir } from "#server/db/lock.ts";
import {
  applyPostgresMigrations,
  describeDatabaseUrl,
  openPostgres,
  type PostgresHandle,
} from "#server/db/postgres.ts";
import type { DatabaseAccess } from "#server/db/types.ts";
import { rootCause } from "#server/db/unreachable.ts";
import type { Config } from "#server/env.ts";
import { backUpBeforeMigrating } from "#server/features/backups/pre-migration.ts";
import { fillSearchText } from "#server/features/blog/search.ts";
import { refreshShippedPages } from "#server/features/site-pages/shipped.ts";
import { consoleLogger as logger } from "#server/logger.ts";

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Runs `work`, turning a refusal about DATA_DIR into its one-line message and exit code 1. */
export function orFail<T>(work: () => T): T {
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
export function refuseUnusable(dir: string, options?: { creating?: boolean }): SiteDatabase {
  return orFail(() => refuseUnusableDatabase(dir, options));
}

/**
 * Stops the process when the database in `file` (recognised, or absent) was migrated by a
 * release this one does not know; read through a read-only view, as recognising it was.
 */
export function refuseUnknownMigrations(file: string): void {
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
export function openData(dir: string, { server = false } = {}): { database: DatabaseHandle; id: number } {
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
 * Takes the backup a new release takes before it migrates DATA_DIR's database (see
 * pre-migration.ts), saying where it is; stops the process, nothing changed, when it cannot.
 * Called with DATA_DIR locked, before openData.
 */
export async function backUpBeforeUpgrade(dir: string, backupDir: string): Promise<void> {
  const result = await backUpBeforeMigrating(dir, backupDir);
  if (!result) return;
  if (!result.ok)
    fail(
      `This release changes the database, and the backup it takes first could not be written: ${result.error} Nothing was changed; make BACKUP_DIR writable (or point it elsewhere) and start again.`,
    );
  logger.info(
    `the database is about to be upgraded: a backup of the site as it was is at ${join(resolve(backupDir), result.file)} (see docs/upgrade.md to roll back)`,
  );
}

/**
 * The data steps that follow the migrations: an affiliate destination from before managed
 * links gets a link of its own (once; a later start finds nothing to do).
 */
export async function upgradeData(database: DatabaseAccess): Promise<void> {
  const adopted = await adoptLinks(database, (source, problem) =>
    logger.warn(`${source} has no managed link: ${problem}. Pick or make a link for it in the admin.`),
  );
  if (adopted > 0)
    logger.info(`gave ${adopted} affiliate destination${adopted === 1 ? "" : "s"} a managed link (/go/)`);
  const words = await fillSearchText(database.db);
  if (words > 0) logger.info(`indexed the words of ${words} blog post${words === 1 ? "" : "s"} for the search`);
  for (const slug of await refreshShippedPages(database.db, content.sitePages))
    logger.info(`the ${slug} page, never edited here, now has this release's text`);
}

/**
 * Runs an admin command on the site's existing database, locked beside a running server.
 * Never creates a site: a mistyped DATA_DIR must not get a fresh database and admin.
 */
export async function onExistingSite(config: Config, work: (database: DatabaseAccess) => Promise<void>) {
  if (config.databaseUrl) {
    const database = await openPostgresSite(config);
    try {
      await work(database);
    } finally {
      await database.close();
    }
    return;
  }
  const dir = resolve(config.dataDir);
  const file = join(dir, "app.db");
  refuseUnusable(dir);
  if (!existsSync(file)) fail(`No database at ${file}: is DATA_DIR right? Nothing was changed.`);
  const lock = orFail(() => lockDataDir(dir, "shared"));
  await backUpBeforeUpgrade(dir, config.backupDir);
  const { database } = openData(dir);
  try {
    await work(database);
  } finally {
    database.close();
    lock.release();
  }
}

/** An error thrown by the work a command does once the database is ready (not by the database). */
class WorkFailed extends Error {
  constructor(readonly original: unknown) {
    super("the command's own work failed");
  }
}

/**
 * Opens the site's PostgreSQL database (DATABASE_URL) and brings it to this build's schema and
 * data, then runs `after` (the seed, the first admin), all under the schema lock, so instances
 * starting together do each step once. Stops the process with one line, the address without
 * its password, when the database cannot be reached or migrated.
 */
export async function openPostgresSite(
  config: Config,
  after?: (database: PostgresHandle) => Promise<unknown>,
): Promise<PostgresHandle> {
  const url = config.databaseUrl!;
  const database = openPostgres(url);
  try {
    await applyPostgresMigrations(database, async () => {
      try {
        await upgradeData(database);
        await after?.(database);
      } catch (error) {
        throw new WorkFailed(error);
      }
    });
  } catch (error) {
    await database.close(1).catch(() => {});
    if (error instanceof WorkFailed) throw error.original;
    // The driver's own words (a refused connection, a wrong password, no right to create the
    // tables), not drizzle's "Failed query" around them; one line.
    const cause = rootCause(error);
    const reason = (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]!.replace(/\.$/, "");
    fail(
      `Cannot use ${describeDatabaseUrl(url)} (DATABASE_URL): ${reason}. Check the address, the user's password and rights, and that the database server runs.`,
    );
  }
  return database;
}

/** A command that works on SQLite's file only: one line, nothing changed, on a PostgreSQL site. */
export function refuseOnPostgres(config: Config, command: string, instead: string): void {
  if (config.databaseUrl)
    fail(
      `cam-guide ${command} works on a SQLite database in DATA_DIR; this site's is PostgreSQL (DATABASE_URL). ${instead} Nothing was changed.`,
    );
}

/** Aborts when the operator interrupts (Ctrl-C, SIGTERM, a closed terminal), so temporary files are removed. */
export function interruptions(): AbortController {
  const controller = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => controller.abort(signal));
  return controller;
}
