import { Database } from "bun:sqlite";
import { closeSync, openSync, readSync, renameSync, rmSync } from "node:fs";
import { applyMigrations, hasMigrationHistory, migrationProblem, openDatabase, openMemoryDatabase } from "./client.ts";

// What a backup needs from the database, as functions another database could provide
// (PostgreSQL: pg_dump and pg_restore's own checks).

/** Writes a consistent copy of the database in `file` to `target` while others keep writing to it. */
export async function snapshotDatabase(file: string, target: string): Promise<void> {
  const source = new Database(file, { readonly: true });
  try {
    source.run("PRAGMA busy_timeout = 5000");
    // VACUUM INTO reads one snapshot of the database, so writers carry on meanwhile.
    source.run(`VACUUM INTO '${target.replace(/'/g, "''")}'`);
  } finally {
    source.close();
  }
}

const tableNames = (sqlite: Database) =>
  (
    sqlite
      .query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as { name: string }[]
  ).map((row) => row.name);

const SQLITE_HEADER = "SQLite format 3\0";

function header(file: string): string {
  const fd = openSync(file, "r");
  try {
    const bytes = Buffer.alloc(16);
    return bytes.toString("latin1", 0, readSync(fd, bytes, 0, 16, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks a database file that is about to replace the live one, and brings it up to this
 * build's schema in place. null when it can be used, else what is wrong with it, as the end
 * of a sentence ("The database in the backup <problem>"). Run on a copy in a staging folder:
 * it writes to the file.
 */
export async function replacementDatabaseProblem(file: string): Promise<string | null> {
  if (Bun.file(file).size === 0) return "is empty (0 bytes)";
  if (header(file) !== SQLITE_HEADER) return "is not a SQLite database";
  let check: Database | null = null;
  try {
    check = new Database(file, { readonly: true });
    const rows = check.query("PRAGMA integrity_check").all() as { integrity_check: string }[];
    if (rows[0]?.integrity_check !== "ok") {
      const found = rows.flatMap((row) => row.integrity_check.split("\n")).filter((line) => !line.startsWith("***"));
      return `is damaged (${found.slice(0, 2).join("; ")}${found.length > 2 ? `; ${found.length - 2} more problems` : ""})`;
    }
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
    const have = new Set(tableNames(handle.sqlite));
    const missing = tableNames(expected.sqlite).filter((name) => !have.has(name));
    expected.close();
    if (missing.length > 0) return `is missing cam-guide tables (${missing.join(", ")})`;
    const broken = handle.sqlite.query("PRAGMA foreign_key_check").all();
    if (broken.length > 0) return `has ${broken.length} rows that point at rows that do not exist`;
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

const SIDE_FILES = ["-wal", "-shm", "-journal"];

/** Removes what a database left beside its file (write-ahead log, shared memory, journal). */
export function removeDatabaseSideFiles(file: string): void {
  for (const suffix of SIDE_FILES) rmSync(file + suffix, { force: true });
}

/**
 * Moves a database that no process has open to another name, with its write-ahead log and
 * journal, so commits that were only in the log move with it.
 */
export function moveDatabase(file: string, to: string): void {
  renameSync(file, to);
  for (const suffix of SIDE_FILES) {
    try {
      renameSync(file + suffix, to + suffix);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
    }
  }
}
