import { desc, eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { blogCategories, blogPosts } from "./table.ts";
import type { CategoryInput, PostInput } from "#shared/features/blog/contract.ts";
import type { BlogCategory, BlogPost } from "#shared/features/blog/contract.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { sanitizePostHtml } from "#server/lib/sanitize.ts";
import { toPost } from "./service.ts";

const blank = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === "" ? null : v.trim());

/** Every post, drafts included, newest first. */
export function listAllPosts(db: Db): BlogPost[] {
  return db.select().from(blogPosts).orderBy(desc(blogPosts.createdAt), desc(blogPosts.id)).all().map(toPost);
}

function postValues(db: Db, input: PostInput) {
  const category = blank(input.category);
  if (category && !db.select({ id: blogCategories.id }).from(blogCategories).where(eq(blogCategories.slug, category)).get()) {
    throw new HttpError(422, `There is no category "${category}".`, [{ field: "category", message: "Choose an existing category" }]);
  }
  return {
    title: input.title.trim(),
    slug: input.slug,
    content: sanitizePostHtml(input.content),
    excerpt: blank(input.excerpt),
    category,
    coverImage: blank(input.coverImage),
    published: input.published,
    metaDescription: blank(input.metaDescription),
    metaKeywords: blank(input.metaKeywords),
  };
}

const SLUG_TAKEN = [{ field: "slug", message: "Another post already uses this slug" }];

function slugTaken(db: Db, slug: string, exceptId?: number): boolean {
  const row = db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, slug)).get();
  return Boolean(row && row.id !== exceptId);
}

export function createPost(db: Db, input: PostInput): BlogPost {
  if (slugTaken(db, input.slug)) throw new HttpError(409, `A post with the slug "${input.slug}" already exists.`, SLUG_TAKEN);
  const row = db.insert(blogPosts).values(postValues(db, input)).returning().get();
  return toPost(row);
}

export function updatePost(db: Db, id: number, input: PostInput): BlogPost {
  if (!db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.id, id)).get()) throw new HttpError(404, "No post with that id.");
  if (slugTaken(db, input.slug, id)) throw new HttpError(409, `A post with the slug "${input.slug}" already exists.`, SLUG_TAKEN);
  const row = db.update(blogPosts).set({ ...postValues(db, input), updatedAt: new Date() }).where(eq(blogPosts.id, id)).returning().get();
  return toPost(row!);
}

export function deletePost(db: Db, id: number): void {
  if (db.delete(blogPosts).where(eq(blogPosts.id, id)).returning({ id: blogPosts.id }).all().length === 0) {
    throw new HttpError(404, "No post with that id.");
  }
}

export function createCategory(db: Db, input: CategoryInput): BlogCategory {
  if (db.select({ id: blogCategories.id }).from(blogCategories).where(eq(blogCategories.slug, input.slug)).get()) {
    throw new HttpError(409, `A category with the slug "${input.slug}" already exists.`, [{ field: "slug", message: "Another category already uses this slug" }]);
  }
  return db.insert(blogCategories).values({ name: input.name.trim(), slug: input.slug }).returning().get();
}

/** Posts in a deleted category become Uncategorized (the foreign key sets them to null). */
export function deleteCategory(db: Db, id: number): void {
  if (db.delete(blogCategories).where(eq(blogCategories.id, id)).returning({ id: blogCategories.id }).all().length === 0) {
    throw new HttpError(404, "No category with that id.");
  }
}
