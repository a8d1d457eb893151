import { asc, eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { content } from "#server/db/content.ts";
import { refuseOffSiteImages } from "#server/lib/content-images.ts";
import { htmlToMarkdown } from "#server/lib/html-to-markdown.ts";
import { markdownToHtml } from "#server/lib/markdown.ts";
import { sanitizePostHtml } from "#server/lib/sanitize.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { AdminSitePage, SitePageInput, SitePageSlug } from "#shared/features/site-pages/contract.ts";
import { sent } from "#shared/schema/sent.ts";
import { sitePages } from "./table.ts";

/** Computed from the row: the Markdown the editor opens (an older page's HTML converted), the date sent. */
function toAdminPage(row: typeof sitePages.$inferSelect): AdminSitePage {
  return {
    ...sent(row),
    slug: row.slug as SitePageSlug,
    bodyMarkdown: row.bodyMarkdown ?? htmlToMarkdown(row.body),
    convertedFromHtml: row.bodyMarkdown === null,
  };
}

/** The legal pages, in address order. */
export async function listSitePages(db: Db): Promise<AdminSitePage[]> {
  return (await db.select().from(sitePages).orderBy(asc(sitePages.slug))).map(toAdminPage);
}

export async function getAdminSitePage(db: Db, slug: string): Promise<AdminSitePage> {
  const [row] = await db.select().from(sitePages).where(eq(sitePages.slug, slug)).limit(1);
  if (!row) throw new HttpError(404, "No such page.");
  return toAdminPage(row);
}

/**
 * Saves the admin's wording: the Markdown as written and its clean HTML. The page then holds
 * the admin's own Markdown, so an upgrade never replaces it with a newer shipped text.
 */
export async function saveSitePage(db: Db, slug: string, input: SitePageInput): Promise<AdminSitePage> {
  const raw = markdownToHtml(input.bodyMarkdown);
  // An image from another website would be accepted and then never shown (the CSP blocks it).
  refuseOffSiteImages(raw, "bodyMarkdown", "text");
  const [row] = await db
    .update(sitePages)
    .set({
      title: input.title.trim(),
      description: input.description.trim(),
      body: sanitizePostHtml(raw).trim(),
      bodyMarkdown: input.bodyMarkdown,
      updatedAt: new Date(),
    })
    .where(eq(sitePages.slug, slug))
    .returning();
  if (!row) throw new HttpError(404, "No such page.");
  return toAdminPage(row);
}

/**
 * Puts a built-in page back to this release's shipped text (the operator's edits are gone);
 * from then on an upgrade brings it up to date again. Built-in pages are never deleted: every
 * page links to them.
 */
export async function resetSitePage(db: Db, slug: string): Promise<AdminSitePage> {
  const shipped = content.sitePages.find((page) => page.slug === slug);
  if (!shipped) throw new HttpError(404, "Only the built-in pages (terms, privacy) have a shipped text to go back to.");
  const [row] = await db
    .update(sitePages)
    .set({
      title: shipped.title,
      description: shipped.description,
      body: shipped.body,
      bodyMarkdown: shipped.bodyMarkdown,
      updatedAt: new Date(),
    })
    .where(eq(sitePages.slug, slug))
    .returning();
  if (!row) throw new HttpError(404, "No such page.");
  return toAdminPage(row);
}
