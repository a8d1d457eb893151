import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { SiteSettings } from "#shared/features/settings/contract.ts";
import { siteSettings } from "./table.ts";

export async function getSettings(db: Db): Promise<SiteSettings> {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  // The seed always writes this row; its absence means the database was not seeded.
  if (!row) throw new HttpError(503, "Site settings are missing: run the seed.");
  return {
    brandName: row.brandName,
    platformA: { name: row.platformAName, url: row.platformAUrl },
    platformB: { name: row.platformBName, url: row.platformBUrl },
    bannerPlatform: row.bannerPlatform,
    incomeFigure: row.incomeFigure,
    modelsHelpedFigure: row.modelsHelpedFigure,
    testimonialQuote: row.testimonialQuote,
    testimonialAttribution: row.testimonialAttribution,
    bannerClaim: row.bannerClaim,
  };
}

/** Row values for a settings object; used by the seed and the admin's settings update. */
export function settingsRow(settings: SiteSettings) {
  return {
    id: 1,
    brandName: settings.brandName,
    platformAName: settings.platformA.name,
    platformAUrl: settings.platformA.url,
    platformBName: settings.platformB.name,
    platformBUrl: settings.platformB.url,
    bannerPlatform: settings.bannerPlatform,
    // A claim of only spaces is stored empty: it is hidden, and the form shows it as empty.
    incomeFigure: settings.incomeFigure.trim(),
    modelsHelpedFigure: settings.modelsHelpedFigure.trim(),
    testimonialQuote: settings.testimonialQuote.trim(),
    testimonialAttribution: settings.testimonialAttribution.trim(),
    bannerClaim: settings.bannerClaim.trim(),
  };
}

export async function updateSettings(db: Db, settings: SiteSettings): Promise<SiteSettings> {
  await db
    .update(siteSettings)
    .set({ ...settingsRow(settings), updatedAt: new Date() })
    .where(eq(siteSettings.id, 1));
  return getSettings(db);
}
