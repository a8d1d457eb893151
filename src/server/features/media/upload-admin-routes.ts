import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import type { StorageHealth } from "#server/lib/storage-health.ts";
import { ADMIN_MOUNTS } from "#shared/features/auth/constants.ts";
import { registerUpload, sameUpload } from "./registry.ts";
import { receiveUpload } from "./uploads.ts";

/** Where uploads are sent; app.ts mounts the admin guard here. */
export const UPLOAD_PATH = ADMIN_MOUNTS.upload;

/** POST /api/upload: mounted at UPLOAD_PATH behind the admin guard (see app.ts). */
export function uploadAdminRoutes(dir: string, storage: Pick<StorageHealth, "roomFor">, db: Db) {
  return new Elysia({ name: "uploads-admin" }).post(
    // The mount's own path.
    "",
    async ({ request, set }) => {
      // The session and origin were checked by the guard, and the write gate let it through,
      // before a byte of the body was read. The body is streamed to disk, never held whole.
      // Recorded in the media library before anyone else can touch the file; an image gets
      // its size and smaller copies (a damaged one is removed and refused here).
      // The same bytes uploaded again are the item the library has (200, `existing: true`).
      const { url, row, existing } = await receiveUpload(
        request,
        dir,
        storage,
        async (stored) => ({ url: stored.url, row: await registerUpload(db, dir, stored), existing: false }),
        async (stored) => {
          const row = await sameUpload(db, dir, stored.sha256);
          return row && { url: `/uploads/${encodeURIComponent(row.name)}`, row, existing: true };
        },
      );
      set.status = existing ? 200 : 201;
      set.headers["cache-control"] = "no-store";
      return { url, id: row.id, width: row.width, height: row.height, alt: row.alt, existing };
    },
    { parse: "none" },
  );
}
