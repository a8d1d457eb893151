import type { Static, TObject } from "@sinclair/typebox";
import { getTableColumns, type Table } from "drizzle-orm";

/**
 * The row values an admin form gives: every column its schema declares and nothing else a client
 * sends (an `id` or a date the server sets never reaches the row). Text for a column that may be
 * empty is trimmed and stored as null when blank or absent, so a field added to the table and the
 * form is saved without a line here.
 */
export function rowValues<T extends Table, S extends TObject>(
  table: T,
  schema: S,
  input: Static<S>,
): Required<Pick<Static<S>, keyof Static<S> & keyof T["$inferInsert"]>> {
  const columns = getTableColumns(table);
  const sent = input as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const column = columns[key];
    if (!column) continue;
    const value = sent[key];
    if (!column.notNull && (value === undefined || value === null || typeof value === "string"))
      values[key] = typeof value === "string" && value.trim() !== "" ? value.trim() : null;
    else if (key in sent) values[key] = value;
  }
  return values as Required<Pick<Static<S>, keyof Static<S> & keyof T["$inferInsert"]>>;
}
