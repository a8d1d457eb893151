import { Database } from "bun:sqlite";
import { existsSync, renameSync, rmSync } from "node:fs";
import { applyMigrations, openDatabase, openMemoryDatabase } from "./client.ts";
import { HEADER_BYTES, parseHeader, readFileBytes } from "./file-header.ts";
import { integrityProblem } from "./file-view.ts";
import { APPLICATION_ID, stampIdentity } from "./identity.ts";
import { hasMigrationHistory, migrationProblem } from "./migration-history.ts";
import { schemaDifference } from "./schema-shape.ts";
import { settleStoredValues, storedValueProblem } from "./stored-values.ts";

// What a backup needs from the database, as functions another database could provide
// (PostgreSQL: pg_dump and pg_restore's own checks).

/** Writes a consistent copy of the database in `file` to `target` while others keep writing to it. */
export async function snapshotDatabase(file: string, target: string): Promise<void> {
  // A read-only connection leaves behind the log and index it had to create; a read-write one
  // closed last removes them, but first folds into the file a log a crashed server left. So
  // read-only when both are there already (a server running, or one killed: nothing is
  // folded), read-write when they are not (no server: it removes what it made). Neither writes
  // the file beside a running server: no automatic checkpoint, and never the last to close.
  const sideFiles = existsSync(`${file}-wal`) && existsSync(`${file}-shm`);
  const source = new Database(file, sideFiles ? { readonly: true } : { readwrite: true, create: false });
  try {
    source.run("PRAGMA wal_autocheckpoint = 0");
    source.run("PRAGMA busy_timeout = 5000");
    // VACUUM INTO reads one snapshot of the database, so writers carry on meanwhile.
    source.run(`VACUUM INTO '${target.replace(/'/g, "''")}'`);
  } finally {
    source.close();
  }
}

/**
 * Takes the visit counts' daily salts out of a backup copy, leaving no trace of them in the
 * file: a salt lives at most two days on the server, and a backup kept for weeks must not
 * keep it (with it, a day's visitor hashes could be checked against an address).
 */
export function removeSalts(copy: string): void {
  const sqlite = new Database(copy);
  try {
    const has = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'analytics_salts'").get();
    if (!has) return;
    sqlite.run("DELETE FROM analytics_salts");
    // Rebuilt, so no free page of the file still holds a deleted salt.
    sqlite.run("VACUUM");
  } finally {
    sqlite.close();
  }
}

/**
 * Takes out of a database copy the backup runs recorded as still going. Such a run belongs
 * to the site the copy was taken from (most often it is the very run writing the copy), and
 * how it ends is recorded there; in a site restored from the copy no process owns it, so it
 * would read as a run that died: "the last backup failed". Done when a backup is taken, and
 * again when one is restored, for the backups taken before.
 */
export function removeRunsInProgress(copy: string): void {
  const sqlite = new Database(copy);
  try {
    const has = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'backup_runs'").get();
    if (has) sqlite.run("DELETE FROM backup_runs WHERE status = 'running'");
  } finally {
    sqlite.close();
  }
}

/**
 * In a backup copy, each number, yes/no, time, enum or JSON value that breaks its rule becomes
 * what the server reads in its place (stored-values.ts): the backup holds what the site runs on.
 */
export function settleValues(copy: string): string[] {
  const sqlite = new Database(copy);
  try {
    return settleStoredValues(sqlite);
  } finally {
    sqlite.close();
  }
}

const tableNames = (sqlite: Database) =>
  (
    sqlite
      .query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as { name: string }[]
  ).map((row) => row.name);

/**
 * Checks a database file that is about to replace the live one, and brings it up to this
 * build's schema in place. null when it can be used, else what is wrong with it, as the end
 * of a sentence ("The database in the backup <problem>"). Run on a copy in a staging folder:
 * it writes to the file (the migrations, and the database's identity when it has none yet).
 */
export async function replacementDatabaseProblem(file: string): Promise<string | null> {
  if (Bun.file(file).size === 0) return "is empty (0 bytes)";
  const header = parseHeader(readFileBytes(file, HEADER_BYTES));
  if (typeof header === "string") return header;
  if (header.applicationId !== 0 && header.applicationId !== APPLICATION_ID)
    return `belongs to another program (its application id is ${header.applicationId >>> 0})`;
  let check: Database | null = null;
  try {
    check = new Database(file, { readonly: true });
    const damage = integrityProblem(check.query("PRAGMA integrity_check").all() as Record<string, string>[]);
    if (damage) return damage;
    if (!hasMigrationHistory(check)) return "is not a cam-guide database (it has no migration history)";
    const migrations = migrationProblem(check);
    if (migrations) return migrations;
  } catch (error) {
    return `cannot be read (${(error as Error).message})`;
  } finally {
    check?.close();
  }
  // An older cam-guide's database is brought up to date here, before anything is replaced.
  const handle = openDatabase(file);
  try {
    applyMigrations(handle);
    const expected = openMemoryDatabase();
    // Then every value as the admin would have had to save it, named by its row (the storage
    // classes are checked again for any table without a declaration).
    const shape =
      schemaDifference(handle.sqlite, expected.sqlite) ??
      storedValueProblem(handle.sqlite) ??
      storageClassProblem(handle.sqlite, expected.sqlite);
    expected.close();
    if (shape) return shape;
    const broken = handle.sqlite.query("PRAGMA foreign_key_check").all();
    if (broken.length > 0) return `has ${broken.length} rows that point at rows that do not exist`;
    stampIdentity(handle.sqlite);
    // Fold the write-ahead log back in, so the file alone is the whole database.
    handle.sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
    handle.sqlite.run("PRAGMA journal_mode = DELETE");
  } catch (error) {
    return `cannot be brought up to this version (${(error as Error).message})`;
  } finally {
    handle.close();
  }
  return null;
}

/** The id in the header of a database file no connection has open (see identity.ts). */
export function databaseIdInFile(file: string): number {
  const header = parseHeader(readFileBytes(file, HEADER_BYTES));
  return typeof header === "string" ? 0 : header.userVersion;
}

type Sqlite = ReturnType<typeof openMemoryDatabase>["sqlite"];

/** Which values a column's declared type may hold; other declared types are not checked. */
const STORAGE: Record<string, string[]> = {
  INTEGER: ["integer", "null"],
  TEXT: ["text", "null"],
  REAL: ["real", "integer", "null"],
};

/**
 * Null when every value of `actual` (whose shape is already `expected`'s) is of the storage
 * class its column declares: a date stored as text or a title as bytes would break the pages
 * that read them.
 */
function storageClassProblem(actual: Sqlite, expected: Sqlite): string | null {
  for (const table of tableNames(expected)) {
    const declared = expected.query(`PRAGMA table_info("${table}")`).all() as { name: string; type: string }[];
    for (const { name, type } of declared) {
      const allowed = STORAGE[type.toUpperCase()];
      if (!allowed) continue;
      const wrong = actual
        .query(
          `SELECT count(*) AS n FROM "${table}" WHERE typeof("${name}") NOT IN (${allowed.map((c) => `'${c}'`).join(", ")})`,
        )
        .get() as { n: number };
      if (wrong.n > 0)
        return `has ${wrong.n} row${wrong.n === 1 ? "" : "s"} in ${table} whose ${name} is not ${type.toLowerCase()}`;
    }
  }
  return null;
}

/**
 * What lives beside a database file and belongs to it: SQLite's write-ahead log, its shared
 * memory index and rollback journal, and the note a server leaves when the file was changed
 * under it (data-dir.ts). They move with the file, and go when it is replaced.
 */
export const DATABASE_SIDE_FILES = ["-wal", "-shm", "-journal", "-changed"];

/** Removes what a database left beside its file (write-ahead log, shared memory, journal). */
export function removeDatabaseSideFiles(file: string): void {
  for (const suffix of DATABASE_SIDE_FILES) rmSync(file + suffix, { force: true });
}

/**
 * Moves a database that no process has open to another name, with its write-ahead log and
 * journal, so commits that were only in the log move with it.
 */
export function moveDatabase(file: string, to: string): void {
  renameSync(file, to);
  for (const suffix of DATABASE_SIDE_FILES) {
    try {
      renameSync(file + suffix, to + suffix);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
    }
  }
}
