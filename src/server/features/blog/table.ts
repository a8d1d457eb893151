import { boolean, index, serialId, table, text, timestamp, timestampNow } from "#server/db/columns.ts";

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
    // The clean HTML the site shows, rendered from contentMarkdown when the post has it.
    content: text("content").notNull(),
    // What the admin writes (docs/decisions: the writing editor). Null for a post saved
    // before the editor wrote Markdown: the editor then opens its HTML converted.
    contentMarkdown: text("content_markdown"),
    metaDescription: text("meta_description"),
    metaKeywords: text("meta_keywords"),
    published: boolean("published").notNull().default(false),
    // A published post with a publish date still to come is scheduled: hidden until then.
    publishAt: timestamp("publish_at"),
    createdAt: timestampNow("created_at"),
    updatedAt: timestampNow("updated_at"),
  },
  (table) => [index("blog_posts_published_created_idx").on(table.published, table.createdAt)],
);
