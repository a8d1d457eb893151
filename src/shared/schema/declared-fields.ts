import type { Static, TObject } from "@sinclair/typebox";

/** The value's fields that the schema declares, and no others: a record as the form that edits it holds it. */
export function declaredFields<S extends TObject>(schema: S, value: Static<S>): Static<S> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties))
    if (key in value) fields[key] = (value as Record<string, unknown>)[key];
  return fields as Static<S>;
}
