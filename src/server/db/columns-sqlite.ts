// The column helpers of db/columns.ts for SQLite. Each function names what the column holds;
// the comment says how SQLite stores it. columns-pg.ts has the same functions for PostgreSQL.
import { sql } from "drizzle-orm";
import {
  check,
  index,
  primaryKey,
  integer as sqliteInteger,
  sqliteTable,
  text as sqliteText,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

/** The table constructor, with its index, unique-index, composite-key and check-constraint helpers. */
export { check, index, primaryKey, sqliteTable as table, uniqueIndex };

/** An integer primary key the database numbers (SQLite: INTEGER PRIMARY KEY AUTOINCREMENT). */
export function serialId(name: string) {
  return sqliteInteger(name).primaryKey({ autoIncrement: true });
}

/** The key of a table that holds one row, id 1 (a CHECK keeps it so); SQLite numbers it (rowid). */
export function oneRowId(name: string) {
  return sqliteInteger(name).primaryKey();
}

/** A text primary key the application chooses: random ids, readable slugs. */
export function textId(name: string) {
  return sqliteText(name).primaryKey();
}

export function text(name: string) {
  return sqliteText(name);
}

/** Text limited to a few values (checked by the application and, where declared, a CHECK). */
export function textEnum<U extends string, T extends Readonly<[U, ...U[]]>>(name: string, values: T) {
  return sqliteText(name, { enum: values });
}

export function integer(name: string) {
  return sqliteInteger(name);
}

/** SQLite has no boolean type: 0 or 1 in an integer. */
export function boolean(name: string) {
  return sqliteInteger(name, { mode: "boolean" });
}

/** SQLite has no timestamp type: milliseconds since 1970 in an integer, read as a Date. */
export function timestamp(name: string) {
  return sqliteInteger(name, { mode: "timestamp_ms" });
}

// unixepoch() alone has whole seconds; 'subsec' keeps the milliseconds a Date carries.
const NOW_MS = sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`;

/** A required timestamp that the database sets to the moment the row is written. */
export function timestampNow(name: string) {
  return timestamp(name).notNull().default(NOW_MS);
}

/** A JSON value (SQLite: its text). */
export function json<T>(name: string) {
  return sqliteText(name, { mode: "json" }).$type<T>();
}
