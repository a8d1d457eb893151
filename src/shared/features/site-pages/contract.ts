import { type Static, Type } from "@sinclair/typebox";
import "#shared/schema/formats.ts";
import { literalUnion } from "#shared/schema/common.ts";

export const SITE_PAGE_SLUGS = ["terms", "privacy"] as const;
export type SitePageSlug = (typeof SITE_PAGE_SLUGS)[number];

/** An operator-editable text page (docs/product.md#terms-and-privacy-pages). body is trusted HTML from content/ or the admin. */
export const SitePage = Type.Object({
  slug: literalUnion(SITE_PAGE_SLUGS),
  title: Type.String({ minLength: 1, maxLength: 120 }),
  description: Type.String({ minLength: 20, maxLength: 300 }),
  body: Type.String({ minLength: 1 }),
  updatedAt: Type.String({ format: "date-time" }),
});
export type SitePage = Static<typeof SitePage>;
