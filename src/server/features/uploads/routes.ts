import { join } from "node:path";
import { Elysia, t } from "elysia";
import { HttpError } from "#server/plugins/errors.ts";
import { parseRange } from "#server/plugins/static.ts";
import { CONTENT_TYPES, isFinishedUpload } from "./service.ts";

export function uploadRoutes(dir: string) {
  return new Elysia({ name: "uploads" }).get(
    "/uploads/:name",
    async ({ params, request }) => {
      // Only finished uploads: never a temporary name, never an empty file.
      if (!isFinishedUpload(dir, params.name)) throw new HttpError(404, "No such file.");
      const file = Bun.file(join(dir, params.name));
      const type = CONTENT_TYPES[params.name.split(".").pop()!]!;
      const headers: Record<string, string> = {
        "content-type": type,
        // Names are never reused, so the file can be cached for good.
        "cache-control": "public, max-age=31536000, immutable",
        "accept-ranges": "bytes",
        "content-disposition": "inline",
      };
      const range = parseRange(request.headers.get("range"), file.size);
      if (range === "invalid")
        return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${file.size}` } });
      if (range) {
        return new Response(file.slice(range.start, range.end + 1), {
          status: 206,
          headers: { ...headers, "content-range": `bytes ${range.start}-${range.end}/${file.size}` },
        });
      }
      return new Response(file, { headers });
    },
    { params: t.Object({ name: t.String({ maxLength: 64 }) }) },
  );
}
