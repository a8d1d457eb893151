import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { resourcePath } from "#server/resources.ts";
import { stampIdentity } from "./identity.ts";
import * as schema from "./schema.ts";
import "./value-rules.ts";
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
  /**
   * Closes the connection. `checkpoint: false` leaves the write-ahead log as it is, unfolded
   * and not deleted: for a database file that is no longer the one opened (emptied, cut
   * short, overwritten), where folding the log back would write into whatever it became.
   */
  close(options?: { checkpoint?: boolean }): void;
  /**
   * `check` runs before every statement that writes and before every commit, and throws to
   * refuse it: nothing is written to the log (and so nothing is checkpointed after it) while
   * the database file is not the one opened.
   */
  guardWrites(check: () => void): void;
}

/** A statement that changes the database, by its first word (drizzle writes them in lower case). */
const WRITES = /^\s*(insert|update|delete|replace|create|drop|alter)\b/i;

function wrap(sqlite: Database, keeperFile: string | null = null): DatabaseHandle {
  // WAL lets readers run while one writer commits; NORMAL is durable in WAL mode
  // except for the last transactions on power loss, never corrupting the file.
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA foreign_keys = ON");
  // Deleted rows are overwritten, not left in free pages: a visit-count salt deleted after
  // two days is gone from the file, not only from the table.
  sqlite.exec("PRAGMA secure_delete = FAST");
  // A second, read-only connection that holds the file open for as long as the handle lives
  // (see close()). Its first read makes it a reader of the log, which it then stays.
  const keeper = keeperFile ? new Database(keeperFile, { readonly: true }) : null;
  keeper?.query("SELECT count(*) FROM sqlite_master").get();
  const guardWrites = { logQuery: (sql: string) => (WRITES.test(sql) ? lane.guard?.() : undefined) };
  const lane: TransactionLane = {
    tx: drizzle({ client: sqlite, schema, logger: guardWrites }),
    open: false,
    last: Promise.resolve(),
  };
  const db = drizzle({ client: sqlite, schema, logger: outsideTransactionsOnly(lane, WRITES) });
  registerLane(db, lane);
  let closed = false;
  return {
    sqlite,
    db,
    close({ checkpoint = true } = {}) {
      if (closed) return;
      closed = true;
      // The last connection to close folds the log into the file and deletes it. The keeper
      // (read-only, so it never checkpoints) closes after the main connection when the file
      // is no longer ours: the main connection then is not the last, and leaves the log be.
      // Closed at once (its statements finalized), not when the last statement is collected:
      // only then is the order of the two closes the order written here.
      const closeMain = () => sqlite.close(true);
      if (!keeper) closeMain();
      else if (checkpoint) {
        keeper.close(true);
        closeMain();
      } else {
        closeMain();
        keeper.close(true);
      }
    },
    guardWrites(check) {
      lane.guard = check;
    },
  };
}

/**
 * Opens (or creates) a SQLite database with the pragmas a small busy site needs. A file it
 * creates gets cam-guide's identity in its header before anything else is written. With
 * `keeper`, it can be closed without a checkpoint (the server's own connection; a second
 * connection then holds the file, so none may leave write-ahead logging meanwhile).
 */
export function openDatabase(file: string, { keeper = false } = {}): DatabaseHandle {
  const inMemory = file === ":memory:" || file === "";
  const creating = !inMemory && !existsSync(file);
  const sqlite = new Database(file, { create: true, strict: true });
  if (creating) stampIdentity(sqlite);
  return wrap(sqlite, keeper && !inMemory ? file : null);
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
