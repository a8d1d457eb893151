import { Elysia, t } from "elysia";
import { join } from "node:path";
import type { Db } from "#server/db/client.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { parseRange } from "#server/plugins/static.ts";
import { readBodyLimited } from "#server/plugins/json-body.ts";
import { adminGuard } from "#server/features/auth/guard.ts";
import { CONTENT_TYPES, MAX_UPLOAD_REQUEST, storeUpload, UPLOAD_NAME } from "./service.ts";

export interface UploadOptions {
  dir: string;
  secret: string;
  allowedOrigins: (request: Request) => string[];
}

export function uploadRoutes(db: Db, { dir, secret, allowedOrigins }: UploadOptions) {
  return new Elysia({ name: "uploads" })
    .get(
      "/uploads/:name",
      async ({ params, request }) => {
        if (!UPLOAD_NAME.test(params.name)) throw new HttpError(404, "No such file.");
        const file = Bun.file(join(dir, params.name));
        if (!(await file.exists())) throw new HttpError(404, "No such file.");
        const type = CONTENT_TYPES[params.name.split(".").pop()!]!;
        const headers: Record<string, string> = {
          "content-type": type,
          // Names are never reused, so the file can be cached for good.
          "cache-control": "public, max-age=31536000, immutable",
          "accept-ranges": "bytes",
          "content-disposition": "inline",
        };
        const range = parseRange(request.headers.get("range"), file.size);
        if (range === "invalid") return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${file.size}` } });
        if (range) {
          return new Response(file.slice(range.start, range.end + 1), {
            status: 206,
            headers: { ...headers, "content-range": `bytes ${range.start}-${range.end}/${file.size}` },
          });
        }
        return new Response(file, { headers });
      },
      { params: t.Object({ name: t.String({ maxLength: 64 }) }) },
    )
    .use(adminGuard(db, secret, allowedOrigins))
    .post(
      "/api/upload",
      async ({ request, set }) => {
        // The session and origin were checked by the guard before a byte of the body was read.
        const type = request.headers.get("content-type") ?? "";
        if (!/^multipart\/form-data/i.test(type)) throw new HttpError(415, "Send the file as multipart/form-data in a field named file.");
        const length = Number(request.headers.get("content-length") ?? NaN);
        if (length > MAX_UPLOAD_REQUEST) throw new HttpError(413, "File must be less than 100MB");
        const body = await readBodyLimited(request, MAX_UPLOAD_REQUEST, "File must be less than 100MB");
        let form: FormData;
        try {
          form = await new Response(body, { headers: { "content-type": type } }).formData();
        } catch {
          throw new HttpError(400, "The upload could not be read as multipart/form-data.");
        }
        const file = form.get("file");
        if (!(file instanceof File)) throw new HttpError(422, "Send the file in a field named file.");
        set.status = 201;
        const stored = await storeUpload(dir, file);
        return { url: stored.url };
      },
      { parse: "none" },
    );
}
