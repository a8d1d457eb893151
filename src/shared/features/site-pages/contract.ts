import { type Static, Type } from "@sinclair/typebox";
import { createSelectSchema } from "drizzle-typebox";
import "#shared/schema/formats.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { insertSchema } from "#shared/schema/row-schemas.ts";

/** The built-in pages: shipped with the site, linked from every page, never deleted. */
export const SITE_PAGE_SLUGS = ["terms", "privacy"] as const;

/** A page's address after the leading slash: lowercase words of letters and digits joined by hyphens. */
const PageSlug = Type.String({
  minLength: 1,
  maxLength: 60,
  pattern: "^[a-z0-9]+(-[a-z0-9]+)*$",
  error:
    "The address is required: lowercase letters, digits and single hyphens between them, at most 60 characters (such as about-us)",
});

// The table (src/server/features/site-pages/table.ts) declares a page's fields once; the shapes
// here are derived from it, with the product's rules and messages.

/** An operator-editable text page (docs/product.md#terms-and-privacy-pages). body is trusted HTML from content/ or the admin. */
export const SitePage = Type.Omit(
  createSelectSchema(sitePages, {
    slug: PageSlug,
    title: Type.String({ minLength: 1, maxLength: 120 }),
    description: Type.String({ minLength: 20, maxLength: 300 }),
    body: Type.String({ minLength: 1 }),
    updatedAt: Type.String({ format: "date-time" }),
  }),
  ["bodyMarkdown"],
);
export type SitePage = Static<typeof SitePage>;

/** What the admin's page editor sends: plain-text title and description, the body in Markdown. */
export const SitePageInput = Type.Omit(
  insertSchema(sitePages, {
    title: Type.String({ minLength: 1, maxLength: 120, error: "Title is required, at most 120 characters" }),
    description: Type.String({
      minLength: 20,
      maxLength: 300,
      error: "Description is required: 20 to 300 characters (search results show it)",
    }),
    bodyMarkdown: Type.String({
      minLength: 1,
      maxLength: 200_000,
      pattern: "\\S",
      error: "The page's text is required (at most 200,000 characters)",
    }),
  }),
  ["slug", "body", "updatedAt"],
);
export type SitePageInput = Static<typeof SitePageInput>;

/** A page the admin adds: its address as well (fixed once made). */
export const NewSitePageInput = Type.Composite([Type.Object({ slug: PageSlug }), SitePageInput]);
export type NewSitePageInput = Static<typeof NewSitePageInput>;

/** A page as the admin API serves it: as stored ({{brand}} not filled in), with the Markdown the editor opens. */
export type AdminSitePage = SitePage & {
  /** A built-in page (terms, privacy): reset to its shipped text, never deleted. */
  builtIn: boolean;
  bodyMarkdown: string;
  /** True when the page had only HTML and the Markdown is its conversion. */
  convertedFromHtml: boolean;
};
