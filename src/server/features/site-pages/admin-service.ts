import { asc, eq } from "drizzle-orm";
import { content } from "#server/db/content.ts";
import type { Db } from "#server/db/types.ts";
import { refuseOffSiteImages } from "#server/lib/content-images.ts";
import { htmlToMarkdown } from "#server/lib/html-to-markdown.ts";
import { markdownToHtml } from "#server/lib/markdown.ts";
import { sanitizePostHtml } from "#server/lib/sanitize.ts";
import { HttpError } from "#server/plugins/errors.ts";
import {
  type AdminSitePage,
  type NewSitePageInput,
  SITE_PAGE_SLUGS,
  type SitePageInput,
} from "#shared/features/site-pages/contract.ts";
import { sent } from "#shared/schema/sent.ts";
import { isReservedAddress } from "./reserved.ts";
import { sitePages } from "./table.ts";

const isBuiltIn = (slug: string) => (SITE_PAGE_SLUGS as readonly string[]).includes(slug);

/** Computed from the row: the Markdown the editor opens (an older page's HTML converted), the date sent. */
function toAdminPage(row: typeof sitePages.$inferSelect): AdminSitePage {
  return {
    ...sent(row),
    builtIn: isBuiltIn(row.slug),
    bodyMarkdown: row.bodyMarkdown ?? htmlToMarkdown(row.body),
    convertedFromHtml: row.bodyMarkdown === null,
  };
}

/** The built-in pages first, then the added ones, each in address order. */
export async function listSitePages(db: Db): Promise<AdminSitePage[]> {
  const all = (await db.select().from(sitePages).orderBy(asc(sitePages.slug))).map(toAdminPage);
  return [...all.filter((page) => page.builtIn), ...all.filter((page) => !page.builtIn)];
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
  const [row] = await db
    .update(sitePages)
    .set({ ...pageValues(input), updatedAt: new Date() })
    .where(eq(sitePages.slug, slug))
    .returning();
  if (!row) throw new HttpError(404, "No such page.");
  return toAdminPage(row);
}

/**
 * The stored values of the admin's wording: the Markdown as written and its clean HTML. The
 * page then holds the admin's own Markdown, so an upgrade never replaces it with a newer
 * shipped text. Only an added page has a footer link of its own to switch.
 */
function pageValues(input: SitePageInput) {
  const raw = markdownToHtml(input.bodyMarkdown);
  // An image from another website would be accepted and then never shown (the CSP blocks it).
  refuseOffSiteImages(raw, "bodyMarkdown", "text");
  return {
    title: input.title.trim(),
    description: input.description.trim(),
    body: sanitizePostHtml(raw).trim(),
    bodyMarkdown: input.bodyMarkdown,
    ...(input.inFooter === undefined ? {} : { inFooter: input.inFooter }),
  };
}

/** Adds a page at its own address; one the site uses, or another page holds, is refused at the field. */
export async function createSitePage(db: Db, input: NewSitePageInput): Promise<AdminSitePage> {
  const slug = input.slug;
  if (isReservedAddress(slug))
    throw new HttpError(409, `The address /${slug} is part of the site.`, [
      { field: "slug", message: `The site uses /${slug} already: choose another address` },
    ]);
  const [taken] = await db.select({ slug: sitePages.slug }).from(sitePages).where(eq(sitePages.slug, slug));
  if (taken)
    throw new HttpError(409, `A page at /${slug} exists.`, [
      { field: "slug", message: `A page at /${slug} exists: choose another address` },
    ]);
  const [row] = await db
    .insert(sitePages)
    .values({ slug, ...pageValues(input) })
    .returning();
  return toAdminPage(row!);
}

/** Deletes an added page; the built-in ones stay (every page links to them). */
export async function deleteSitePage(db: Db, slug: string): Promise<void> {
  if (isBuiltIn(slug))
    throw new HttpError(409, "The Terms and Privacy pages cannot be deleted: reset one to the shipped text instead.");
  const deleted = await db.delete(sitePages).where(eq(sitePages.slug, slug)).returning({ slug: sitePages.slug });
  if (!deleted.length) throw new HttpError(404, "No such page.");
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
