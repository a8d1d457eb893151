import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import * as schema from "./schema.ts";
import { resourcePath } from "#server/resources.ts";

export type Db = ReturnType<typeof drizzle<typeof schema>>;

export interface DatabaseHandle {
  sqlite: Database;
  db: Db;
  close(): void;
}

/** Opens (or creates) a SQLite database with the pragmas a small busy site needs. */
export function openDatabase(file: string): DatabaseHandle {
  const sqlite = new Database(file, { create: true, strict: true });
  // WAL lets readers run while one writer commits; NORMAL is durable in WAL mode
  // except for the last transactions on power loss, never corrupting the file.
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA foreign_keys = ON");
  const db = drizzle({ client: sqlite, schema });
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
