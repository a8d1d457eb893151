import { desc, eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { refuseOffSiteImages } from "#server/lib/content-images.ts";
import { htmlToMarkdown } from "#server/lib/html-to-markdown.ts";
import { markdownToHtml } from "#server/lib/markdown.ts";
import { rowValues } from "#server/lib/row-values.ts";
import { sanitizePostHtml } from "#server/lib/sanitize.ts";
import { HttpError } from "#server/plugins/errors.ts";
import {
  type AdminBlogPost,
  type BlogCategory,
  type CategoryInput,
  PostInput,
} from "#shared/features/blog/contract.ts";
import { toPost } from "./service.ts";
import { blogCategories, blogPosts } from "./table.ts";

/** A post with the Markdown the editor opens: the admin's own, or an older post's HTML converted. */
export function toAdminPost(row: typeof blogPosts.$inferSelect): AdminBlogPost {
  return {
    ...toPost(row),
    contentMarkdown: row.contentMarkdown ?? htmlToMarkdown(row.content),
    convertedFromHtml: row.contentMarkdown === null,
  };
}

/** Every post, drafts included, newest first. */
export async function listAllPosts(db: Db): Promise<AdminBlogPost[]> {
  const rows = await db.select().from(blogPosts).orderBy(desc(blogPosts.createdAt), desc(blogPosts.id));
  return rows.map(toAdminPost);
}

async function categoryExists(db: Db, slug: string): Promise<boolean> {
  const [row] = await db
    .select({ id: blogCategories.id })
    .from(blogCategories)
    .where(eq(blogCategories.slug, slug))
    .limit(1);
  return row !== undefined;
}

/**
 * The stored content: the Markdown rendered and cleaned, or (from older clients) the HTML
 * cleaned; with the HTML before cleaning, which the image check reads.
 */
function postContent(input: PostInput): {
  content: string;
  contentMarkdown: string | null;
  raw: string;
  field: string;
} {
  if (input.contentMarkdown !== undefined) {
    let raw: string;
    try {
      raw = markdownToHtml(input.contentMarkdown);
    } catch (error) {
      // Text the renderer refuses (quotes nested absurdly deep): said at the field.
      if (error instanceof HttpError)
        throw new HttpError(error.status, "Some fields are missing or invalid.", [
          { field: "contentMarkdown", message: error.message },
        ]);
      throw error;
    }
    return {
      content: sanitizePostHtml(raw).trim(),
      contentMarkdown: input.contentMarkdown,
      raw,
      field: "contentMarkdown",
    };
  }
  if (input.content !== undefined) {
    return { content: sanitizePostHtml(input.content), contentMarkdown: null, raw: input.content, field: "content" };
  }
  throw new HttpError(422, "Some fields are missing or invalid.", [
    { field: "contentMarkdown", message: "Content is required, at most 200,000 characters" },
  ]);
}

/** The row values a post's form gives, checked and cleaned as when it is saved (the preview shows the same). */
export async function postValues(db: Db, input: PostInput) {
  const { content, contentMarkdown, raw, field } = postContent(input);
  // An image from another website would be accepted and then never shown (the CSP blocks it).
  refuseOffSiteImages(raw, field, "content");
  const fields = rowValues(blogPosts, PostInput, input);
  const { category } = fields;
  if (category && !(await categoryExists(db, category))) {
    throw new HttpError(422, `There is no category "${category}".`, [
      { field: "category", message: "Choose an existing category" },
    ]);
  }
  return {
    ...fields,
    title: input.title.trim(),
    content,
    contentMarkdown,
    publishAt: input.publishAt ? new Date(input.publishAt) : null,
  };
}

const SLUG_TAKEN = [{ field: "slug", message: "Another post already uses this slug" }];

async function slugTaken(db: Db, slug: string, exceptId?: number): Promise<boolean> {
  const [row] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
  return Boolean(row && row.id !== exceptId);
}

export async function createPost(db: Db, input: PostInput): Promise<AdminBlogPost> {
  if (await slugTaken(db, input.slug))
    throw new HttpError(409, `A post with the slug "${input.slug}" already exists.`, SLUG_TAKEN);
  const [row] = await db
    .insert(blogPosts)
    .values(await postValues(db, input))
    .returning();
  return toAdminPost(row!);
}

export async function updatePost(db: Db, id: number, input: PostInput): Promise<AdminBlogPost> {
  const [existing] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.id, id)).limit(1);
  if (!existing) throw new HttpError(404, "No post with that id.");
  if (await slugTaken(db, input.slug, id))
    throw new HttpError(409, `A post with the slug "${input.slug}" already exists.`, SLUG_TAKEN);
  const [row] = await db
    .update(blogPosts)
    .set({ ...(await postValues(db, input)), updatedAt: new Date() })
    .where(eq(blogPosts.id, id))
    .returning();
  return toAdminPost(row!);
}

export async function deletePost(db: Db, id: number): Promise<void> {
  const deleted = await db.delete(blogPosts).where(eq(blogPosts.id, id)).returning({ id: blogPosts.id });
  if (deleted.length === 0) throw new HttpError(404, "No post with that id.");
}

export async function createCategory(db: Db, input: CategoryInput): Promise<BlogCategory> {
  if (await categoryExists(db, input.slug))
    throw new HttpError(409, `A category with the slug "${input.slug}" already exists.`, [
      { field: "slug", message: "Another category already uses this slug" },
    ]);
  const [row] = await db.insert(blogCategories).values({ name: input.name.trim(), slug: input.slug }).returning();
  return row!;
}

/** Posts in a deleted category become Uncategorized (the foreign key sets them to null). */
export async function deleteCategory(db: Db, id: number): Promise<void> {
  const deleted = await db.delete(blogCategories).where(eq(blogCategories.id, id)).returning({ id: blogCategories.id });
  if (deleted.length === 0) {
    throw new HttpError(404, "No category with that id.");
  }
}
