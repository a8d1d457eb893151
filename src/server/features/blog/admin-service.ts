import { desc, eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { imageOffSite, imageSources, sanitizePostHtml } from "#server/lib/sanitize.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { BlogCategory, BlogPost, CategoryInput, PostInput } from "#shared/features/blog/contract.ts";
import { toPost } from "./service.ts";
import { blogCategories, blogPosts } from "./table.ts";

const blank = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === "" ? null : v.trim());

/** Every post, drafts included, newest first. */
export async function listAllPosts(db: Db): Promise<BlogPost[]> {
  const rows = await db.select().from(blogPosts).orderBy(desc(blogPosts.createdAt), desc(blogPosts.id));
  return rows.map(toPost);
}

async function categoryExists(db: Db, slug: string): Promise<boolean> {
  const [row] = await db
    .select({ id: blogCategories.id })
    .from(blogCategories)
    .where(eq(blogCategories.slug, slug))
    .limit(1);
  return row !== undefined;
}

/** The row values a post's form gives, checked and cleaned as when it is saved (the preview shows the same). */
export async function postValues(db: Db, input: PostInput) {
  // An image from another website would be accepted and then never shown (the CSP blocks it).
  const offSite = imageSources(input.content).find(imageOffSite);
  if (offSite !== undefined) {
    throw new HttpError(422, "Some fields are missing or invalid.", [
      {
        field: "content",
        message: `Images in the content must be uploaded here: the site's security policy blocks images from other websites (${offSite.trim().slice(0, 100)})`,
      },
    ]);
  }
  const category = blank(input.category);
  if (category && !(await categoryExists(db, category))) {
    throw new HttpError(422, `There is no category "${category}".`, [
      { field: "category", message: "Choose an existing category" },
    ]);
  }
  return {
    title: input.title.trim(),
    slug: input.slug,
    content: sanitizePostHtml(input.content),
    excerpt: blank(input.excerpt),
    category,
    coverImage: blank(input.coverImage),
    published: input.published,
    publishAt: input.publishAt ? new Date(input.publishAt) : null,
    metaDescription: blank(input.metaDescription),
    metaKeywords: blank(input.metaKeywords),
  };
}

const SLUG_TAKEN = [{ field: "slug", message: "Another post already uses this slug" }];

async function slugTaken(db: Db, slug: string, exceptId?: number): Promise<boolean> {
  const [row] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
  return Boolean(row && row.id !== exceptId);
}

export async function createPost(db: Db, input: PostInput): Promise<BlogPost> {
  if (await slugTaken(db, input.slug))
    throw new HttpError(409, `A post with the slug "${input.slug}" already exists.`, SLUG_TAKEN);
  const [row] = await db
    .insert(blogPosts)
    .values(await postValues(db, input))
    .returning();
  return toPost(row!);
}

export async function updatePost(db: Db, id: number, input: PostInput): Promise<BlogPost> {
  const [existing] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.id, id)).limit(1);
  if (!existing) throw new HttpError(404, "No post with that id.");
  if (await slugTaken(db, input.slug, id))
    throw new HttpError(409, `A post with the slug "${input.slug}" already exists.`, SLUG_TAKEN);
  const [row] = await db
    .update(blogPosts)
    .set({ ...(await postValues(db, input)), updatedAt: new Date() })
    .where(eq(blogPosts.id, id))
    .returning();
  return toPost(row!);
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
