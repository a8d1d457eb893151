import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { adminJson, NumericId } from "#server/plugins/admin-route.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { LinkCreate, LinkUpdate } from "#shared/features/links/contract.ts";
import { CHECK_DEADLINE_MS, type LinkChecks } from "./health.ts";
import { createLink, deleteLink, getLink, linkUsage, listLinksWithClicks, updateLink } from "./service.ts";

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
      // What uses a link, asked before deleting it; the delete refuses a link a source still uses.
      .get("/link/:id/usage", ({ params }) => linkUsage(db, Number(params.id)), { params: NumericId })
      .delete(
        "/link/:id",
        async ({ params }) => {
          const { slug, posts } = await deleteLink(db, Number(params.id));
          return { message: `/go/${slug} deleted`, posts: posts.length };
        },
        { params: NumericId },
      )
      // Checks every link's destination now (a run already under way is joined). A run that ends
      // within the deadline: 200 with the list after it, and `offline` when no destination could be
      // reached. One that takes longer goes on: 202 with its progress, read again with the GET below.
      // Either way the request is answered well inside the server's idle timeout.
      .post("/links/check", async ({ set }) => {
        const summary = await checks.checkAllWithin(CHECK_DEADLINE_MS);
        if (!summary) set.status = 202;
        const state = summary
          ? { running: false, checked: summary.checked, total: summary.checked, offline: summary.offline }
          : checks.state;
        return { ...state, links: await listLinksWithClicks(db) };
      })
      // The run under way (or the last one) and the list as it is now.
      .get("/links/check", async () => ({ ...checks.state, links: await listLinksWithClicks(db) }))
      // Checks one link's destination now (within the deadline): the link after it and what the check found.
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
