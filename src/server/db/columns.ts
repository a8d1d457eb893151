// The one place where a table's column types depend on the database. Every table in
// src/server/features/*/table.ts is declared once, through these functions, and built for the
// dialect this process runs on (db/dialect.ts): SQLite's helpers (columns-sqlite.ts) or
// PostgreSQL's (columns-pg.ts).
//
// The tables are typed as SQLite's: both dialects' helpers give every column the same row type
// (what a select answers and an insert takes), which columns.test.ts asserts at compile time for
// each helper and at run time for each table. Code above the tables sees one row type whatever
// the database; the SQL each dialect writes for it is drizzle's business.
import * as pg from "./columns-pg.ts";
import * as sqlite from "./columns-sqlite.ts";
import { dialect } from "./dialect.ts";

/** SQLite's helper, or PostgreSQL's twin when this process runs on PostgreSQL. */
function either<T>(sqliteHelper: T, pgHelper: unknown): T {
  return (dialect === "postgresql" ? pgHelper : sqliteHelper) as T;
}

/** The table constructor, with its index, unique-index, composite-key and check-constraint helpers. */
export const table = either(sqlite.table, pg.table);
export const check = either(sqlite.check, pg.check);
export const index = either(sqlite.index, pg.index);
export const uniqueIndex = either(sqlite.uniqueIndex, pg.uniqueIndex);
export const primaryKey = either(sqlite.primaryKey, pg.primaryKey);

export const serialId = either(sqlite.serialId, pg.serialId);
export const oneRowId = either(sqlite.oneRowId, pg.oneRowId);
export const textId = either(sqlite.textId, pg.textId);
export const text = either(sqlite.text, pg.text);
export const textEnum = either(sqlite.textEnum, pg.textEnum);
export const integer = either(sqlite.integer, pg.integer);
export const boolean = either(sqlite.boolean, pg.boolean);
export const timestamp = either(sqlite.timestamp, pg.timestamp);
export const timestampNow = either(sqlite.timestampNow, pg.timestampNow);
export const json = either(sqlite.json, pg.json);
