// Every table is declared once (src/server/features/*/table.ts) and built with SQLite's or
// PostgreSQL's column helpers (db/columns.ts). Code above the tables is typed through SQLite's
// build, so both builds must give every table the same row type: checked here at compile time
// for every helper, in every combination a table uses, and at run time for every real table.
import { describe, expect, expectTypeOf, test } from "bun:test";
import type { InferInsertModel, InferSelectModel } from "drizzle-orm";
import { dialect } from "#server/db/dialect.ts";
import { tableShapes } from "#tests/support/table-shapes.ts";
import * as pg from "./columns-pg.ts";
import * as sqlite from "./columns-sqlite.ts";

type Shape = { kind: "a" | "b"; list: string[] };

// One column of every helper, bare, required and with a default, declared with each dialect's
// helpers: the same text twice, because one function cannot be typed with both sets at once.
function sqliteColumns() {
  const c = sqlite;
  return {
    serialId: c.serialId("serial_id"),
    text: c.text("text"),
    textRequired: c.text("text_required").notNull(),
    textDefault: c.text("text_default").notNull().default(""),
    textEnum: c.textEnum("text_enum", ["x", "y"]),
    textEnumRequired: c.textEnum("text_enum_required", ["x", "y"]).notNull().default("x"),
    integer: c.integer("integer"),
    integerRequired: c.integer("integer_required").notNull(),
    integerDefault: c.integer("integer_default").notNull().default(0),
    boolean: c.boolean("boolean"),
    booleanDefault: c.boolean("boolean_default").notNull().default(false),
    timestamp: c.timestamp("timestamp"),
    timestampRequired: c.timestamp("timestamp_required").notNull(),
    timestampNow: c.timestampNow("timestamp_now"),
    json: c.json<Shape>("json"),
    jsonDefault: c.json<string[]>("json_default").notNull().default([]),
  };
}
function pgColumns() {
  const c = pg;
  return {
    serialId: c.serialId("serial_id"),
    text: c.text("text"),
    textRequired: c.text("text_required").notNull(),
    textDefault: c.text("text_default").notNull().default(""),
    textEnum: c.textEnum("text_enum", ["x", "y"]),
    textEnumRequired: c.textEnum("text_enum_required", ["x", "y"]).notNull().default("x"),
    integer: c.integer("integer"),
    integerRequired: c.integer("integer_required").notNull(),
    integerDefault: c.integer("integer_default").notNull().default(0),
    boolean: c.boolean("boolean"),
    booleanDefault: c.boolean("boolean_default").notNull().default(false),
    timestamp: c.timestamp("timestamp"),
    timestampRequired: c.timestamp("timestamp_required").notNull(),
    timestampNow: c.timestampNow("timestamp_now"),
    json: c.json<Shape>("json"),
    jsonDefault: c.json<string[]>("json_default").notNull().default([]),
  };
}

const sqliteProbe = sqlite.table("probe", sqliteColumns());
const pgProbe = pg.table("probe", pgColumns());
const sqliteKeyed = sqlite.table("keyed", { id: sqlite.textId("id"), one: sqlite.oneRowId("one") });
const pgKeyed = pg.table("keyed", { id: pg.textId("id"), one: pg.oneRowId("one") });

describe("the column helpers give one row type on both databases", () => {
  test("what a select answers and what an insert takes are the same types", () => {
    expectTypeOf<InferSelectModel<typeof pgProbe>>().toEqualTypeOf<InferSelectModel<typeof sqliteProbe>>();
    expectTypeOf<InferInsertModel<typeof pgProbe>>().toEqualTypeOf<InferInsertModel<typeof sqliteProbe>>();
    expectTypeOf<InferSelectModel<typeof pgKeyed>>().toEqualTypeOf<InferSelectModel<typeof sqliteKeyed>>();
    expectTypeOf<InferInsertModel<typeof pgKeyed>>().toEqualTypeOf<InferInsertModel<typeof sqliteKeyed>>();
    // And the types are the ones meant, not two equal mistakes.
    expectTypeOf<InferSelectModel<typeof sqliteProbe>["timestamp"]>().toEqualTypeOf<Date | null>();
    expectTypeOf<InferSelectModel<typeof sqliteProbe>["json"]>().toEqualTypeOf<Shape | null>();
    expectTypeOf<InferSelectModel<typeof sqliteProbe>["booleanDefault"]>().toEqualTypeOf<boolean>();
    expectTypeOf<InferSelectModel<typeof sqliteProbe>["textEnum"]>().toEqualTypeOf<"x" | "y" | null>();
    expectTypeOf<InferInsertModel<typeof sqliteProbe>["serialId"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<InferInsertModel<typeof sqliteKeyed>["one"]>().toEqualTypeOf<number | undefined>();
  });

  test("every table is the same on SQLite and PostgreSQL: columns, keys, indexes, checks, derived schemas", () => {
    expect(dialect).toBe("sqlite");
    const here = tableShapes();
    // The dialect is chosen once per process, before any table is built: PostgreSQL's build
    // is made by a child process whose DATABASE_URL selects it (nothing connects to it).
    const child = Bun.spawnSync(["bun", "tests/support/table-shapes.ts"], {
      env: { ...process.env, DATABASE_URL: "postgres://shapes.invalid/none" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(child.stderr.toString()).toBe("");
    const there = JSON.parse(child.stdout.toString()) as ReturnType<typeof tableShapes>;
    expect(there.dialect).toBe("postgresql");
    expect(Object.keys(there.shapes).sort()).toEqual(Object.keys(here.shapes).sort());
    expect(Object.keys(here.shapes)).toContain("blogPosts");
    for (const name of Object.keys(here.shapes)) {
      expect({ table: name, ...(there.shapes[name] as object) }).toEqual({
        table: name,
        ...(here.shapes[name] as object),
      });
    }
  });
});
