import { eq, isNull } from "drizzle-orm";
import { linkFor } from "#server/features/links/service.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { recommendedProducts } from "#server/features/products/table.ts";
import { siteSettings } from "#server/features/settings/table.ts";
import type { DatabaseHandle, Db } from "./client.ts";
import { inTransaction } from "./transaction.ts";

/**
 * The upgrade step run at every start after the migrations (and by the seed): each affiliate
 * destination that has no managed link yet (the platforms in the settings, offers, products)
 * gets one, and its source refers to it by slug. Sources with a link are left alone, so a
 * second run changes nothing. Returns how many sources it gave a link. One
 * transaction: all of it or none.
 */
export function adoptLinks(handle: DatabaseHandle): Promise<number> {
  return inTransaction(handle.db, adoptLinksIn);
}

/** adoptLinks() inside a transaction the caller holds (the seed's). */
export async function adoptLinksIn(tx: Db): Promise<number> {
  let made = 0;
  const [settings] = await tx.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  if (settings) {
    const update: Partial<typeof siteSettings.$inferInsert> = {};
    if (!settings.platformALinkSlug) {
      update.platformALinkSlug = await linkFor(tx, {
        slug: null,
        destination: settings.platformAUrl,
        name: settings.platformAName,
        notes: "Platform 1 in the settings",
      });
    }
    if (!settings.platformBLinkSlug) {
      update.platformBLinkSlug = await linkFor(tx, {
        slug: null,
        destination: settings.platformBUrl,
        name: settings.platformBName,
        notes: "Platform 2 in the settings",
      });
    }
    made += Object.keys(update).length;
    if (made > 0) await tx.update(siteSettings).set(update).where(eq(siteSettings.id, 1));
  }
  const offers = await tx.select().from(affiliateOffers).where(isNull(affiliateOffers.linkSlug));
  for (const offer of offers) {
    const slug = await linkFor(tx, {
      slug: null,
      destination: offer.linkUrl,
      name: offer.title,
      notes: `Offer: ${offer.title}`,
    });
    await tx.update(affiliateOffers).set({ linkSlug: slug }).where(eq(affiliateOffers.id, offer.id));
    made++;
  }
  const products = await tx.select().from(recommendedProducts).where(isNull(recommendedProducts.linkSlug));
  for (const product of products) {
    const slug = await linkFor(tx, {
      slug: null,
      destination: product.link,
      name: product.id,
      notes: `Product: ${product.name}`,
    });
    await tx.update(recommendedProducts).set({ linkSlug: slug }).where(eq(recommendedProducts.id, product.id));
    made++;
  }
  return made;
}
