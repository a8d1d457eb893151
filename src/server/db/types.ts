import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type * as schema from "./schema.ts";

/**
 * What services query through, on either database: drizzle's query builder, awaited. Only the
 * builders both dialects share are here (select, insert, update, delete, count, common table
 * expressions): no raw SQL run on the connection, no synchronous .get()/.all()/.run() (which
 * bun:sqlite also offers; data-access-rule.test.ts keeps them out), no driver. A unit of several
 * writes goes through inTransaction() (db/transaction.ts).
 *
 * The builders are typed through SQLite's drizzle types because the tables are (db/columns.ts):
 * both dialects give every table the same row types, so what a query takes and answers is the
 * same on PostgreSQL. openPostgres() (db/postgres.ts) gives a PostgreSQL database as this type.
 */
export type Db = Pick<
  BunSQLiteDatabase<typeof schema>,
  "select" | "selectDistinct" | "insert" | "update" | "delete" | "$count" | "$with" | "with"
>;

/**
 * An open database as the app, the seed and the data upgrades use it, whichever the dialect:
 * its query builder. SQLite's handle (db/client.ts) and PostgreSQL's (db/postgres.ts) both are one.
 */
export interface DatabaseAccess {
  readonly db: Db;
}
