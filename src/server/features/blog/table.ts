import { boolean, index, serialId, table, text, timestampNow } from "#server/db/columns.ts";

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
    content: text("content").notNull(),
    metaDescription: text("meta_description"),
    metaKeywords: text("meta_keywords"),
    published: boolean("published").notNull().default(false),
    createdAt: timestampNow("created_at"),
    updatedAt: timestampNow("updated_at"),
  },
  (table) => [index("blog_posts_published_created_idx").on(table.published, table.createdAt)],
);
