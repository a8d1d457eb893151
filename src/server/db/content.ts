// Everything the seed loads, imported so that the executable carries it.

import { Type } from "@sinclair/typebox";
import blogCategories from "#content/blog/categories.json" with { type: "json" };
import offers from "#content/offers.json" with { type: "json" };
import privacyMd from "#content/pages/privacy.md" with { type: "text" };
import termsMd from "#content/pages/terms.md" with { type: "text" };
import products from "#content/products.json" with { type: "json" };
import siteSettings from "#content/site-settings.json" with { type: "json" };
import { seedPosts } from "#server/features/blog/seed-posts.ts";
import { readMarkdown } from "#server/lib/markdown.ts";
import { SitePage } from "#shared/features/site-pages/contract.ts";

// The site pages (terms, privacy): front matter for slug, title and description, the body
// in Markdown. {{brand}} in the text becomes the brand name when the page is shown.
const PageFrontMatter = Type.Pick(SitePage, ["slug", "title", "description"]);
const sitePages = Object.entries({ "terms.md": termsMd, "privacy.md": privacyMd }).map(([file, text]) => {
  const { data, html, markdown } = readMarkdown(`content/pages/${file}`, text, PageFrontMatter);
  return { ...data, body: html, bodyMarkdown: markdown };
});

export const content = {
  siteSettings,
  products,
  offers,
  blogCategories,
  blogPosts: seedPosts,
  sitePages,
};
export type Content = typeof content;
