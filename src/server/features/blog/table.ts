import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const blogCategories = sqliteTable("blog_categories", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
});

export const blogPosts = sqliteTable(
  "blog_posts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    slug: text("slug").notNull().unique(),
    excerpt: text("excerpt"),
    // Posts name their category by slug (SPEC 3). Deleting the category leaves the
    // post Uncategorized rather than deleting it.
    category: text("category").references(() => blogCategories.slug, {
      onDelete: "set null",
      onUpdate: "cascade",
    }),
    coverImage: text("cover_image"),
    content: text("content").notNull(),
    metaDescription: text("meta_description"),
    metaKeywords: text("meta_keywords"),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
  },
  (table) => [index("blog_posts_published_created_idx").on(table.published, table.createdAt)],
);
