import { HttpError } from "./errors.ts";

export const JSON_BODY_LIMIT = 16 * 1024;

/**
 * A route-level body parser for the public JSON API: only application/json, at most
 * `limit` bytes (refused as soon as the count passes it, whether or not a
 * Content-Length was sent), and a 400 with a clear message for malformed JSON.
 */
export function jsonBody(limit = JSON_BODY_LIMIT) {
  return async ({ request }: { request: Request }): Promise<unknown> => {
    const type = request.headers.get("content-type") ?? "";
    if (!/^application\/json\b/i.test(type)) {
      throw new HttpError(415, "Send the body as JSON with Content-Type: application/json.");
    }
    const declared = Number(request.headers.get("content-length") ?? NaN);
    if (declared > limit) throw new HttpError(413, `The request body is larger than ${limit / 1024} KB.`);
    const reader = request.body?.getReader();
    if (!reader) throw new HttpError(400, "The request body is empty. Send a JSON object.");
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw new HttpError(413, `The request body is larger than ${limit / 1024} KB.`);
      }
      chunks.push(value);
    }
    const text = new TextDecoder().decode(Buffer.concat(chunks));
    if (text.trim() === "") throw new HttpError(400, "The request body is empty. Send a JSON object.");
    try {
      return JSON.parse(text);
    } catch {
      throw new HttpError(400, "The request body could not be read. Send valid JSON with Content-Type: application/json.");
    }
  };
}
