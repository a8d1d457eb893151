import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { sitePages } from "./table.ts";
import type { SitePage, SitePageSlug } from "#shared/features/site-pages/contract.ts";
import { fillTokens } from "#shared/features/settings/brand.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { getSettings } from "#server/features/settings/service.ts";

export function getSitePage(db: Db, slug: string, contact: string): SitePage {
  const row = db.select().from(sitePages).where(eq(sitePages.slug, slug)).get();
  if (!row) throw new HttpError(404, "No such page.");
  const tokens = { brand: getSettings(db).brandName, contact };
  return {
    slug: row.slug as SitePageSlug,
    title: fillTokens(row.title, tokens),
    description: fillTokens(row.description, tokens),
    body: fillTokens(row.body, tokens),
    updatedAt: row.updatedAt.toISOString(),
  };
}
