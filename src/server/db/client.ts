import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { resourcePath } from "#server/resources.ts";
import * as schema from "./schema.ts";
import { outsideTransactionsOnly, registerLane, type TransactionLane } from "./transaction.ts";

/**
 * What services query through. They use drizzle's query builder with `await` only (never the
 * synchronous .get()/.all()/.run() that bun:sqlite also offers), so another database's drizzle
 * driver can stand behind the same code. Multi-statement writes go through inTransaction().
 */
export type Db = ReturnType<typeof drizzle<typeof schema>>;

export interface DatabaseHandle {
  /** The SQLite connection itself: for src/server/db/ and for tests that set up rows by hand. */
  sqlite: Database;
  db: Db;
  close(): void;
}

function wrap(sqlite: Database): DatabaseHandle {
  // WAL lets readers run while one writer commits; NORMAL is durable in WAL mode
  // except for the last transactions on power loss, never corrupting the file.
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA foreign_keys = ON");
  // Deleted rows are overwritten, not left in free pages: a visit-count salt deleted after
  // two days is gone from the file, not only from the table.
  sqlite.exec("PRAGMA secure_delete = FAST");
  const lane: TransactionLane = { tx: drizzle({ client: sqlite, schema }), open: false, last: Promise.resolve() };
  const db = drizzle({ client: sqlite, schema, logger: outsideTransactionsOnly(lane) });
  registerLane(db, lane);
  let closed = false;
  return {
    sqlite,
    db,
    close() {
      if (closed) return;
      closed = true;
      sqlite.close();
    },
  };
}

/** Opens (or creates) a SQLite database with the pragmas a small busy site needs. */
export function openDatabase(file: string): DatabaseHandle {
  return wrap(new Database(file, { create: true, strict: true }));
}

/** Applies every committed migration in drizzle/ (embedded in the executable). */
export function applyMigrations(handle: DatabaseHandle): void {
  migrate(handle.db, { migrationsFolder: resourcePath("drizzle") });
}

const MIGRATIONS_TABLE = "__drizzle_migrations";

/** Whether the database records any migration history (a cam-guide database always does). */
export function hasMigrationHistory(sqlite: Database): boolean {
  const table = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(MIGRATIONS_TABLE);
  return table !== null && sqlite.query(`SELECT 1 FROM ${MIGRATIONS_TABLE} LIMIT 1`).get() !== null;
}

/**
 * null when every migration the database records is one this build ships, else what is
 * wrong, as the end of a sentence ("The database ... <problem>"). A database a newer
 * cam-guide has migrated must not be opened by this one: its code does not know the schema.
 */
export function migrationProblem(sqlite: Database): string | null {
  const table = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(MIGRATIONS_TABLE);
  if (!table) return null;
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

/** migrationProblem() for the database file `file`, read without changing it (null when there is none). */
export function migrationProblemInFile(file: string): string | null {
  if (!existsSync(file)) return null;
  // Read-write without any pragma: a write-ahead log is folded back and removed on close.
  const sqlite = new Database(file, { readwrite: true, create: false });
  try {
    return migrationProblem(sqlite);
  } finally {
    sqlite.close();
  }
}

/** A fresh in-memory database with the real migrations: what tests use. */
export function openMemoryDatabase(): DatabaseHandle {
  const handle = openDatabase(":memory:");
  applyMigrations(handle);
  return handle;
}

/**
 * The whole database as bytes, to open fresh copies of with openMemoryCopy(): tests seed one
 * template once instead of seeding every test's database.
 */
export function databaseImage(handle: DatabaseHandle): Uint8Array {
  return handle.sqlite.serialize();
}

/** An independent in-memory database holding what the image held. */
export function openMemoryCopy(image: Uint8Array): DatabaseHandle {
  return wrap(Database.deserialize(image, { strict: true }));
}

/** Resolves only after a real query on a real table answered; what /healthz relies on. */
export async function probeDatabase(handle: DatabaseHandle): Promise<void> {
  await handle.db.$count(schema.siteSettings);
}
