import { eq } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { getSettings } from "#server/features/settings/service.ts";
import { cleanStoredHtml } from "#server/lib/sanitize.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { fillTokens } from "#shared/features/settings/brand.ts";
import { describeRetention } from "#shared/features/settings/result-retention.ts";
import type { SitePage } from "#shared/features/site-pages/contract.ts";
import { sitePages } from "./table.ts";

/** Text for HTML: markup characters escaped. */
function htmlText(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/**
 * The legal pages' sentence naming who runs the site and how to reach them ({{operatorContact}}),
 * as HTML. While the operator has published neither, it says so rather than pointing visitors to
 * details that do not exist.
 */
function operatorContactHtml(name: string, contact: string): string {
  const who = htmlText(name);
  if (!contact) {
    return who
      ? `That is ${who}, who has not published contact details here yet.`
      : "The operator has not published their name or contact details here yet.";
  }
  const href = /^https?:\/\//i.test(contact) ? contact : `mailto:${contact}`;
  const link = `<a href="${htmlText(href)}">${htmlText(contact)}</a>`;
  return who ? `That is ${who}, reachable at ${link}.` : `They can be reached at ${link}.`;
}

export async function getSitePage(db: Db, slug: string, contact: string): Promise<SitePage> {
  const [row] = await db.select().from(sitePages).where(eq(sitePages.slug, slug)).limit(1);
  if (!row) throw new HttpError(404, "No such page.");
  const settings = await getSettings(db);
  const tokens = {
    brand: settings.brandName,
    contact,
    resultRetention: describeRetention(settings.resultRetentionDays),
  };
  const operatorContact = operatorContactHtml(settings.operatorName ?? "", settings.operatorContact ?? "");
  return {
    slug: row.slug,
    inFooter: row.inFooter,
    // Title and description are plain text (the page escapes them); the body is HTML, so
    // the values filled into it are escaped first, and the result goes through the same
    // allow-list as a post's content.
    title: fillTokens(row.title, tokens),
    description: fillTokens(row.description, tokens),
    body: cleanStoredHtml(
      fillTokens(row.body, {
        brand: htmlText(tokens.brand),
        contact: htmlText(tokens.contact),
        resultRetention: htmlText(tokens.resultRetention),
        operatorContact,
      }),
    ),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Whether a page (built-in or added) is at this address. */
export async function sitePageExists(db: Db, slug: string): Promise<boolean> {
  const [row] = await db.select({ slug: sitePages.slug }).from(sitePages).where(eq(sitePages.slug, slug)).limit(1);
  return row !== undefined;
}
