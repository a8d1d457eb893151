import { join } from "node:path";
import { Elysia, t } from "elysia";
import { fileAnswer } from "#server/lib/file-answer.ts";
import type { Logger } from "#server/logger.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { CONTENT_TYPES, isFinishedUpload } from "./uploads.ts";

export function uploadRoutes(dir: string, logger: Pick<Logger, "error">) {
  return new Elysia({ name: "uploads" }).get(
    "/uploads/:name",
    async ({ params, request }) => {
      // Only finished uploads: never a temporary name, never an empty file.
      if (!isFinishedUpload(dir, params.name)) throw new HttpError(404, "No such file.");
      const headers = {
        "content-type": CONTENT_TYPES[params.name.split(".").pop()!]!,
        // Names are never reused, so the file can be cached for good.
        "cache-control": "public, max-age=31536000, immutable",
        "accept-ranges": "bytes",
        "content-disposition": "inline",
      };
      // Deleted meanwhile: not there. Out of file descriptors: a 503 to retry, never a 500.
      const answer = await fileAnswer(join(dir, params.name), request, headers, logger);
      if (!answer) throw new HttpError(404, "No such file.");
      return answer;
    },
    { params: t.Object({ name: t.String({ maxLength: 64 }) }) },
  );
}
