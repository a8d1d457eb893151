import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { adminJson, NumericId } from "#server/plugins/admin-route.ts";
import { LinkCreate, LinkUpdate } from "#shared/features/links/contract.ts";
import { createLink, listLinksWithClicks, updateLink } from "./service.ts";

/** Managed links, mounted under /api/admin behind the admin guard (see app.ts). */
export function linkAdminRoutes(db: Db) {
  return new Elysia({ name: "links-admin" })
    .get("/links", () => listLinksWithClicks(db))
    .post(
      "/link",
      async ({ body, set }) => {
        set.status = 201;
        return await createLink(db, body);
      },
      adminJson(LinkCreate),
    )
    .put("/link/:id", ({ params, body }) => updateLink(db, Number(params.id), body), {
      ...adminJson(LinkUpdate),
      params: NumericId,
    });
}
