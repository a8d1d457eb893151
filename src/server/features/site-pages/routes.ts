import { Elysia, t } from "elysia";
import type { Db } from "#server/db/client.ts";
import { getSitePage } from "./service.ts";

export function sitePageRoutes(db: Db, contact: string) {
  return new Elysia({ name: "site-pages" }).get(
    "/api/pages/:slug",
    ({ params }) => getSitePage(db, params.slug, contact),
    { params: t.Object({ slug: t.String({ maxLength: 64 }) }) },
  );
}
