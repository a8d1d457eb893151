// Small factories: each inserts one row with sensible defaults through drizzle and returns
// it. A test names only the fields it cares about; everything else is a valid default.
// Slugs, ids and titles are made unique with a counter, so a test can call a factory twice.

import type { Db } from "#server/db/types.ts";
import { hashPassword } from "#server/features/auth/bootstrap.ts";
import { adminUsers } from "#server/features/auth/table.ts";
import { plainText } from "#server/features/blog/search.ts";
import { blogCategories, blogPosts } from "#server/features/blog/table.ts";
import { earningsResults } from "#server/features/earnings/table.ts";
import { links } from "#server/features/links/table.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { recommendedProducts } from "#server/features/products/table.ts";
import { quizResults } from "#server/features/quiz/table.ts";
import { siteSettings } from "#server/features/settings/table.ts";
import { sitePages } from "#server/features/site-pages/table.ts";

let sequence = 0;
const next = () => ++sequence;

/** A managed link (active, no fallback) to an example destination unless overridden. */
export async function createLink(db: Db, overrides: Partial<typeof links.$inferInsert> = {}) {
  const n = next();
  const [row] = await db
    .insert(links)
    .values({ slug: `link-${n}`, destination: `https://example.com/link-${n}`, ...overrides })
    .returning();
  return row!;
}

/** The slug of a new link to `destination`, for a source the test makes (unless it names its own). */
async function linkSlugFor(db: Db, destination: string | undefined, given: string | null | undefined) {
  if (given !== undefined || destination === undefined) return given ?? null;
  return (await createLink(db, { destination })).slug;
}

/** A random 22-character id, like the ones the API makes for results. */
function resultId(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url");
}

export const ADMIN = { username: "admin", password: "correct-horse-battery" };
// Hashing is deliberately slow; one hash of the test password serves every test database.
let adminHash: Promise<string> | undefined;

/** The admin account (ADMIN's name and password unless overridden). */
export async function createAdmin(db: Db, overrides: Partial<typeof adminUsers.$inferInsert> = {}) {
  adminHash ??= hashPassword(ADMIN.password);
  const [row] = await db
    .insert(adminUsers)
    .values({ username: ADMIN.username, passwordHash: await adminHash, ...overrides })
    .returning();
  return row!;
}

/**
 * The one settings row: brand 'Cam Guide', Platform One (the banner's) and Platform Two,
 * each with a managed link to its URL.
 */
export async function createSettings(db: Db, overrides: Partial<typeof siteSettings.$inferInsert> = {}) {
  const values = {
    id: 1,
    brandName: "Cam Guide",
    platformAName: "Platform One",
    platformAUrl: "https://example.com/platform-one",
    platformBName: "Platform Two",
    platformBUrl: "https://example.org/platform-two",
    bannerPlatform: "a" as const,
    ...overrides,
  };
  const [row] = await db
    .insert(siteSettings)
    .values({
      ...values,
      platformALinkSlug: await linkSlugFor(db, values.platformAUrl, overrides.platformALinkSlug),
      platformBLinkSlug: await linkSlugFor(db, values.platformBUrl, overrides.platformBLinkSlug),
    })
    .returning();
  return row!;
}

/** An operator text page; `{{brand}}` in the body is replaced when served. */
export async function createSitePage(db: Db, overrides: Partial<typeof sitePages.$inferInsert> = {}) {
  const n = next();
  const [row] = await db
    .insert(sitePages)
    .values({
      slug: `page-${n}`,
      title: `Page ${n}`,
      description: `What page ${n} is about, in one sentence for search engines.`,
      body: "<p>{{brand}} keeps this page short.</p>",
      ...overrides,
    })
    .returning();
  return row!;
}

export async function createCategory(db: Db, overrides: Partial<typeof blogCategories.$inferInsert> = {}) {
  const n = next();
  const [row] = await db
    .insert(blogCategories)
    .values({ name: `Category ${n}`, slug: `category-${n}`, ...overrides })
    .returning();
  return row!;
}

/** A published post without a category, dated now, about four minutes long, unless overridden. */
export async function createPost(db: Db, overrides: Partial<typeof blogPosts.$inferInsert> = {}) {
  const n = next();
  const content = overrides.content ?? `<p>${"Words worth reading. ".repeat(220)}</p>`;
  const [row] = await db
    .insert(blogPosts)
    .values({
      title: `Post number ${n}`,
      slug: `post-${n}`,
      excerpt: `A short teaser for post ${n}.`,
      content,
      // What a save derives from the content (the search's words).
      searchText: plainText(content),
      published: true,
      ...overrides,
    })
    .returning();
  return row!;
}

/** An active offer for module 1 with a link and no media. */
export async function createOffer(db: Db, overrides: Partial<typeof affiliateOffers.$inferInsert> = {}) {
  const n = next();
  const [row] = await db
    .insert(affiliateOffers)
    .values({
      title: `Offer ${n}`,
      description: `What offer ${n} gives a new model.`,
      linkUrl: `https://example.com/offer-${n}`,
      linkText: "Learn more",
      moduleId: 1,
      isActive: true,
      ...overrides,
      linkSlug: await linkSlugFor(db, overrides.linkUrl ?? `https://example.com/offer-${n}`, overrides.linkSlug),
    })
    .returning();
  return row!;
}

/** A product for the Couple archetype, not featured. */
export async function createProduct(db: Db, overrides: Partial<typeof recommendedProducts.$inferInsert> = {}) {
  const n = next();
  const [row] = await db
    .insert(recommendedProducts)
    .values({
      id: `product-${n}`,
      name: `Product ${n}`,
      description: `Product ${n} makes a stream look better.`,
      link: `https://example.com/product-${n}`,
      price: "$25",
      badge: "ESSENTIAL",
      archetype: "Couple",
      isDefault: false,
      ...overrides,
      linkSlug: await linkSlugFor(db, overrides.link ?? `https://example.com/product-${n}`, overrides.linkSlug),
    })
    .returning();
  return row!;
}

/** A stored quiz result: fifteen A answers, which score as Girl Next Door. */
export async function createQuizResult(db: Db, overrides: Partial<typeof quizResults.$inferInsert> = {}) {
  const [row] = await db
    .insert(quizResults)
    .values({ id: resultId(), archetype: "Girl Next Door", answers: Array(15).fill("A"), ...overrides })
    .returning();
  return row!;
}

/** A stored earnings result: fifteen answers of 1, which give Casual Starter. */
export async function createEarningsResult(db: Db, overrides: Partial<typeof earningsResults.$inferInsert> = {}) {
  const [row] = await db
    .insert(earningsResults)
    .values({
      id: resultId(),
      quizResultId: null,
      tier: "Casual Starter",
      estimatedEarnings: "$30 – $470 a month",
      score: 15,
      answers: Array(15).fill(1),
      ...overrides,
    })
    .returning();
  return row!;
}
