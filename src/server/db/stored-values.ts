import type { Database } from "bun:sqlite";
import type { TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import { type Column, getTableColumns, getTableName, is, SQL } from "drizzle-orm";
import { PgTable, getTableConfig as pgTableConfig } from "drizzle-orm/pg-core";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { consoleLogger, type Logger } from "#server/logger.ts";
import { fieldProblems } from "#shared/schema/field-problems.ts";

// What each column may hold, declared once per table (value-rules.ts), beside nothing else:
// the same rule refuses a restored database that breaks it and guards every read of a live one.
// A rule is the admin's own contract schema where the admin saves the value (the same words),
// or a schema of what the server itself writes. Each column's type adds its part: a whole
// number, 0 or 1 for yes or no, a time a Date can hold, text, one of an enum's values, JSON
// that parses.
//
// Reads: drizzle turns every value it reads into what the code uses through the column's
// mapFromDriverValue; that method is wrapped here, so no service meets a value that breaks its
// rule. A number, yes/no, time, enum or JSON that breaks it reads as its fallback (the column's
// default, else empty where it may be, else what the declaration names) with one log line;
// text (free-form by nature, escaped wherever it lands) is read as it is, and only a value that
// is not text at all is read as text. A text rule marked `whenRead` is checked on reads too.

const RULE = Symbol("stored value rule");

interface RuleOptions {
  /** Check this text column's rule on every read, not only when restored. */
  whenRead?: boolean;
  /**
   * Text the admin writes (a title, an address, a description): its rule is the one for new
   * saves, which a later release may tighten, so a restore does not refuse text an earlier
   * release accepted; the admin meets the rule again when editing it. Its type still counts.
   */
  written?: boolean;
  /** What a value that breaks the rule reads as, where the column's default is not right. */
  fallback?: unknown;
  /** A check the schema cannot say (a cron schedule croner reads): the problem in words, or null. */
  check?: (value: never) => string | null;
}

export interface Rule extends RuleOptions {
  readonly [RULE]: true;
  readonly schema: TSchema | null;
}

/** Text the admin writes, checked by `schema` when saved (see RuleOptions.written). */
export function written(schema: TSchema): Rule {
  return { [RULE]: true, schema, written: true };
}

/** Any value of the column's type: its type is the whole rule (ids, times the database sets, server-made text). */
export const ANY: Rule = { [RULE]: true, schema: null };

/** A rule with options; a bare schema is a rule too. */
export function rule(schema: TSchema | null, options: RuleOptions = {}): Rule {
  return { [RULE]: true, schema, ...options };
}

type Entry = TSchema | Rule;
const isRule = (entry: Entry): entry is Rule => RULE in entry;

/** One entry for every column of the table: adding a column without deciding its rule does not compile. */
export type ColumnRules<T extends SQLiteTable> = { [K in keyof T["_"]["columns"]]: Entry };

/** A rule across a row's columns (its values as the code reads them): the column to name and why, or null. */
type RowRule = (row: Record<string, unknown>) => { column: string; problem: string } | null;

type Kind = "integer" | "boolean" | "time" | "text" | "enum" | "json";

interface Declared {
  key: string;
  column: Column;
  kind: Kind;
  rule: Rule;
  /** Whether reads check the whole rule (else text is read as text). */
  onRead: boolean;
  /** The column's own conversion from what SQLite holds (JSON.parse, new Date, …). */
  convert: (raw: unknown) => unknown;
  fallback: () => unknown;
}

interface DeclaredTable {
  name: string;
  columns: Declared[];
  primaryKey: string[];
  row?: RowRule;
}

const declared = new Map<string, DeclaredTable>();

function kindOf(table: string, column: Column): Kind {
  switch (column.columnType) {
    case "SQLiteInteger":
      return "integer";
    case "SQLiteBoolean":
      return "boolean";
    case "SQLiteTimestamp":
      return "time";
    case "SQLiteTextJson":
      return "json";
    case "SQLiteText":
    case "PgText":
      return column.enumValues?.length ? "enum" : "text";
    // PostgreSQL's twins (db/columns-pg.ts): the database enforces their types itself.
    case "PgBigInt53":
      return "integer";
    case "PgBoolean":
      return "boolean";
    case "PgTimestamp":
      return "time";
    case "PgJsonb":
      return "json";
  }
  throw new Error(`${table}.${column.name} is a ${column.columnType} column: give its type a rule in stored-values.ts`);
}

function fallbackOf(table: string, column: Column, kind: Kind, rule: Rule): () => unknown {
  const copy = (value: unknown) => () => structuredClone(value);
  if ("fallback" in rule) return copy(rule.fallback);
  if (column.default !== undefined && !is(column.default, SQL)) return copy(column.default);
  if (!column.notNull) return () => null;
  if (kind === "integer") return () => 0;
  if (kind === "boolean") return () => false;
  if (kind === "time") return () => new Date(0);
  if (kind === "text") return () => "";
  throw new Error(`${table}.${column.name} needs a declared fallback: it is required and has no default`);
}

/**
 * Declares what every column of `table` may hold (see the top of this file); `row` adds a rule
 * across columns. From here on every read of the table is checked.
 */
export function storedValues<T extends SQLiteTable>(table: T, rules: ColumnRules<T>, row?: RowRule): void {
  const name = getTableName(table);
  const columns = Object.entries(getTableColumns(table)).map(([key, column]): Declared => {
    const entry = (rules as Record<string, Entry | undefined>)[key];
    if (!entry) throw new Error(`${name}.${column.name} has no stored-value rule`);
    const rule = isRule(entry) ? entry : { [RULE]: true as const, schema: entry };
    const kind = kindOf(name, column);
    const convert = column.mapFromDriverValue.bind(column) as (raw: unknown) => unknown;
    const declaredColumn: Declared = {
      key,
      column,
      kind,
      rule,
      onRead: kind !== "text" || rule.whenRead === true,
      convert,
      fallback: fallbackOf(name, column, kind, rule),
    };
    (column as { mapFromDriverValue: (raw: unknown) => unknown }).mapFromDriverValue = (raw) =>
      readValue(name, declaredColumn, raw);
    return declaredColumn;
  });
  // A table built for PostgreSQL (db/columns.ts) is typed as SQLite's; its config is pg-core's.
  const config = is(table, PgTable) ? pgTableConfig(table as unknown as PgTable) : getTableConfig(table);
  const primaryKey =
    config.primaryKeys[0]?.columns.map((c) => c.name) ?? config.columns.filter((c) => c.primary).map((c) => c.name);
  declared.set(name, { name, columns, primaryKey, row });
}

/** The tables declared so far, by name (value-rules.ts declares every one). */
export function declaredTables(): string[] {
  return [...declared.keys()].sort();
}

const MAX_TIME = 8.64e15;

/** What is wrong with a value the database holds for its column's type, or null. */
function typeProblem(d: Declared, raw: unknown): string | null {
  if (d.column.columnType.startsWith("Pg")) return pgTypeProblem(d, raw);
  switch (d.kind) {
    case "integer":
      return Number.isSafeInteger(raw) ? null : "is not a whole number";
    case "boolean":
      return raw === 0 || raw === 1 ? null : "is not 0 or 1 (no or yes)";
    case "time":
      return Number.isSafeInteger(raw) && Math.abs(raw as number) <= MAX_TIME
        ? null
        : "is not a time (milliseconds since 1970)";
    case "enum":
      return typeof raw === "string" && d.column.enumValues!.includes(raw)
        ? null
        : `is not one of ${d.column.enumValues!.join(", ")}`;
    default:
      return typeof raw === "string" ? null : "is not text";
  }
}

/**
 * The same on PostgreSQL, where a column holds only values of its type (the driver gives a bigint
 * as a number or its digits, a timestamp as text): what is left to check is a whole number past
 * what a number holds exactly, and text outside an enum's values (text carries no CHECK there).
 */
function pgTypeProblem(d: Declared, raw: unknown): string | null {
  switch (d.kind) {
    case "integer":
      return Number.isSafeInteger(Number(raw)) ? null : "is not a whole number JavaScript holds exactly";
    case "boolean":
      return typeof raw === "boolean" ? null : "is not true or false";
    case "time":
      return typeof raw === "string" || raw instanceof Date ? null : "is not a time";
    case "enum":
      return typeof raw === "string" && d.column.enumValues!.includes(raw)
        ? null
        : `is not one of ${d.column.enumValues!.join(", ")}`;
    case "json":
      return null;
    default:
      return typeof raw === "string" ? null : "is not text";
  }
}

type Checked = { ok: true; value: unknown } | { ok: false; problem: string };

/** The value as the code reads it when it keeps every rule of its column, else what is wrong. */
function checkValue(d: Declared, raw: unknown): Checked {
  if (raw === null) return d.column.notNull ? { ok: false, problem: "is empty" } : { ok: true, value: null };
  const problem = typeProblem(d, raw);
  if (problem) return { ok: false, problem };
  let value: unknown;
  try {
    value = d.convert(raw);
  } catch {
    return { ok: false, problem: "is not valid JSON" };
  }
  const { schema, check } = d.rule;
  if (schema && !compiled(schema).Check(value)) {
    const [first] = fieldProblems(Value.Errors(schema, value));
    const where = first && first.field !== "(body)" ? `${first.field}: ` : "";
    return { ok: false, problem: `is not a value cam-guide saves (${where}${sentence(first?.message)})` };
  }
  const extra = check?.(value as never);
  return extra ? { ok: false, problem: `is not a value cam-guide saves (${sentence(extra)})` } : { ok: true, value };
}

/** As checkValue, but text the admin writes needs only to be text (see RuleOptions.written). */
function checkRestored(d: Declared, raw: unknown): Checked {
  if (!(d.kind === "text" && d.rule.written)) return checkValue(d, raw);
  if (raw === null) return d.column.notNull ? { ok: false, problem: "is empty" } : { ok: true, value: null };
  const problem = typeProblem(d, raw);
  return problem ? { ok: false, problem } : { ok: true, value: raw };
}

const checkers = new WeakMap<TSchema, TypeCheck<TSchema>>();

/** The schema compiled once: restore and backups check every row of every table with it. */
function compiled(schema: TSchema): TypeCheck<TSchema> {
  let checker = checkers.get(schema);
  if (!checker) {
    checker = TypeCompiler.Compile(schema);
    checkers.set(schema, checker);
  }
  return checker;
}

const sentence = (message = "it breaks the column's rule") => message.replace(/\.$/, "");

// ---------------------------------------------------------------------------------------
// Reads

let logger: Logger = consoleLogger;
const told = new Set<string>();

/** Where the one line per column that held a value it breaks goes (the console unless a test says). */
export function logStoredValuesTo(target: Logger): void {
  logger = target;
  told.clear();
}

function shown(value: unknown): string {
  if (value === null) return "empty (the default)";
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

function readValue(table: string, d: Declared, raw: unknown): unknown {
  if (!d.onRead) {
    if (typeof raw === "string") return raw;
    tell(table, d, "is not text", "read as text");
    return raw instanceof Uint8Array ? new TextDecoder().decode(raw) : String(raw);
  }
  const checked = checkValue(d, raw);
  if (checked.ok) return checked.value;
  const fallback = d.fallback();
  tell(table, d, checked.problem, `read as ${shown(fallback)}`);
  return fallback;
}

/** One line per column and process: the column may be read on every request. */
function tell(table: string, d: Declared, problem: string, read: string): void {
  const where = `${table}.${d.column.name}`;
  if (told.has(where)) return;
  told.add(where);
  logger.warn(`stored value: ${where} ${problem}; ${read} until it is saved again`);
}

// ---------------------------------------------------------------------------------------
// A database about to replace the live one

function rowName(table: DeclaredTable, row: Record<string, unknown>): string {
  const value = (v: unknown) =>
    typeof v === "string" ? JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v) : String(v);
  const names = table.primaryKey.length > 0 ? table.primaryKey : Object.keys(row).slice(0, 1);
  return names.map((name) => `${name} ${value(row[name])}`).join(", ");
}

/**
 * Null when every value of every declared table keeps its column's rule, else the first that
 * does not, naming the table, the row (its key) and the column, as the end of a sentence ("The
 * database in the backup <problem>"), and how many more there are.
 */
export function storedValueProblem(sqlite: Database): string | null {
  let first: string | null = null;
  let more = 0;
  for (const name of declaredTables()) {
    const table = declared.get(name)!;
    for (const row of sqlite.query(`SELECT * FROM "${name}"`).iterate() as Iterable<Record<string, unknown>>) {
      const values: Record<string, unknown> = {};
      let broken = false;
      for (const d of table.columns) {
        const checked = checkRestored(d, row[d.column.name]);
        if (checked.ok) {
          values[d.key] = checked.value;
          continue;
        }
        broken = true;
        if (first === null)
          first = `has a row in ${name} (${rowName(table, row)}) whose ${d.column.name} ${checked.problem}`;
        else more++;
      }
      const across = broken ? null : table.row?.(values);
      if (!across) continue;
      if (first === null)
        first = `has a row in ${name} (${rowName(table, row)}) whose ${across.column} ${across.problem}`;
      else more++;
    }
  }
  if (first === null) return null;
  return more === 0 ? first : `${first} (and ${more} more value${more === 1 ? "" : "s"} cam-guide would not save)`;
}

/**
 * Writes into a copy of the database (a backup's snapshot) what the server reads in place of
 * each number, yes/no, time, enum or JSON value that breaks its rule, so the backup holds the
 * values the site runs on and restores. Text is left as it is. Answers the columns changed.
 */
export function settleStoredValues(sqlite: Database): string[] {
  const changed = new Set<string>();
  for (const name of declaredTables()) {
    const table = declared.get(name)!;
    // A copy of an older release's database (the backup a start takes before migrating) lacks
    // the tables and columns later migrations add: only what it has is checked.
    const present = new Set(
      (sqlite.query(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((column) => column.name),
    );
    const checked = table.columns.filter((d) => d.onRead && present.has(d.column.name));
    if (checked.length === 0) continue;
    const fixes: [column: Declared, rowid: number][] = [];
    // Named, or SQLite would call it after an INTEGER PRIMARY KEY column (id) that stands for it.
    const rows = sqlite.query(`SELECT rowid AS "row's id", * FROM "${name}"`).iterate();
    for (const row of rows as Iterable<Record<string, unknown>>)
      for (const d of checked) if (!checkValue(d, row[d.column.name]).ok) fixes.push([d, row["row's id"] as number]);
    // One transaction per table: row by row, each update would wait for its own write to the
    // disk, and a table of a million results with a wrong value took many minutes.
    sqlite.transaction(() => {
      for (const [d, rowid] of fixes) {
        const fallback = d.fallback();
        const raw = fallback === null ? null : d.column.mapToDriverValue(fallback);
        sqlite.query(`UPDATE "${name}" SET "${d.column.name}" = ? WHERE rowid = ?`).run(raw as never, rowid);
        changed.add(`${name}.${d.column.name}`);
      }
    })();
  }
  return [...changed].sort();
}
