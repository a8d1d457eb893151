import { Type } from "@sinclair/typebox";
import { asc, eq } from "drizzle-orm";
import { inTransaction } from "#server/db/transaction.ts";
import type { Db } from "#server/db/types.ts";
import { chooseLink, destinationsBySlug, goPath } from "#server/features/links/service.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { DisclosureWording } from "#shared/features/disclosure/constants.ts";
import { type PublicSettings, SiteSettings } from "#shared/features/settings/contract.ts";
import { declaredFields } from "#shared/schema/declared-fields.ts";
import { resultRetentionDays } from "./result-retention.ts";
import { siteSettings } from "./table.ts";

async function settingsRowOf(db: Db) {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  // The seed always writes this row; its absence means the database was not seeded.
  if (!row) throw new HttpError(503, "Site settings are missing: run the seed.");
  return row;
}

/**
 * The settings as pages show them: each platform's url is its managed link on this site
 * (/go/<slug>), never the affiliate destination itself.
 */
export async function getSettings(db: Db): Promise<PublicSettings> {
  const row = await settingsRowOf(db);
  return {
    ...toSettings(row, { a: goPath(row.platformALinkSlug), b: goPath(row.platformBLinkSlug) }),
    // The result pages and the privacy page say how long a saved result is kept.
    resultRetentionDays: await resultRetentionDays(db),
    // Every page's footer links the pages the admin added with a footer link.
    footerPages: await db
      .select({ slug: sitePages.slug, title: sitePages.title })
      .from(sitePages)
      .where(eq(sitePages.inFooter, true))
      .orderBy(asc(sitePages.title)),
  };
}

/**
 * The settings as the admin edits them: each platform's url is its managed link's
 * destination (which the Links section may have changed).
 */
export async function getAdminSettings(db: Db): Promise<SiteSettings> {
  const row = await settingsRowOf(db);
  const destinations = await destinationsBySlug(db);
  const of = (slug: string | null, typed: string) => (slug && destinations.get(slug)) || typed;
  const settings = toSettings(row, {
    a: of(row.platformALinkSlug, row.platformAUrl),
    b: of(row.platformBLinkSlug, row.platformBUrl),
  });
  if (row.platformALinkSlug) settings.platformA.linkSlug = row.platformALinkSlug;
  if (row.platformBLinkSlug) settings.platformB.linkSlug = row.platformBLinkSlug;
  return settings;
}

const WORDING_KEYS = ["sponsored", "affiliate", "note", "linkText", "offerNote", "offerLinkText"] as const;

/** The parts the operator reworded (trimmed); blank parts are left out, so they read as the default. */
function storedWording(wording: Partial<DisclosureWording> | null | undefined): Partial<DisclosureWording> | null {
  const kept: Partial<DisclosureWording> = {};
  for (const key of WORDING_KEYS) {
    const value = wording?.[key];
    if (typeof value === "string" && value.trim()) kept[key] = value.trim();
  }
  return Object.keys(kept).length ? kept : null;
}

/** The settings' own fields, kept in the row as the API names them (the platforms are nested in the API, flat in the row). */
const OwnFields = Type.Omit(SiteSettings, ["platformA", "platformB"]);

function toSettings(row: typeof siteSettings.$inferSelect, urls: { a: string; b: string }): SiteSettings {
  return {
    ...declaredFields(OwnFields, { ...row, disclosureWording: storedWording(row.disclosureWording) ?? {} }),
    platformA: { name: row.platformAName, url: urls.a },
    platformB: { name: row.platformBName, url: urls.b },
  };
}

/** Row values for a settings object; used by the seed and the admin's settings update. */
export function settingsRow(settings: SiteSettings) {
  const { disclosureWording, ...own } = declaredFields(OwnFields, settings);
  return {
    ...own,
    id: 1,
    platformAName: settings.platformA.name,
    platformAUrl: settings.platformA.url,
    platformBName: settings.platformB.name,
    platformBUrl: settings.platformB.url,
    // A claim of only spaces is stored empty: it is hidden, and the form shows it as empty.
    incomeFigure: settings.incomeFigure.trim(),
    modelsHelpedFigure: settings.modelsHelpedFigure.trim(),
    testimonialQuote: settings.testimonialQuote.trim(),
    testimonialAttribution: settings.testimonialAttribution.trim(),
    bannerClaim: settings.bannerClaim.trim(),
    giftDiscountCode: settings.giftDiscountCode.trim(),
    giftDiscountPartner: settings.giftDiscountPartner.trim(),
    communityUrl: settings.communityUrl.trim(),
    // Left as they are when the body has none (an older client).
    operatorName: settings.operatorName?.trim(),
    operatorContact: settings.operatorContact?.trim(),
    // Left as it is when the body has none (an older client); blank parts are not stored.
    ...(disclosureWording ? { disclosureWording: storedWording(disclosureWording) } : {}),
  };
}

/** A problem at one field of the settings form. */
const fieldError = (field: string, message: string) => new HttpError(422, message, [{ field, message }]);

/** A discount gift shows only whole: its code, where it works and how much it takes off. */
function checkDiscount(settings: SiteSettings) {
  const code = settings.giftDiscountCode.trim();
  if (!code) return;
  if (!settings.giftDiscountPartner.trim())
    throw fieldError("giftDiscountPartner", "Say where the discount code works, or clear the code");
  if (settings.giftDiscountPercent === null)
    throw fieldError("giftDiscountPercent", "Enter the percentage the code takes off, or clear the code");
}

/** Saves the settings; each platform's managed link follows the destination typed for it. */
export async function updateSettings(db: Db, settings: SiteSettings): Promise<SiteSettings> {
  checkDiscount(settings);
  const values = settingsRow(settings);
  await inTransaction(db, async (tx) => {
    const row = await settingsRowOf(tx);
    const a = await chooseLink(tx, settings.platformA, "platformA.", {
      slug: row.platformALinkSlug,
      destination: values.platformAUrl,
      name: values.platformAName,
      notes: "Platform 1 in the settings",
      field: "platformA.url",
    });
    const b = await chooseLink(tx, settings.platformB, "platformB.", {
      slug: row.platformBLinkSlug,
      destination: values.platformBUrl,
      name: values.platformBName,
      notes: "Platform 2 in the settings",
      field: "platformB.url",
    });
    await tx
      .update(siteSettings)
      .set({
        ...values,
        platformAUrl: a.destination,
        platformALinkSlug: a.slug,
        platformBUrl: b.destination,
        platformBLinkSlug: b.slug,
        updatedAt: new Date(),
      })
      .where(eq(siteSettings.id, 1));
  });
  return getAdminSettings(db);
}
