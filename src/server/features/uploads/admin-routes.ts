import { Elysia } from "elysia";
import { HttpError } from "#server/plugins/errors.ts";
import { readBodyLimited } from "#server/plugins/json-body.ts";
import { MAX_UPLOAD_REQUEST, storeUpload } from "./service.ts";

/** Where uploads are sent; app.ts mounts the admin guard here. */
export const UPLOAD_PATH = "/api/upload";

/** POST /api/upload: mounted at UPLOAD_PATH behind the admin guard (see app.ts). */
export function uploadAdminRoutes(dir: string) {
  return new Elysia({ name: "uploads-admin" }).post(
    // The mount's own path.
    "",
    async ({ request, set }) => {
      // The session and origin were checked by the guard before a byte of the body was read.
      const type = request.headers.get("content-type") ?? "";
      if (!/^multipart\/form-data/i.test(type))
        throw new HttpError(415, "Send the file as multipart/form-data in a field named file.");
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
