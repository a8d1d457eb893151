// Everything the seed loads, imported so that the executable carries it.

import blogCategories from "#content/blog/categories.json" with { type: "json" };
import offers from "#content/offers.json" with { type: "json" };
import sitePageIndex from "#content/pages/index.json" with { type: "json" };
import privacyHtml from "#content/pages/privacy.html" with { type: "text" };
import termsHtml from "#content/pages/terms.html" with { type: "text" };
import products from "#content/products.json" with { type: "json" };
import siteSettings from "#content/site-settings.json" with { type: "json" };
import { seedPosts } from "#server/features/blog/seed-posts.ts";

// Bun's types call every .html import an HTML bundle; with type "text" it is the file's text.
const pageBodies: Record<string, string> = {
  "terms.html": termsHtml as unknown as string,
  "privacy.html": privacyHtml as unknown as string,
};

export const content = {
  siteSettings,
  products,
  offers,
  blogCategories,
  blogPosts: seedPosts,
  sitePages: sitePageIndex.map(({ file, ...page }) => {
    const body = pageBodies[file];
    if (body === undefined) throw new Error(`content/pages/index.json names ${file}, which is not imported`);
    // The leading comment is a note to the operator, not page text.
    return { ...page, body: body.replace(/^\s*<!--[\s\S]*?-->\s*/, "") };
  }),
};
export type Content = typeof content;
