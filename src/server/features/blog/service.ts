import { and, asc, desc, eq, ne } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { sanitizePostHtml } from "#server/lib/sanitize.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { readingMinutes } from "#shared/features/blog/blog.ts";
import type { BlogCategory, BlogPost, BlogPostSummary } from "#shared/features/blog/contract.ts";
import { blogCategories, blogPosts } from "./table.ts";

type Row = typeof blogPosts.$inferSelect;

const NO_PUBLISHED_POST = "No published post with that slug.";

export function listCategories(db: Db): Promise<BlogCategory[]> {
  return db.select().from(blogCategories).orderBy(asc(blogCategories.name));
}

export function toPost(row: Row): BlogPost {
  return {
    ...toSummary(row),
    // Stored clean; cleaned again on the way out so a row written by other means is safe too.
    content: sanitizePostHtml(row.content),
    metaDescription: row.metaDescription,
    metaKeywords: row.metaKeywords,
    published: row.published,
  };
}

export function toSummary(row: Row): BlogPostSummary {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    category: row.category,
    coverImage: row.coverImage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    readingMinutes: readingMinutes(row.content),
  };
}

/** Published posts, newest first. Drafts never leave the admin. */
export async function listPublishedPosts(db: Db): Promise<BlogPostSummary[]> {
  const rows = await db
    .select()
    .from(blogPosts)
    .where(eq(blogPosts.published, true))
    .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id));
  return rows.map(toSummary);
}

export async function getPublishedPost(db: Db, slug: string): Promise<BlogPost> {
  const [row] = await db
    .select()
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug), eq(blogPosts.published, true)))
    .limit(1);
  if (!row) throw new HttpError(404, NO_PUBLISHED_POST);
  return toPost(row);
}

/**
 * Up to three other published posts of the same category, newest first. A draft answers
 * exactly like a post that does not exist, so the endpoint cannot tell that it does.
 */
export async function relatedPosts(db: Db, slug: string, limit = 3): Promise<BlogPostSummary[]> {
  const [post] = await db
    .select({ category: blogPosts.category })
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug), eq(blogPosts.published, true)))
    .limit(1);
  if (!post) throw new HttpError(404, NO_PUBLISHED_POST);
  if (!post.category) return [];
  const rows = await db
    .select()
    .from(blogPosts)
    .where(and(eq(blogPosts.category, post.category), eq(blogPosts.published, true), ne(blogPosts.slug, slug)))
    .orderBy(desc(blogPosts.createdAt))
    .limit(limit);
  return rows.map(toSummary);
}
