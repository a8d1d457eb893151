import { boolean, table, text, textId, timestampNow } from "#server/db/columns.ts";

// Operator-editable text pages: the built-in /terms and /privacy (the admin's wording, not the
// bundle's) and the pages the admin adds (About, Contact…) at their own addresses.
export const sitePages = table("site_pages", {
  slug: textId("slug"),
  title: text("title").notNull(),
  description: text("description").notNull(),
  body: text("body").notNull(),
  // What the admin writes; null for a page not yet saved from the editor.
  bodyMarkdown: text("body_markdown"),
  // An added page's link in every page's footer (the built-in pages are always linked there).
  inFooter: boolean("in_footer").notNull().default(false),
  updatedAt: timestampNow("updated_at"),
});
