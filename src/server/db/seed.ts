import { Value } from "@sinclair/typebox/value";
import { and, eq } from "drizzle-orm";
import { plainText } from "#server/features/blog/search.ts";
import { blogCategories, blogPosts } from "#server/features/blog/table.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { recommendedProducts } from "#server/features/products/table.ts";
import { settingsRow } from "#server/features/settings/service.ts";
import { siteSettings } from "#server/features/settings/table.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { sanitizePostHtml } from "#server/lib/sanitize.ts";
import { SiteSettings } from "#shared/features/settings/contract.ts";
import { adoptLinksIn } from "./adopt-links.ts";
import { type Content, content as defaultContent } from "./content.ts";
import { inTransaction } from "./transaction.ts";
import type { DatabaseAccess } from "./types.ts";

export type SeedReport = Record<string, number>;

/**
 * Fills a new database with content/. A database that was seeded before (it has its
 * settings row, which the seed always writes) gets nothing: from then on the content is
 * the admin's, so a seeded post, product or offer the admin deleted or renamed does not
 * come back on the next start (docs/decisions/028-the-seed-fills-a-new-database-once.md).
 * Within a run each record is inserted only when its natural key is absent, and all of it
 * lands in one transaction, or none of it.
 */
export async function seedDatabase(handle: DatabaseAccess, content: Content = defaultContent): Promise<SeedReport> {
  const settings: unknown = content.siteSettings;
  if (!Value.Check(SiteSettings, settings)) {
    throw new Error("content/site-settings.json does not match the SiteSettings schema");
  }
  // A database seeded before (every start after the first) is told so by one read, before
  // anything is prepared; the transaction asks again, for a seed run beside another.
  const [seededAlready] = await handle.db.select({ id: siteSettings.id }).from(siteSettings).limit(1);
  if (seededAlready) return {};
  // Prepared before the transaction, which holds nothing but its statements.
  const posts = content.blogPosts.map((post) => {
    const at = new Date(post.createdAt);
    const clean = sanitizePostHtml(post.content);
    return { ...post, content: clean, searchText: plainText(clean), createdAt: at, updatedAt: at };
  });
  // Products and offers keep their content order: createdAt steps by 1 ms so the order is stable.
  const start = Date.now();
  const products = content.products.map((product, i) => ({ ...product, createdAt: new Date(start + i) }));
  const offers = content.offers.map((offer, i) => ({
    ...offer,
    createdAt: new Date(start + i),
    updatedAt: new Date(start + i),
  }));

  // An insert that skips rows whose key exists returns only the rows it added.
  const added = async (rows: unknown[], insert: () => PromiseLike<unknown[]>) =>
    rows.length === 0 ? 0 : (await insert()).length;
  return inTransaction(handle.db, async (tx) => {
    const report: SeedReport = {};
    const [seededBefore] = await tx.select({ id: siteSettings.id }).from(siteSettings).limit(1);
    if (seededBefore) return report;
    const settingsRows = [settingsRow(settings)];
    report.siteSettings = await added(settingsRows, () =>
      tx.insert(siteSettings).values(settingsRows).onConflictDoNothing().returning({ id: siteSettings.id }),
    );
    report.sitePages = await added(content.sitePages, () =>
      tx.insert(sitePages).values(content.sitePages).onConflictDoNothing().returning({ slug: sitePages.slug }),
    );
    report.products = await added(products, () =>
      tx.insert(recommendedProducts).values(products).onConflictDoNothing().returning({ id: recommendedProducts.id }),
    );
    report.blogCategories = await added(content.blogCategories, () =>
      tx
        .insert(blogCategories)
        .values(content.blogCategories)
        .onConflictDoNothing()
        .returning({ id: blogCategories.id }),
    );
    report.blogPosts = await added(posts, () =>
      tx.insert(blogPosts).values(posts).onConflictDoNothing().returning({ id: blogPosts.id }),
    );
    // Offers have no natural key: one with the same title in the same module counts as seeded.
    report.offers = 0;
    for (const offer of offers) {
      const [exists] = await tx
        .select({ id: affiliateOffers.id })
        .from(affiliateOffers)
        .where(and(eq(affiliateOffers.title, offer.title), eq(affiliateOffers.moduleId, offer.moduleId)))
        .limit(1);
      if (!exists) {
        await tx.insert(affiliateOffers).values(offer);
        report.offers++;
      }
    }
    // Every destination the content names is sent through a managed link of its own.
    report.links = await adoptLinksIn(tx);
    return report;
  });
}

export function describeSeed(report: SeedReport): string {
  const added = Object.entries(report).filter(([, n]) => n > 0);
  if (added.length === 0) return "Seed: nothing to add, the database was seeded before and its content is the admin's.";
  return `Seed: added ${added.map(([k, n]) => `${n} ${k}`).join(", ")}.`;
}
