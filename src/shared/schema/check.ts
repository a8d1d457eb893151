import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { type FieldProblem, fieldProblems } from "./field-problems.ts";

/** Every problem of a value against a schema; empty when it matches. */
export function checkSchema(schema: TSchema, value: unknown): FieldProblem[] {
  return Value.Check(schema, value) ? [] : fieldProblems(Value.Errors(schema, value));
}
