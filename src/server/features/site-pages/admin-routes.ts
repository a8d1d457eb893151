import { Elysia, t } from "elysia";
import type { Db } from "#server/db/types.ts";
import { adminJson } from "#server/plugins/admin-route.ts";
import { NewSitePageInput, SitePageInput } from "#shared/features/site-pages/contract.ts";
import {
  createSitePage,
  deleteSitePage,
  getAdminSitePage,
  listSitePages,
  resetSitePage,
  saveSitePage,
} from "./admin-service.ts";

const Slug = t.Object({ slug: t.String({ minLength: 1, maxLength: 60, error: "No such page." }) });

/** The built-in legal pages (terms, privacy) and the pages the admin adds, mounted under /api/admin behind the admin guard (see app.ts). */
export function sitePageAdminRoutes(db: Db) {
  return new Elysia({ name: "site-pages-admin" })
    .get("/site-pages", () => listSitePages(db))
    .post(
      "/site-pages",
      ({ body, set }) => {
        set.status = 201;
        return createSitePage(db, body);
      },
      adminJson(NewSitePageInput),
    )
    .get("/site-page/:slug", ({ params }) => getAdminSitePage(db, params.slug), { params: Slug })
    .put("/site-page/:slug", ({ params, body }) => saveSitePage(db, params.slug, body), {
      ...adminJson(SitePageInput),
      params: Slug,
    })
    .delete(
      "/site-page/:slug",
      async ({ params }) => {
        await deleteSitePage(db, params.slug);
        return { message: "Page deleted" };
      },
      { params: Slug },
    )
    .post("/site-page/:slug/reset", ({ params }) => resetSitePage(db, params.slug), { params: Slug });
}
