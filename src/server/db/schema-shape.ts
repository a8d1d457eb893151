import type { Database } from "bun:sqlite";

// The whole shape of a database, compared with the one this release's migrations make: every
// table (its columns: name, type, NOT NULL, default, primary key, generated; its foreign keys,
// its indexes and constraints), every index (which columns, in which order and collation,
// unique or partial), every trigger and view. A restored database with a CHECK constraint or
// an index of its own would refuse or slow down the site's own writes; a trigger would run on
// a visitor's. Constraints have no pragma of their own: they are compared in the CREATE
// statement SQLite keeps, with spacing made uniform.

interface SchemaObject {
  type: string;
  name: string;
  tbl: string;
  sql: string | null;
}

function objects(db: Database): Map<string, SchemaObject> {
  const rows = db
    .query("SELECT type, name, tbl_name AS tbl, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as SchemaObject[];
  return new Map(rows.map((row) => [row.name, row]));
}

/** A CREATE statement with its spacing made uniform; case, quoting and every word are kept. */
function normalise(sql: string | null): string {
  return (sql ?? "")
    .replace(/\s+/g, " ")
    .replace(/ ?([(),]) ?/g, "$1")
    .trim();
}

const a = (type: string) => `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface Column {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}

/** The first way `actual`'s columns of `table` differ from `expected`'s, as words, or null. */
function columnDifference(actual: Database, expected: Database, table: string): string | null {
  const columns = (db: Database) => db.query(`PRAGMA table_xinfo(${quoted(table)})`).all() as Column[];
  const have = columns(actual);
  const want = columns(expected);
  const named = new Map(have.map((column) => [column.name, column]));
  for (const column of want) if (!named.has(column.name)) return `column ${column.name} is missing`;
  const known = new Set(want.map((column) => column.name));
  for (const column of have)
    if (!known.has(column.name)) return `it has a column ${column.name} cam-guide never creates`;
  for (const [i, w] of want.entries()) {
    const h = named.get(w.name)!;
    const shown = (value: string | null) => value ?? "none";
    if (h.type !== w.type) return `column ${w.name} is ${h.type || "untyped"}, not ${w.type || "untyped"}`;
    if (h.notnull !== w.notnull) return `column ${w.name} ${h.notnull ? "refuses" : "allows"} NULL`;
    if (h.dflt_value !== w.dflt_value)
      return `column ${w.name} has the default ${shown(h.dflt_value)}, not ${shown(w.dflt_value)}`;
    if (h.pk !== w.pk) return `column ${w.name} is ${h.pk ? "" : "not "}in the primary key`;
    if (h.hidden !== w.hidden) return `column ${w.name} is generated differently`;
    if (have[i]!.name !== w.name) return "its columns are in another order";
  }
  return null;
}

/** The indexes SQLite lists for `table` (its own, and those its UNIQUE and PRIMARY KEY constraints make), by name. */
function indexList(db: Database, table: string): Map<string, string> {
  const rows = db.query(`PRAGMA index_list(${quoted(table)})`).all() as {
    name: string;
    unique: number;
    origin: string;
    partial: number;
  }[];
  return new Map(
    rows.map((row) => [row.name, `${row.unique} ${row.origin} ${row.partial} ${indexColumns(db, row.name)}`]),
  );
}

function indexColumns(db: Database, index: string): string {
  const rows = db.query(`PRAGMA index_xinfo(${quoted(index)})`).all() as {
    cid: number;
    name: string | null;
    desc: number;
    coll: string;
    key: number;
  }[];
  return rows
    .filter((row) => row.key)
    .map((row) => `${row.name ?? `expression ${row.cid}`}${row.desc ? " DESC" : ""} ${row.coll}`)
    .join(", ");
}

function tableDifference(actual: Database, expected: Database, table: SchemaObject, got: SchemaObject): string | null {
  const columns = columnDifference(actual, expected, table.name);
  if (columns) return `columns differ from cam-guide's (${columns})`;
  const keys = (db: Database) => JSON.stringify(db.query(`PRAGMA foreign_key_list(${quoted(table.name)})`).all());
  if (keys(actual) !== keys(expected)) return "foreign keys differ from cam-guide's";
  const have = indexList(actual, table.name);
  const want = indexList(expected, table.name);
  const differs = [...want.keys(), ...have.keys()].find((name) => have.get(name) !== want.get(name));
  if (differs) return `index ${differs} differs from cam-guide's (unique, partial, or on other columns)`;
  if (normalise(got.sql) !== normalise(table.sql))
    return "definition differs from cam-guide's (a CHECK, UNIQUE or other constraint, or a constraint's name)";
  return null;
}

/**
 * Null when `actual` has exactly the shape `expected` (this release's migrations) has, else
 * the first difference as the end of a sentence naming the object ("The database in the
 * backup <difference>").
 */
export function schemaDifference(actual: Database, expected: Database): string | null {
  const have = objects(actual);
  const want = objects(expected);
  for (const [name, object] of have)
    if (!want.has(name)) return `holds ${a(object.type)} cam-guide never creates (${name})`;
  const missing = [...want.values()].filter((object) => object.type === "table" && !have.has(object.name));
  if (missing.length > 0) return `is missing cam-guide tables (${missing.map((object) => object.name).join(", ")})`;
  for (const [name, object] of want) {
    const got = have.get(name);
    if (!got) return `is missing cam-guide's ${object.type} ${name} (on ${object.tbl})`;
    if (got.type !== object.type) return `has ${a(got.type)} named ${name} where cam-guide has ${a(object.type)}`;
    if (got.tbl !== object.tbl)
      return `has the ${object.type} ${name} on ${got.tbl}, where cam-guide has it on ${object.tbl}`;
  }
  // Indexes, triggers and views first: a table whose index changed is named by the index.
  for (const [name, object] of want) {
    const got = have.get(name)!;
    if (object.type === "table" || normalise(got.sql) === normalise(object.sql)) continue;
    const columns =
      object.type === "index" && indexColumns(actual, name) !== indexColumns(expected, name)
        ? ` (on ${indexColumns(actual, name) || "nothing"}, where cam-guide's is on ${indexColumns(expected, name)})`
        : "";
    return `has ${a(object.type)} ${name} defined differently from cam-guide's${columns}`;
  }
  for (const [name, object] of want) {
    if (object.type !== "table") continue;
    const difference = tableDifference(actual, expected, object, have.get(name)!);
    if (difference) return `has a table ${name} whose ${difference}`;
  }
  return null;
}
