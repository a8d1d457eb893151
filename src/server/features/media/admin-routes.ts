import { Elysia, t } from "elysia";
import type { Db } from "#server/db/types.ts";
import { adminJson, NumericId } from "#server/plugins/admin-route.ts";
import { MediaAltInput } from "#shared/features/media/contract.ts";
import { deleteMedia, getMedia, listMedia, updateAlt } from "./service.ts";

/** The media library, mounted under /api/admin behind the admin guard (see app.ts). */
export function mediaAdminRoutes(db: Db, dir: string) {
  return (
    new Elysia({ name: "media-admin" })
      .get("/media", () => listMedia(db, dir))
      .get("/media/:id", ({ params }) => getMedia(db, dir, Number(params.id)), { params: NumericId })
      .put("/media/:id", ({ params, body }) => updateAlt(db, dir, Number(params.id), body.alt), {
        ...adminJson(MediaAltInput),
        params: NumericId,
      })
      // An upload still in use is refused (409, where it is used) unless ?force=1 says the
      // admin saw that warning and confirmed.
      .delete(
        "/media/:id",
        async ({ params, query }) => {
          await deleteMedia(db, dir, Number(params.id), query.force === "1");
          return { message: "Upload deleted" };
        },
        { params: NumericId, query: t.Object({ force: t.Optional(t.String({ maxLength: 1 })) }) },
      )
  );
}
