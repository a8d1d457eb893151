import type { TSchema } from "@sinclair/typebox";
import { readBody } from "#server/lib/request-body.ts";
import { firstUnshowable } from "#server/lib/xml.ts";
import { checkSchema } from "#shared/schema/check.ts";
import type { FieldProblem } from "#shared/schema/field-problems.ts";
import { HttpError } from "./errors.ts";

export const JSON_BODY_LIMIT = 16 * 1024;

/**
 * Reads a body, giving up with 413 as soon as it passes `limit` (chunked bodies have no
 * length) and with 408 when it arrives too slowly (lib/request-body.ts).
 */
export function readBodyLimited(request: Request, limit: number, tooLarge: string): Promise<Uint8Array<ArrayBuffer>> {
  return readBody(request, { limit, tooLarge });
}

/** Every string in a parsed body holding a character stored text must not carry, by field. */
function unshowableProblems(body: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // A loop, not recursion: a body may nest deeper than the call stack.
  const pending: [unknown, string][] = [[body, ""]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === "string") {
      const found = firstUnshowable(value);
      if (found)
        problems.push({
          field: path || "(body)",
          message: `Contains an invisible control character (${found}): remove it`,
        });
    } else if (value !== null && typeof value === "object") {
      for (const [key, inner] of Object.entries(value).reverse()) pending.push([inner, path ? `${path}.${key}` : key]);
    }
  }
  return problems;
}

/**
 * A route-level body parser for the public JSON API: only application/json, at most
 * `limit` bytes (refused as soon as the count passes it, whether or not a
 * Content-Length was sent), and a 400 with a clear message for malformed JSON. With a
 * schema, the body is checked as sent, before Elysia's coercion could turn a string
 * into a list: anything that does not match is a 422, and so is a string holding a
 * control character (they break feeds and are never typed on purpose).
 */
export function jsonBody(schema?: TSchema, limit = JSON_BODY_LIMIT) {
  return async ({ request }: { request: Request }): Promise<unknown> => {
    const type = request.headers.get("content-type") ?? "";
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new HttpError(415, "Send the body as JSON with Content-Type: application/json.");
    }
    const tooLarge = `The request body is larger than ${limit / 1024} KB.`;
    const declared = Number(request.headers.get("content-length") ?? NaN);
    if (declared > limit) throw new HttpError(413, tooLarge);
    const text = new TextDecoder().decode(await readBodyLimited(request, limit, tooLarge));
    if (text.trim() === "") throw new HttpError(400, "The request body is empty. Send a JSON object.");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpError(
        400,
        "The request body could not be read. Send valid JSON with Content-Type: application/json.",
      );
    }
    const problems = schema ? checkSchema(schema, body) : [];
    for (const problem of unshowableProblems(body))
      if (!problems.some((p) => p.field === problem.field)) problems.push(problem);
    if (problems.length > 0) throw new HttpError(422, "Some fields are missing or invalid.", problems);
    return body;
  };
}
