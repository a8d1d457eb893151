import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { sitePages } from "../../db/schema/index.ts";
import type { SitePage, SitePageSlug } from "../../../shared/contract/site-pages.ts";
import { fillTokens } from "../../../shared/lib/brand.ts";
import { HttpError } from "../../plugins/errors.ts";
import { getSettings } from "../settings/service.ts";

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
