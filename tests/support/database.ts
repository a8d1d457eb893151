// A fresh database for one test, on the dialect this test process runs on (db/dialect.ts):
// SQLite in memory, or a database of its own on the test cluster (tests/support/postgres.ts).
// Either holds the real migrations, and the bundled content when asked.
import type { Database } from "bun:sqlite";
import { databaseImage, openMemoryCopy, openMemoryDatabase } from "#server/db/client.ts";
import { type Dialect, dialect } from "#server/db/dialect.ts";
import { seedDatabase } from "#server/db/seed.ts";
import type { DatabaseAccess } from "#server/db/types.ts";
import { migratedDatabase, publicTables, type TestPostgres } from "./postgres.ts";

export interface TestDatabase extends DatabaseAccess {
  dialect: Dialect;
  /** The SQLite connection itself, for tests about SQLite; null on PostgreSQL. */
  sqlite: Database | null;
  /** The rows a query written by the test answers (setup and checks; never with a visitor's input). */
  rows<T = Record<string, unknown>>(query: string): Promise<T[]>;
  /** The app's tables, by name, without the migrations' own. */
  tables(): Promise<string[]>;
  close(): Promise<void>;
  /**
   * The test is done with it: the same as close(), except for a PostgreSQL database opened with
   * `reuse`, which is kept for the next test, its rows as new (tests/support/postgres.ts).
   */
  release(): Promise<void>;
}

/** The seed runs once per process, into a template every seeded test database copies. */
let seededImage: Uint8Array | undefined;
export async function seededSqlite(): Promise<Uint8Array> {
  if (!seededImage) {
    const template = openMemoryDatabase();
    await seedDatabase(template);
    seededImage = databaseImage(template);
    template.close();
  }
  return seededImage;
}

/** A new database: migrated, and seeded unless `seed` is false; on SQLite a copy of `image` when given. */
export async function openTestDatabase({
  seed = true,
  image,
  reuse = false,
}: {
  seed?: boolean;
  image?: Uint8Array;
  /** On PostgreSQL, a database another test finished with may serve, its rows as new (postgres.ts). */
  reuse?: boolean;
} = {}): Promise<TestDatabase> {
  if (dialect === "postgresql") {
    if (image) throw new Error("A SQLite database image cannot open on PostgreSQL: build the rows in the test.");
    const handle = seed
      ? await migratedDatabase("seeded", seedDatabase, { reuse })
      : await migratedDatabase("migrated", undefined, { reuse });
    return postgresTestDatabase(handle);
  }
  const handle = image ? openMemoryCopy(image) : seed ? openMemoryCopy(await seededSqlite()) : openMemoryDatabase();
  return sqliteTestDatabase(handle);
}

/** The same shape over an open PostgreSQL test database (migratedDatabase in postgres.ts). */
export function postgresTestDatabase(handle: TestPostgres): TestDatabase {
  return {
    dialect: "postgresql",
    db: handle.db,
    sqlite: null,
    rows: async <T>(query: string) => [...(await handle.client.unsafe(query))] as T[],
    tables: () => publicTables(handle.client),
    close: handle.close,
    release: handle.release,
  };
}

/** The same shape over an open SQLite handle (what the synchronous testApp() opens). */
export function sqliteTestDatabase(handle: ReturnType<typeof openMemoryDatabase>): TestDatabase {
  return {
    dialect: "sqlite",
    db: handle.db,
    sqlite: handle.sqlite,
    rows: async <T>(query: string) => handle.sqlite.query(query).all() as T[],
    tables: async () =>
      (
        handle.sqlite
          .query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name",
          )
          .all() as { name: string }[]
      ).map((r) => r.name),
    close: async () => handle.close(),
    release: async () => handle.close(),
  };
}
