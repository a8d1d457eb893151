import type { TSchema } from "@sinclair/typebox";
import { checkSchema } from "#shared/schema/check.ts";
import { messagesByField } from "#shared/schema/field-problems.ts";

/** The form's problems keyed by field: the same schema, messages and field names as the server's 422. */
export function formErrors(schema: TSchema, value: unknown): Record<string, string> {
  return messagesByField(checkSchema(schema, value));
}
