import { table, text, textId, timestampNow } from "#server/db/columns.ts";

// Operator-editable text pages such as /terms and /privacy: the admin's wording, not the bundle's.
export const sitePages = table("site_pages", {
  slug: textId("slug"),
  title: text("title").notNull(),
  description: text("description").notNull(),
  body: text("body").notNull(),
  // What the admin writes; null for a page not yet saved from the editor.
  bodyMarkdown: text("body_markdown"),
  updatedAt: timestampNow("updated_at"),
});
