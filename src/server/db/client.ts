import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { resourcePath } from "#server/resources.ts";
import { stampIdentity } from "./identity.ts";
import * as schema from "./schema.ts";
import type { DatabaseAccess, Db } from "./types.ts";
import "./value-rules.ts";
import { outsideTransactionsOnly, registerTransactionQueue, type TransactionQueue } from "./transaction.ts";

/** drizzle over bun:sqlite, whole; services see it as the dialect-neutral Db (db/types.ts). */
export type SqliteDb = ReturnType<typeof drizzle<typeof schema>>;

export interface DatabaseHandle {
  /** The SQLite connection itself: for src/server/db/ and for tests that set up rows by hand. */
  sqlite: Database;
  /** What services query through. */
  db: Db;
  /** The same drizzle instance, whole: for drizzle's migrator. */
  drizzle: SqliteDb;
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
  /**
   * Folds the write-ahead log into the database file, and empties the log when no other
   * connection still reads from it; never waits for one (what it cannot fold now is left for
   * the next). Null when a transaction is open on the connection. The only way the file is
   * written while the connection is open: see the automatic checkpoint in wrap().
   */
  checkpoint(): Checkpointed | null;
}

export interface Checkpointed {
  /** Whether the whole log was folded in and emptied. */
  complete: boolean;
  /** Frames still in the log (0 once emptied) and how many of them are in the file. */
  frames: number;
  folded: number;
}

/** How long a statement waits for another process's lock (a command beside the server). */
const BUSY_TIMEOUT_MS = 5000;

/** A statement that changes the database, by its first word (drizzle writes them in lower case). */
const WRITES = /^\s*(insert|update|delete|replace|create|drop|alter)\b/i;

/** How many compiled statements a connection keeps for reuse (the site runs about a hundred). */
const STATEMENTS_KEPT = 400;

/**
 * The connection as drizzle sees it, with its statements compiled once: drizzle prepares every
 * query it runs, and compiling one again on each request was a tenth of a page's render (and
 * native memory for the collector). The same SQL text gets the same statement, the most
 * recently used kept; one dropped from the cache is left to the collector, never finalized,
 * since a query prepared with drizzle's .prepare() may still hold it. Safe to share: bun:sqlite
 * runs a statement to its end in one call, and SQLite compiles it again after a schema change.
 */
function reusingStatements(sqlite: Database): Database {
  const kept = new Map<string, ReturnType<Database["prepare"]>>();
  const prepare = (text: string) => {
    const known = kept.get(text);
    if (known) {
      kept.delete(text);
      kept.set(text, known);
      return known;
    }
    const statement = sqlite.prepare(text);
    kept.set(text, statement);
    if (kept.size > STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
    return statement;
  };
  // The connection's other methods, bound to it once (drizzle calls exec and transaction on it).
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(sqlite, {
    get(target, key) {
      if (key === "prepare") return prepare;
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (!bound.has(key)) bound.set(key, value.bind(target));
      return bound.get(key);
    },
  });
}

function wrap(sqlite: Database, keeperFile: string | null = null): DatabaseHandle {
  // WAL lets readers run while one writer commits; NORMAL is durable in WAL mode
  // except for the last transactions on power loss, never corrupting the file.
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // No automatic checkpoint, on every connection of every cam-guide process: then only the
  // server's own checkpoints (db/checkpoints.ts) write the database file while it runs, and
  // its watch can take any other change of the file for what it is (see watchDatabaseFile).
  // A connection closed last still folds the log in (SQLite does so whatever this says).
  sqlite.exec("PRAGMA wal_autocheckpoint = 0");
  sqlite.exec("PRAGMA foreign_keys = ON");
  // Deleted rows are overwritten, not left in free pages: a visit-count salt deleted after
  // two days is gone from the file, not only from the table.
  sqlite.exec("PRAGMA secure_delete = FAST");
  // A second, read-only connection that holds the file open for as long as the handle lives
  // (see close()). Its first read makes it a reader of the log, which it then stays.
  const keeper = keeperFile ? new Database(keeperFile, { readonly: true }) : null;
  keeper?.query("SELECT count(*) FROM sqlite_master").get();
  const guardWrites = { logQuery: (sql: string) => (WRITES.test(sql) ? queue.guard?.() : undefined) };
  const client = reusingStatements(sqlite);
  const queue: TransactionQueue = {
    tx: drizzle({ client, schema, logger: guardWrites }),
    open: false,
    last: Promise.resolve(),
  };
  const db = drizzle({ client, schema, logger: outsideTransactionsOnly(queue, WRITES) });
  registerTransactionQueue(db, queue);
  let closed = false;
  return {
    sqlite,
    db,
    drizzle: db,
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
      queue.guard = check;
    },
    checkpoint() {
      if (closed || sqlite.inTransaction) return null;
      // TRUNCATE empties the log too, but waits for readers and for a writer in another
      // process; with no wait at all it does what it can without them, as PASSIVE does.
      sqlite.exec("PRAGMA busy_timeout = 0");
      try {
        const row = sqlite.query("PRAGMA wal_checkpoint(TRUNCATE)").get() as {
          busy: number;
          log: number;
          checkpointed: number;
        };
        return { complete: row.busy === 0, frames: Math.max(0, row.log), folded: Math.max(0, row.checkpointed) };
      } finally {
        sqlite.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
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
  migrate(handle.drizzle, { migrationsFolder: resourcePath("drizzle") });
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
export async function probeDatabase(handle: DatabaseAccess): Promise<void> {
  await handle.db.$count(schema.siteSettings);
}
