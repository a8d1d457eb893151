import type { TObject, TOptional, TSchema } from "@sinclair/typebox";
import type { Table } from "drizzle-orm";
import { type BuildRefine, type BuildSchema, createInsertSchema, type NoUnknownKeys } from "drizzle-typebox";

// What the admin saves into a table is derived from the table itself (drizzle-typebox): each
// column gives its field, its type and whether it may be null or left out; a refinement adds the
// product's rule where it has one (a length, a pattern, a message).

/** The columns an insert may leave out: nullable ones and ones with a default (drizzle's own insert type knows them). */
type LeftOut<Row> = { [K in keyof Row]-?: object extends Pick<Row, K> ? K : never }[keyof Row];

type Refinements<T extends Table> = BuildRefine<Pick<T["_"]["columns"], keyof T["$inferInsert"]>>;

type Built<T extends Table, R extends Record<string, unknown>> = BuildSchema<
  "insert",
  T["_"]["columns"],
  R
>["properties"];

/**
 * drizzle-typebox 0.3's insert schema, typed as it checks: a column refined by a function that
 * may be left out is optional (the schema wraps it in Optional; its declared type forgets to).
 */
type InsertSchema<T extends Table, R extends Record<string, unknown>> = TObject<{
  [K in keyof Built<T, R>]: K extends keyof R
    ? R[K] extends (schema: never) => TSchema
      ? K extends LeftOut<T["$inferInsert"]>
        ? TOptional<Built<T, R>[K]>
        : Built<T, R>[K]
      : Built<T, R>[K]
    : Built<T, R>[K];
}>;

/**
 * A row as the admin writes it: the table's insert schema with the product's rules. A refinement
 * that is a function (`upTo(500)`) refines the column's own schema, and the table adds null and
 * "may be left out" where the column allows them; one that is a schema replaces the field whole.
 */
export function insertSchema<T extends Table, R extends Refinements<T>>(
  table: T,
  refine: NoUnknownKeys<R, T["$inferInsert"]>,
): InsertSchema<T, R> {
  // The overloads cannot see through the generic refinement; the result is typed above.
  const build = createInsertSchema as (table: Table, refine: unknown) => TSchema;
  return build(table, refine) as InsertSchema<T, R>;
}
