// What each table looks like to the code above it, whichever dialect built it: its columns'
// row types (data type, nullability, default, enum values), its keys, indexes and checks, and
// the TypeBox schemas the shared contracts derive from it. columns.test.ts compares SQLite's
// with PostgreSQL's, which a child process builds (the dialect is chosen once per process).
import { is, Table } from "drizzle-orm";
import { PgTable, getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import { createInsertSchema, createSelectSchema } from "drizzle-typebox";
import { dialect } from "#server/db/dialect.ts";
import * as schema from "#server/db/schema.ts";

interface TableConfig {
  name: string;
  columns: {
    name: string;
    dataType: string;
    notNull: boolean;
    hasDefault: boolean;
    primary: boolean;
    isUnique: boolean;
    enumValues?: string[];
  }[];
  foreignKeys: {
    reference(): { columns: { name: string }[]; foreignColumns: { name: string; table: unknown }[] };
    onDelete?: string;
    onUpdate?: string;
  }[];
  indexes: { config: { name?: string; unique: boolean; columns: unknown[] } }[];
  checks: { name: string }[];
  primaryKeys: { columns: { name: string }[] }[];
}

function config(table: unknown): TableConfig {
  return (table instanceof PgTable ? pgConfig(table) : sqliteConfig(table as never)) as unknown as TableConfig;
}

const nameOf = (table: unknown) => config(table).name;

export function tableShapes() {
  const shapes: Record<string, unknown> = {};
  for (const [key, table] of Object.entries(schema)) {
    if (!is(table, Table)) continue;
    const c = config(table);
    shapes[key] = {
      name: c.name,
      columns: Object.fromEntries(
        c.columns.map((col) => [
          col.name,
          {
            dataType: col.dataType,
            notNull: col.notNull,
            hasDefault: col.hasDefault,
            primary: col.primary,
            unique: col.isUnique,
            enumValues: col.enumValues ?? null,
          },
        ]),
      ),
      foreignKeys: c.foreignKeys.map((fk) => {
        const ref = fk.reference();
        return {
          columns: ref.columns.map((x) => x.name),
          to: nameOf(ref.foreignColumns[0]?.table),
          foreignColumns: ref.foreignColumns.map((x) => x.name),
          onDelete: fk.onDelete ?? "no action",
          onUpdate: fk.onUpdate ?? "no action",
        };
      }),
      indexes: c.indexes
        .map((i) => ({
          name: i.config.name,
          unique: i.config.unique,
          columns: i.config.columns.map((x) => (x as { name?: string }).name ?? "(an expression)"),
        }))
        .sort((a, b) => String(a.name).localeCompare(String(b.name))),
      checks: c.checks.map((x) => x.name).sort(),
      primaryKeys: c.primaryKeys.map((pk) => pk.columns.map((x) => x.name)),
      select: JSON.parse(JSON.stringify(createSelectSchema(table as never))),
      insert: JSON.parse(JSON.stringify(createInsertSchema(table as never))),
    };
  }
  return { dialect, shapes };
}

if (import.meta.main) process.stdout.write(JSON.stringify(tableShapes()));
