// Everything the seed loads, imported so that the executable carries it.

import blogCategories from "#content/blog/categories.json" with { type: "json" };
import offers from "#content/offers.json" with { type: "json" };
import products from "#content/products.json" with { type: "json" };
import siteSettings from "#content/site-settings.json" with { type: "json" };
import { seedPosts } from "#server/features/blog/seed-posts.ts";
import { parseSitePages } from "./site-page-files.ts" with { type: "macro" };

const sitePages = parseSitePages();

export const content = {
  siteSettings,
  products,
  offers,
  blogCategories,
  blogPosts: seedPosts,
  sitePages,
};
export type Content = typeof content;
