import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
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
