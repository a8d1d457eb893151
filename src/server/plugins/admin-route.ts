import type { TSchema } from "@sinclair/typebox";
import { t } from "elysia";
import { jsonBody } from "./json-body.ts";

// A post's HTML can be long; every other admin body is far smaller.
const ADMIN_BODY_LIMIT = 256 * 1024;

/** An admin route's body: JSON, checked against `schema` as sent, at most 256 KB. */
export function adminJson<S extends TSchema>(schema: S) {
  return { parse: jsonBody(schema, ADMIN_BODY_LIMIT), body: schema };
}

export const NumericId = t.Object({ id: t.String({ pattern: "^\\d{1,9}$", error: "The id must be a whole number." }) });
export const TextId = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });
