import type { Database } from "bun:sqlite";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { resourcePath } from "#server/resources.ts";

// What a database's migration history says: whether it is a cam-guide database at all, and
// whether this build knows every migration it records. Read on any connection, a read-only
// view of a file included (db/file-view.ts), so it can be asked before the file is opened.

const MIGRATIONS_TABLE = "__drizzle_migrations";

const hasTable = (sqlite: Database) =>
  sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(MIGRATIONS_TABLE) !== null;

/** Whether the database records any migration history (a cam-guide database always does). */
export function hasMigrationHistory(sqlite: Database): boolean {
  return hasTable(sqlite) && sqlite.query(`SELECT 1 FROM ${MIGRATIONS_TABLE} LIMIT 1`).get() !== null;
}

/**
 * null when every migration the database records is one this build ships, else what is
 * wrong, as the end of a sentence ("The database ... <problem>"). A database a newer
 * cam-guide has migrated must not be opened by this one: its code does not know the schema.
 */
export function migrationProblem(sqlite: Database): string | null {
  if (!hasTable(sqlite)) return null;
  const rows = sqlite.query(`SELECT hash, created_at AS at FROM ${MIGRATIONS_TABLE}`).all() as {
    hash: unknown;
    at: unknown;
  }[];
  const known = readMigrationFiles({ migrationsFolder: resourcePath("drizzle") });
  const latest = Math.max(...known.map((m) => m.folderMillis));
  const unknown = rows.filter((row) => !known.some((m) => m.folderMillis === Number(row.at) && m.hash === row.hash));
  if (unknown.some((row) => Number.isFinite(Number(row.at)) && Number(row.at) > latest))
    return "was made by a newer cam-guide (it has database migrations this version does not know); use that version or a later one";
  if (unknown.length > 0) return "records database migrations that no cam-guide release made";
  return null;
}

/** Migrations this build would apply to a database: from how many are applied to how many it ships. */
export interface PendingMigrations {
  from: number;
  to: number;
}

/**
 * The migrations this build ships that the database has not had yet (drizzle applies those
 * newer than the last it records), or null when none are pending or the database has no
 * history at all (a new site: nothing to keep).
 */
export function pendingMigrations(sqlite: Database): PendingMigrations | null {
  if (!hasMigrationHistory(sqlite)) return null;
  const { last } = sqlite.query(`SELECT max(created_at) AS last FROM ${MIGRATIONS_TABLE}`).get() as { last: unknown };
  const known = readMigrationFiles({ migrationsFolder: resourcePath("drizzle") });
  const from = known.filter((m) => m.folderMillis <= Number(last)).length;
  return from < known.length ? { from, to: known.length } : null;
}
