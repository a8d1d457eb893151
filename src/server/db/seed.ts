import { Value } from "@sinclair/typebox/value";
import type { DatabaseHandle } from "./client.ts";
import { and, eq } from "drizzle-orm";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { blogCategories, blogPosts } from "#server/features/blog/table.ts";
import { recommendedProducts } from "#server/features/products/table.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { siteSettings } from "#server/features/settings/table.ts";
import { sanitizePostHtml } from "#server/lib/sanitize.ts";
import { content as defaultContent, type Content } from "./content.ts";
import { SiteSettings } from "#shared/features/settings/contract.ts";
import { settingsRow } from "#server/features/settings/service.ts";

export type SeedReport = Record<string, number>;

/**
 * Loads content/ into the database. Idempotent: each record is inserted only when
 * its natural key is absent, so a second run adds nothing and never overwrites
 * what the admin changed.
 */
export function seedDatabase(handle: DatabaseHandle, content: Content = defaultContent): SeedReport {
  const settings: unknown = content.siteSettings;
  if (!Value.Check(SiteSettings, settings)) {
    throw new Error("content/site-settings.json does not match the SiteSettings schema");
  }
  const report: SeedReport = {};
  const { db, sqlite } = handle;
  const totalChanges = () => (sqlite.query("SELECT total_changes() AS n").get() as { n: number }).n;
  // Counts the rows a batch of insert-if-absent statements really added.
  const added = (insert: () => void) => {
    const before = totalChanges();
    insert();
    return totalChanges() - before;
  };
  sqlite.transaction(() => {
    report.siteSettings = added(() => db.insert(siteSettings).values(settingsRow(settings)).onConflictDoNothing().run());
    report.sitePages = added(() => {
      for (const page of content.sitePages) db.insert(sitePages).values(page).onConflictDoNothing().run();
    });
    // Products keep their content order: createdAt steps by 1 ms so the order is stable.
    const start = Date.now();
    report.products = added(() => {
      content.products.forEach((product, i) => {
        db
          .insert(recommendedProducts)
          .values({ ...product, createdAt: new Date(start + i) })
          .onConflictDoNothing()
          .run();
      });
    });
    report.blogCategories = added(() => {
      for (const category of content.blogCategories) db.insert(blogCategories).values(category).onConflictDoNothing().run();
    });
    report.blogPosts = added(() => {
      for (const post of content.blogPosts) {
        const at = new Date(post.createdAt);
        db.insert(blogPosts)
          .values({ ...post, content: sanitizePostHtml(post.content), createdAt: at, updatedAt: at })
          .onConflictDoNothing()
          .run();
      }
    });
    // Offers have no natural key: one with the same title in the same module counts as seeded.
    report.offers = added(() => {
      content.offers.forEach((offer, i) => {
        const exists = db
          .select({ id: affiliateOffers.id })
          .from(affiliateOffers)
          .where(and(eq(affiliateOffers.title, offer.title), eq(affiliateOffers.moduleId, offer.moduleId)))
          .get();
        if (!exists) db.insert(affiliateOffers).values({ ...offer, createdAt: new Date(start + i), updatedAt: new Date(start + i) }).run();
      });
    });
  })();
  return report;
}

export function describeSeed(report: SeedReport): string {
  const added = Object.entries(report).filter(([, n]) => n > 0);
  if (added.length === 0) return "Seed: nothing to add, the database already holds the content.";
  return `Seed: added ${added.map(([k, n]) => `${n} ${k}`).join(", ")}.`;
}
