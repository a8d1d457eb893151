import { count, desc, eq, isNotNull, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { inTransaction } from "#server/db/transaction.ts";
import type { Db } from "#server/db/types.ts";
import { refuseOffSiteImages } from "#server/lib/content-images.ts";
import { htmlToMarkdown } from "#server/lib/html-to-markdown.ts";
import { markdownToHtml } from "#server/lib/markdown.ts";
import { rowValues } from "#server/lib/row-values.ts";
import { sanitizePostHtml } from "#server/lib/sanitize.ts";
import { HttpError } from "#server/plugins/errors.ts";
import {
  type AdminBlogPost,
  type AdminPostPage,
  type BlogCategory,
  type CategoryInput,
  PostInput,
} from "#shared/features/blog/contract.ts";
import { sent } from "#shared/schema/sent.ts";
import { forgetTarget, recordMove, releaseAddress } from "./redirects.ts";
import { plainText } from "./search.ts";
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

/** Posts on one page of the admin's list (docs/decisions/088-admin-post-list-pages.md). */
export const ADMIN_POSTS_PAGE_SIZE = 20;

/** The columns a row of the admin's list shows: never the text, which the editor asks for by id. */
const LIST_COLUMNS = {
  id: blogPosts.id,
  title: blogPosts.title,
  slug: blogPosts.slug,
  category: blogPosts.category,
  published: blogPosts.published,
  publishAt: blogPosts.publishAt,
  createdAt: blogPosts.createdAt,
  updatedAt: blogPosts.updatedAt,
};

/** `text` as a LIKE pattern that finds it anywhere, its own % _ and \ meaning themselves. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Whether `column` holds `text`, whatever the case: lower() on both sides (LIKE alone ignores
 * case on SQLite and not on PostgreSQL; ILIKE is PostgreSQL's only). The escape character is
 * named, as SQLite has none by default.
 */
function holds(column: SQLWrapper, text: string): SQL {
  return sql`lower(${column}) like lower(${containing(text)}) escape '\\'`;
}

/**
 * One page of the admin's posts, drafts included, newest first: what a row shows, how many
 * posts match in all and the pages they fill. `q` (trimmed) keeps the posts whose title or
 * slug holds it, in any case. A page past the last one is empty, with the real counts.
 */
export async function listPostPage(
  db: Db,
  { page = 1, q = "" }: { page?: number; q?: string },
): Promise<AdminPostPage> {
  const search = q.trim();
  const where = search === "" ? undefined : or(holds(blogPosts.title, search), holds(blogPosts.slug, search));
  const [counted] = await db.select({ total: count() }).from(blogPosts).where(where);
  const total = counted?.total ?? 0;
  const rows = await db
    .select(LIST_COLUMNS)
    .from(blogPosts)
    .where(where)
    .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id))
    .limit(ADMIN_POSTS_PAGE_SIZE)
    .offset((page - 1) * ADMIN_POSTS_PAGE_SIZE);
  return {
    posts: rows.map((row) => ({ ...sent(row), date: (row.publishAt ?? row.createdAt).toISOString() })),
    total,
    page,
    pages: Math.ceil(total / ADMIN_POSTS_PAGE_SIZE),
    pageSize: ADMIN_POSTS_PAGE_SIZE,
  };
}

/** The post `id` as its editor opens it; a 404 when there is none. */
export async function getAdminPost(db: Db, id: number): Promise<AdminBlogPost> {
  const [row] = await db.select().from(blogPosts).where(eq(blogPosts.id, id)).limit(1);
  if (!row) throw new HttpError(404, "No post with that id: it may have been deleted.");
  return toAdminPost(row);
}

/** How many posts, drafts included, each category holds (a category with none is not listed). */
export async function postsPerCategory(db: Db): Promise<{ category: string; posts: number }[]> {
  const rows = await db
    .select({ category: blogPosts.category, posts: count() })
    .from(blogPosts)
    .where(isNotNull(blogPosts.category))
    .groupBy(blogPosts.category);
  return rows.flatMap(({ category, posts }) => (category === null ? [] : [{ category, posts }]));
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

const noSuchCategory = (category: string) =>
  new HttpError(422, `There is no category "${category}".`, [
    { field: "category", message: "Choose an existing category" },
  ]);

/** The row values a post's form gives, cleaned as when it is saved; its category is not checked yet. */
function postRow(input: PostInput) {
  const { content, contentMarkdown, raw, field } = postContent(input);
  // An image from another website would be accepted and then never shown (the CSP blocks it).
  refuseOffSiteImages(raw, field, "content");
  return {
    ...rowValues(blogPosts, PostInput, input),
    title: input.title.trim(),
    content,
    contentMarkdown,
    // The words the search index holds, derived here once rather than on each search.
    searchText: plainText(content),
    publishAt: input.publishAt ? publishDate(input.publishAt) : null,
  };
}

/**
 * A publish date on the calendar (not 30 February, which Date would move to March), in the years
 * 2000 to 9999: an earlier one is a mistake, and PostgreSQL reads years below 100 back wrong.
 */
function publishDate(value: string): Date {
  const date = new Date(value);
  const day = value.slice(0, 10);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 2000 || year > 9999 || !sameDay(day, value))
    throw new HttpError(422, "The publish date is not a day on the calendar between the years 2000 and 9999.", [
      { field: "publishAt", message: "Choose a real date between the years 2000 and 9999" },
    ]);
  return date;
}

/** Whether the date part `day` (YYYY-MM-DD) of `value` names a day that exists. */
function sameDay(day: string, value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return false;
  const noon = new Date(`${day}T12:00:00Z`);
  return !Number.isNaN(noon.getTime()) && noon.toISOString().slice(0, 10) === day;
}

/** A post's category, when it names one, exists. */
async function checkCategory(db: Db, category: string | null | undefined): Promise<void> {
  if (category && !(await categoryUsesSlug(db, category))) throw noSuchCategory(category);
}

/** The row values a post's form gives, checked and cleaned as when it is saved (for the preview). */
export async function postValues(db: Db, input: PostInput) {
  const row = postRow(input);
  await checkCategory(db, row.category);
  return row;
}

const SLUG_TAKEN = [{ field: "slug", message: "Another post already uses this slug" }];

async function slugTaken(db: Db, slug: string, exceptId?: number): Promise<boolean> {
  const [row] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
  return Boolean(row && row.id !== exceptId);
}

/**
 * What a post's save checks inside its transaction, where no other change can come between the
 * check and the write: its slug is free, and its category exists (not renamed or deleted).
 */
async function checkPost(tx: Db, input: PostInput, category: string | null | undefined, id?: number) {
  if (await slugTaken(tx, input.slug, id))
    throw new HttpError(409, `A post with the slug "${input.slug}" already exists.`, SLUG_TAKEN);
  await checkCategory(tx, category);
}

export async function createPost(db: Db, input: PostInput): Promise<AdminBlogPost> {
  const values = postRow(input);
  const row = await inTransaction(db, async (tx) => {
    await checkPost(tx, input, values.category);
    const [row] = await tx.insert(blogPosts).values(values).returning();
    // A redirect from this address would never be used again: the post answers there.
    await releaseAddress(tx, "post", input.slug);
    return row!;
  });
  return toAdminPost(row);
}

/**
 * Saves a post. A published post whose slug changes keeps its old address: it forwards to the
 * new one (a draft's address was never public, so only redirects to it move along). The slug
 * it had is read inside the transaction: saves sent side by side each move the address the
 * one before left.
 */
export async function updatePost(db: Db, id: number, input: PostInput): Promise<AdminBlogPost> {
  const values = postRow(input);
  const row = await inTransaction(db, async (tx) => {
    const [existing] = await tx
      .select({ slug: blogPosts.slug, published: blogPosts.published })
      .from(blogPosts)
      .where(eq(blogPosts.id, id))
      .limit(1);
    if (!existing) throw new HttpError(404, "No post with that id.");
    await checkPost(tx, input, values.category, id);
    const [row] = await tx
      .update(blogPosts)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(blogPosts.id, id))
      .returning();
    if (existing.slug !== input.slug) {
      await recordMove(tx, "post", existing.slug, input.slug, { keepOld: existing.published });
    }
    return row!;
  });
  return toAdminPost(row);
}

export async function deletePost(db: Db, id: number): Promise<void> {
  await inTransaction(db, async (tx) => {
    const deleted = await tx.delete(blogPosts).where(eq(blogPosts.id, id)).returning({ slug: blogPosts.slug });
    if (deleted.length === 0) throw new HttpError(404, "No post with that id.");
    // Its old addresses led to it alone: they now find nothing, like its own.
    await forgetTarget(tx, "post", deleted[0]!.slug);
  });
}

const CATEGORY_TAKEN = [{ field: "slug", message: "Another category already uses this slug" }];

async function categoryUsesSlug(db: Db, slug: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: blogCategories.id })
    .from(blogCategories)
    .where(eq(blogCategories.slug, slug))
    .limit(1);
  return Boolean(row && row.id !== exceptId);
}

const categoryTaken = (slug: string) =>
  new HttpError(409, `A category with the slug "${slug}" already exists.`, CATEGORY_TAKEN);

export async function createCategory(db: Db, input: CategoryInput): Promise<BlogCategory> {
  return inTransaction(db, async (tx) => {
    if (await categoryUsesSlug(tx, input.slug)) throw categoryTaken(input.slug);
    const [row] = await tx.insert(blogCategories).values({ name: input.name.trim(), slug: input.slug }).returning();
    await releaseAddress(tx, "category", input.slug);
    return row!;
  });
}

/** The slug of the category `id`; a 404 when there is none. */
async function categorySlug(db: Db, id: number): Promise<string> {
  const [row] = await db.select({ slug: blogCategories.slug }).from(blogCategories).where(eq(blogCategories.id, id));
  if (!row) throw new HttpError(404, "No category with that id.");
  return row.slug;
}

/**
 * Renames a category: its name, or its slug too. Its posts follow the new slug (the foreign
 * key carries it), and its old list address forwards to the new one. Everything is read inside
 * the transaction, so renames and deletes sent side by side each start from the last one's end.
 */
export async function updateCategory(db: Db, id: number, input: CategoryInput): Promise<BlogCategory> {
  return inTransaction(db, async (tx) => {
    const slug = await categorySlug(tx, id);
    if (await categoryUsesSlug(tx, input.slug, id)) throw categoryTaken(input.slug);
    const [row] = await tx
      .update(blogCategories)
      .set({ name: input.name.trim(), slug: input.slug })
      .where(eq(blogCategories.id, id))
      .returning();
    if (slug !== input.slug) await recordMove(tx, "category", slug, input.slug, { keepOld: true });
    return row!;
  });
}

/**
 * Deletes a category. Its posts become Uncategorized (the foreign key sets them to null) and
 * its list address forwards to the blog's. Answers how many posts it had.
 */
export async function deleteCategory(db: Db, id: number): Promise<{ posts: number }> {
  return inTransaction(db, async (tx) => {
    const slug = await categorySlug(tx, id);
    const [posts] = await tx.select({ count: count() }).from(blogPosts).where(eq(blogPosts.category, slug));
    await tx.delete(blogCategories).where(eq(blogCategories.id, id));
    await recordMove(tx, "category", slug, null, { keepOld: true });
    return { posts: posts?.count ?? 0 };
  });
}
