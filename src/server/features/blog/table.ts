import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  serialId,
  table,
  text,
  textEnum,
  timestamp,
  timestampNow,
  uniqueIndex,
} from "#server/db/columns.ts";

export const blogCategories = table("blog_categories", {
  id: serialId("id"),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
});

export const blogPosts = table(
  "blog_posts",
  {
    id: serialId("id"),
    title: text("title").notNull(),
    slug: text("slug").notNull().unique(),
    excerpt: text("excerpt"),
    // Posts name their category by slug. Deleting the category leaves the post
    // Uncategorized rather than deleting it.
    category: text("category").references(() => blogCategories.slug, {
      onDelete: "set null",
      onUpdate: "cascade",
    }),
    coverImage: text("cover_image"),
    metaDescription: text("meta_description"),
    metaKeywords: text("meta_keywords"),
    published: boolean("published").notNull().default(false),
    // A published post with a publish date still to come is scheduled: hidden until then.
    publishAt: timestamp("publish_at"),
    createdAt: timestampNow("created_at"),
    updatedAt: timestampNow("updated_at"),
    // The long texts come last (drizzle/0014): SQLite keeps a row's columns in this order, and a
    // column after a long text is read only by walking the pages that text spills onto, so a
    // list (which reads the short columns of thousands of rows) would read every text too.
    // The clean HTML the site shows, rendered from contentMarkdown when the post has it.
    content: text("content").notNull(),
    // What the admin writes (docs/decisions: the writing editor). Null for a post saved
    // before the editor wrote Markdown: the editor then opens its HTML converted.
    contentMarkdown: text("content_markdown"),
    // The content's words as plain text, derived on save, for the search index: SQLite's FTS5
    // table blog_posts_search and PostgreSQL's GIN index over title, excerpt and this (decision
    // 086). Null for a row saved before it existed: filled at the next start.
    searchText: text("search_text"),
  },
  (table) => [
    index("blog_posts_published_created_idx").on(table.published, table.createdAt),
    // The blog's list in its order (the date it shows, newest first), holding what its filter
    // reads: a page and its count read this index and the page's twelve rows, not every post.
    index("blog_posts_list_idx").on(
      table.published,
      sql`coalesce(${table.publishAt}, ${table.createdAt})`,
      table.id,
      table.publishAt,
      table.category,
    ),
    // The admin's list, drafts included, newest first (its order, read backwards): a page reads
    // its twenty rows, where a sort read every post (33 ms at 10,000 posts).
    index("blog_posts_admin_list_idx").on(table.createdAt, table.id),
    // The rows still without their words (saved before the search existed), which each start
    // fills: empty once they are, so the start's look for them reads no row, where a scan
    // walked every post's text (0.6 s from a cold disk at 10,000 posts).
    index("blog_posts_search_text_missing_idx").on(table.id).where(sql`${table.searchText} is null`),
  ],
);

/**
 * An old address that forwards for good (301): a post's or a category's slug before it was
 * changed, and the slug it forwards to. A deleted category's address forwards to the blog's
 * list (no `toSlug`). Addresses are built from slugs only, so a redirect never leaves the site.
 */
export const blogRedirects = table(
  "blog_redirects",
  {
    id: serialId("id"),
    kind: textEnum("kind", ["post", "category"]).notNull(),
    fromSlug: text("from_slug").notNull(),
    toSlug: text("to_slug"),
    createdAt: timestampNow("created_at"),
  },
  (table) => [uniqueIndex("blog_redirects_from_idx").on(table.kind, table.fromSlug)],
);
