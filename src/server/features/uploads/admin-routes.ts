import { Elysia } from "elysia";
import type { StorageHealth } from "#server/lib/storage-health.ts";
import { receiveUpload } from "./service.ts";

/** Where uploads are sent; app.ts mounts the admin guard here. */
export const UPLOAD_PATH = "/api/upload";

/** POST /api/upload: mounted at UPLOAD_PATH behind the admin guard (see app.ts). */
export function uploadAdminRoutes(dir: string, storage: Pick<StorageHealth, "roomFor">) {
  return new Elysia({ name: "uploads-admin" }).post(
    // The mount's own path.
    "",
    async ({ request, set }) => {
      // The session and origin were checked by the guard, and the write gate let it through,
      // before a byte of the body was read. The body is streamed to disk, never held whole.
      const stored = await receiveUpload(request, dir, storage);
      set.status = 201;
      set.headers["cache-control"] = "no-store";
      return { url: stored.url };
    },
    { parse: "none" },
  );
}
