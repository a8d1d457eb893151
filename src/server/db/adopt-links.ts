import { eq, isNull } from "drizzle-orm";
import { linkFor } from "#server/features/links/service.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { recommendedProducts } from "#server/features/products/table.ts";
import { siteSettings } from "#server/features/settings/table.ts";
import { readDestination } from "#shared/features/links/destination.ts";
import { inTransaction } from "./transaction.ts";
import type { DatabaseAccess, Db } from "./types.ts";

/** Told about a source whose URL cannot become a managed link (it is left without one). */
export type AdoptionSkipped = (source: string, problem: string) => void;

/**
 * The upgrade step run at every start after the migrations (and by the seed): each affiliate
 * destination that has no managed link yet (the platforms in the settings, offers, products)
 * gets one, and its source refers to it by slug. Sources with a link are left alone, so a
 * second run changes nothing. A URL no visitor could follow (a private address, an invisible
 * character) gets no link: `skipped` is told, and the source's pages lead home until the admin
 * picks a link for it. Returns how many sources it gave a link. One transaction: all of it or none.
 */
export function adoptLinks(handle: DatabaseAccess, skipped?: AdoptionSkipped): Promise<number> {
  return inTransaction(handle.db, (tx) => adoptLinksIn(tx, skipped));
}

/** adoptLinks() inside a transaction the caller holds (the seed's). */
export async function adoptLinksIn(tx: Db, skipped: AdoptionSkipped = () => {}): Promise<number> {
  let made = 0;
  /** The slug of a new link for the source, or null when its URL cannot be one. */
  const adopt = async (source: { destination: string; name: string; notes: string }) => {
    const reading = readDestination(source.destination, "The address");
    if (reading.problem !== undefined) {
      skipped(source.notes, reading.problem);
      return null;
    }
    made++;
    return linkFor(tx, { ...source, slug: null, destination: reading.url });
  };
  const [settings] = await tx.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  if (settings) {
    const update: Partial<typeof siteSettings.$inferInsert> = {};
    for (const [n, p] of [
      [1, "A"],
      [2, "B"],
    ] as const) {
      if (settings[`platform${p}LinkSlug`]) continue;
      const slug = await adopt({
        destination: settings[`platform${p}Url`],
        name: settings[`platform${p}Name`],
        notes: `Platform ${n} in the settings`,
      });
      if (slug) update[`platform${p}LinkSlug`] = slug;
    }
    if (Object.keys(update).length > 0) await tx.update(siteSettings).set(update).where(eq(siteSettings.id, 1));
  }
  const offers = await tx.select().from(affiliateOffers).where(isNull(affiliateOffers.linkSlug));
  for (const offer of offers) {
    const slug = await adopt({ destination: offer.linkUrl, name: offer.title, notes: `Offer: ${offer.title}` });
    if (slug) await tx.update(affiliateOffers).set({ linkSlug: slug }).where(eq(affiliateOffers.id, offer.id));
  }
  const products = await tx.select().from(recommendedProducts).where(isNull(recommendedProducts.linkSlug));
  for (const product of products) {
    const slug = await adopt({ destination: product.link, name: product.id, notes: `Product: ${product.name}` });
    if (slug)
      await tx.update(recommendedProducts).set({ linkSlug: slug }).where(eq(recommendedProducts.id, product.id));
  }
  return made;
}
