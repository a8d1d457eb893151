import { join } from "node:path";
import { Elysia, t } from "elysia";
import type { Db } from "#server/db/types.ts";
import { fileAnswer } from "#server/lib/file-answer.ts";
import type { Logger } from "#server/logger.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { servedUpload } from "./registry.ts";
import { storeOf } from "./store.ts";
import { CONTENT_TYPES, isFinishedUpload, ORIGINAL_UPLOAD_NAME, UPLOAD_COPY_NAME } from "./uploads.ts";

/** A file of the bucket brought here; a bucket out of reach is a 503 to retry, never a 500. */
async function bring(dir: string, name: string, logger: Pick<Logger, "error">): Promise<boolean> {
  try {
    return await storeOf(dir).bring(dir, name);
  } catch (error) {
    logger.error("could not fetch an upload from the bucket", { error });
    throw new HttpError(503, "The file could not be fetched from storage just now. Please try again.", undefined, {
      "retry-after": "30",
    });
  }
}

export function uploadRoutes(dir: string, db: Db, logger: Pick<Logger, "error">) {
  return new Elysia({ name: "uploads" }).get(
    "/uploads/:name",
    async ({ params, request }) => {
      // Only finished uploads: never a temporary name, never an empty file. Kept in a bucket:
      // only the files of uploads the library lists (a deleted one's may linger a moment in this
      // folder or the bucket), fetched into this instance's folder the first time it is asked for.
      const name = params.name;
      // A name longer than any the server makes is no file either: 404, never a 422.
      if (name.length > 64) throw new HttpError(404, "No such file.");
      const known = ORIGINAL_UPLOAD_NAME.test(name) || UPLOAD_COPY_NAME.test(name);
      if (storeOf(dir).kind === "bucket" && !(known && (await servedUpload(db, dir, name))))
        throw new HttpError(404, "No such file.");
      if (!isFinishedUpload(dir, name) && !(known && (await bring(dir, name, logger))))
        throw new HttpError(404, "No such file.");
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
    { params: t.Object({ name: t.String() }) },
  );
}
