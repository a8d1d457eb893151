import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { adminJson, NumericId } from "#server/plugins/admin-route.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { LinkCreate, LinkUpdate } from "#shared/features/links/contract.ts";
import type { LinkChecks } from "./health.ts";
import { createLink, getLink, listLinksWithClicks, updateLink } from "./service.ts";

/** Managed links, mounted under /api/admin behind the admin guard (see app.ts). */
export function linkAdminRoutes(db: Db, checks: LinkChecks) {
  return (
    new Elysia({ name: "links-admin" })
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
      })
      // Checks every link's destination now (a run already under way is waited for): the list after it,
      // and `offline` when no destination could be reached at all (this server is likely offline).
      .post("/links/check", async () => {
        const { checked, offline } = await checks.checkAll();
        return { checked, offline, links: await listLinksWithClicks(db) };
      })
      // Checks one link's destination now: the link after it and what the check found.
      .post(
        "/links/:id/check",
        async ({ params }) => {
          const id = Number(params.id);
          const result = await checks.checkOne(id);
          const link = result && (await getLink(db, id));
          if (!link) throw new HttpError(404, "No link with that id.");
          return { link, reason: result.reason };
        },
        { params: NumericId },
      )
  );
}
