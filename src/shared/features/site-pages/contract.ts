import { type Static, Type } from "@sinclair/typebox";
import { createSelectSchema } from "drizzle-typebox";
import "#shared/schema/formats.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { literalUnion } from "#shared/schema/common.ts";
import { insertSchema } from "#shared/schema/row-schemas.ts";

export const SITE_PAGE_SLUGS = ["terms", "privacy"] as const;
export type SitePageSlug = (typeof SITE_PAGE_SLUGS)[number];

// The table (src/server/features/site-pages/table.ts) declares a page's fields once; the shapes
// here are derived from it, with the product's rules and messages.

/** An operator-editable text page (docs/product.md#terms-and-privacy-pages). body is trusted HTML from content/ or the admin. */
export const SitePage = Type.Omit(
  createSelectSchema(sitePages, {
    slug: literalUnion(SITE_PAGE_SLUGS),
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

/** A page as the admin API serves it: as stored ({{brand}} not filled in), with the Markdown the editor opens. */
export type AdminSitePage = SitePage & {
  bodyMarkdown: string;
  /** True when the page had only HTML and the Markdown is its conversion. */
  convertedFromHtml: boolean;
};
