import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { getSettings } from "#server/features/settings/service.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { fillTokens } from "#shared/features/settings/brand.ts";
import type { SitePage, SitePageSlug } from "#shared/features/site-pages/contract.ts";
import { sitePages } from "./table.ts";

export async function getSitePage(db: Db, slug: string, contact: string): Promise<SitePage> {
  const [row] = await db.select().from(sitePages).where(eq(sitePages.slug, slug)).limit(1);
  if (!row) throw new HttpError(404, "No such page.");
  const tokens = { brand: (await getSettings(db)).brandName, contact };
  return {
    slug: row.slug as SitePageSlug,
    title: fillTokens(row.title, tokens),
    description: fillTokens(row.description, tokens),
    body: fillTokens(row.body, tokens),
    updatedAt: row.updatedAt.toISOString(),
  };
}
