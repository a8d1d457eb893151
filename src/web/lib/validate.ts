import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

/** The first message for each field, with the same schema and messages as the server. */
export function fieldErrors(schema: TSchema, value: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const error of Value.Errors(schema, value)) {
    const field = error.path.replace(/^\//, "").split("/")[0] || "form";
    if (errors[field]) continue;
    errors[field] = typeof error.schema.error === "string" ? error.schema.error : error.message;
  }
  return errors;
}
