import { eq } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { sitePages } from "./table.ts";

/**
 * SHA-256 of every body an earlier release shipped for a page (as the seed stored it, before
 * {{brand}} is filled in). A stored body that is one of these was never changed by the
 * operator, so it follows this release's text: a site upgraded after the privacy page
 * learned about visit counts, or about how long results are kept, says so too. A body the
 * operator changed is never touched.
 */
const SHIPPED_BEFORE: Record<string, readonly string[]> = {
  privacy: [
    "be56b027a954a487a4bd9571ab01ee152dd9a20f31999666b29d9c57bbe22826",
    "6d41d1d6c3f13884d3a55acde7d17afa6405da0de15912b0a385d2db3e13df2e",
    "61c49159588ed2581b2d641ebcec9ee6ce11f2fe2c07d5110a04af17b2dc73cc",
    "4f5cbe66fa5ad46c9028dd1d5d6b4daa8f30f9202683d7c287a5012cf22fe7f0",
    // Before it said how long saved results are kept.
    "158d277a42dd9dbfcf518021e37f79b96528725c89f9a78e8594032df332743c",
    // Before it named the operator and their contact from Settings.
    "cb92b79a500d83d254b3115d9075ecbbd70bfea5d32547bf3ddefea2326e77cf",
  ],
  terms: [
    "97a005c8b567971dd6cd7c9f396fa8c61ca4e8601859616ab4aa1b845c3ac185",
    // Before it named the operator and their contact from Settings.
    "414f4e646e753892d196f65d5278c3250b0087b7f0205002d710977cf1b609a7",
  ],
};

/**
 * SHA-256 of every Markdown body an earlier release's seed stored with the page (releases
 * from the writing editor on store it; earlier ones stored none). A page saved from the
 * admin's editor holds the admin's own Markdown, so it is never taken for a shipped page.
 * When a release changes a page's text, add its previous Markdown's hash here too.
 */
const SHIPPED_MARKDOWN_BEFORE: Record<string, readonly string[]> = {
  // Before it said how long saved results are kept.
  privacy: [
    "feebc5dcc66cd614cdddbe360177585a2f7cc52ed88bfa9a8bc2eb9f7ae0d389",
    // Before it named the operator and their contact from Settings.
    "8d36e0afdedd5ae3d58f726186f00b23db72f08d150759a3f83aad7af409dd90",
  ],
  terms: ["ddc55b42fa873badda66f01d30ab99cde3c84ea8e0105fda2ebd6e5225ce1f99"],
};

const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

interface ShippedPage {
  slug: string;
  title: string;
  description: string;
  body: string;
  bodyMarkdown: string;
}

function unedited(slug: string, row: { body: string; bodyMarkdown: string | null }): boolean {
  if (!SHIPPED_BEFORE[slug]?.includes(sha256(row.body))) return false;
  return row.bodyMarkdown === null || Boolean(SHIPPED_MARKDOWN_BEFORE[slug]?.includes(sha256(row.bodyMarkdown)));
}

/** Brings unchanged shipped pages up to this release's text; the slugs it updated. */
export async function refreshShippedPages(db: Db, pages: readonly ShippedPage[]): Promise<string[]> {
  const updated: string[] = [];
  for (const page of pages) {
    const [row] = await db
      .select({ body: sitePages.body, bodyMarkdown: sitePages.bodyMarkdown })
      .from(sitePages)
      .where(eq(sitePages.slug, page.slug));
    if (!row || row.body === page.body || !unedited(page.slug, row)) continue;
    await db
      .update(sitePages)
      .set({
        title: page.title,
        description: page.description,
        body: page.body,
        bodyMarkdown: page.bodyMarkdown,
        updatedAt: new Date(),
      })
      .where(eq(sitePages.slug, page.slug));
    updated.push(page.slug);
  }
  return updated;
}
