import type { Database } from "bun:sqlite";

// Databases whose shape differs from cam-guide's in one way, made the way a hand-edited or
// hostile backup would be: SQLite's own statements only (its defensive mode refuses edits of
// sqlite_master), a table rebuilt under a new definition as migrations rebuild them.

/**
 * Rebuilds `table` under the CREATE statement `change` makes of its current one, keeping its
 * rows (copied by column name) and its indexes; foreign keys must be off on `db`.
 */
export function rebuildTable(db: Database, table: string, change: (sql: string) => string): void {
  const { sql } = db.query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as {
    sql: string;
  };
  const changed = change(sql);
  if (changed === sql) throw new Error(`the change to ${table} changed nothing`);
  const indexes = (
    db.query("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table) as {
      sql: string;
    }[]
  ).map((row) => row.sql);
  const columns = (db.query(`PRAGMA table_info("${table}")`).all() as { name: string }[])
    .map((column) => `"${column.name}"`)
    .join(", ");
  // Made under a new name (its CHECKs' references to itself too) and renamed into place: the
  // rename rewrites those references back, while other tables' foreign keys, which name the
  // dropped table, keep naming the new one.
  const temporary = `${table}__rebuilt`;
  const create = changed
    .replace(/^CREATE TABLE\s+[`"]?\w+[`"]?/, `CREATE TABLE "${temporary}"`)
    .replaceAll(`"${table}".`, `"${temporary}".`);
  db.exec(`${create};
    INSERT INTO "${temporary}" (${columns}) SELECT ${columns} FROM "${table}";
    DROP TABLE "${table}";
    ALTER TABLE "${temporary}" RENAME TO "${table}";
    ${indexes.map((index) => `${index};`).join("\n")}`);
}

/** The end of a CREATE TABLE statement with `clause` added before its closing parenthesis. */
export const withClause = (clause: string) => (sql: string) => sql.replace(/\)\s*$/, `, ${clause})`);

/** The CREATE statement with `from` replaced by `to` (once). */
export const replaced = (from: string, to: string) => (sql: string) => sql.replace(from, to);
