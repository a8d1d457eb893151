import { and, asc, desc, eq, getTableColumns, gt, isNull, lte, min, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { sanitizePostHtml } from "#server/lib/sanitize.ts";
import { takingTurns } from "#server/lib/taking-turns.ts";
import { byText } from "#server/lib/text-memo.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { readingMinutes, searchWords } from "#shared/features/blog/blog.ts";
import {
  BLOG_PAGE_SIZE,
  blogPageNumber,
  MATCH_START,
  MAX_BLOG_PAGE,
  MAX_BLOG_SEARCH,
  MAX_CATEGORY_SLUG,
  PREFIX_SEARCH_LETTERS,
  searchesByPrefix,
} from "#shared/features/blog/constants.ts";
import type {
  BlogCategory,
  BlogPost,
  BlogPostSummary,
  BlogPostsPage,
  FoundPost,
} from "#shared/features/blog/contract.ts";
import { sent } from "#shared/schema/sent.ts";
import { type TextSearch, textSearch } from "./search.ts";
import { blogCategories, blogPosts } from "./table.ts";

type Row = typeof blogPosts.$inferSelect;

const NO_PUBLISHED_POST = "No published post with that slug.";

export function listCategories(db: Db): Promise<BlogCategory[]> {
  return db.select().from(blogCategories).orderBy(asc(blogCategories.name));
}

/**
 * What a post's page derives from its stored text, worked out once for each text (byText): the
 * text cleaned again (stored clean; cleaned on the way out so a row written by other means is
 * safe too) and its reading time. One memo, so a render hashes the text once.
 */
const derived = byText((html) => ({ content: sanitizePostHtml(html), readingMinutes: readingMinutes(html) }));

// Not a copy of the row: each view computes what the row does not hold (the content cleaned again,
// the reading time, the date shown) and sends the dates as ISO strings.

/** What a post's page reads of its row: not the Markdown the editor keeps, nor the words the search reads. */
const { contentMarkdown: _markdown, searchText: _words, ...POST_COLUMNS } = getTableColumns(blogPosts);
type ShownRow = Omit<Row, "contentMarkdown" | "searchText">;

export function toPost(row: ShownRow): BlogPost {
  const { contentMarkdown: _m, searchText: _w, ...shown } = row as ShownRow & Partial<Row>;
  return {
    ...sent(shown),
    ...derived(row.content),
    date: (row.publishAt ?? row.createdAt).toISOString(),
  };
}

/**
 * The columns a list of posts shows: never its text (at 10,000 posts of 1,000 words, reading
 * every text for a list was most of its cost), nor what only its own page uses.
 */
const SUMMARY_COLUMNS = {
  id: blogPosts.id,
  title: blogPosts.title,
  slug: blogPosts.slug,
  excerpt: blogPosts.excerpt,
  category: blogPosts.category,
  coverImage: blogPosts.coverImage,
  publishAt: blogPosts.publishAt,
  createdAt: blogPosts.createdAt,
  updatedAt: blogPosts.updatedAt,
};

/** A post in a list: its title, excerpt, category, cover and the date it shows. */
function toSummary(row: Pick<Row, keyof typeof SUMMARY_COLUMNS>): BlogPostSummary {
  const { publishAt, ...listed } = row;
  return { ...sent(listed), date: (publishAt ?? row.createdAt).toISOString() };
}

/**
 * The posts visitors may see at `now`: published, and with no publish date or one that has
 * come. A scheduled post (published, its date still to come) answers like a draft until then.
 */
function isPublic(now: Date): SQL {
  return and(eq(blogPosts.published, true), or(isNull(blogPosts.publishAt), lte(blogPosts.publishAt, now)))!;
}

/** The date a post shows and is ordered by: its publish date, else when it was written. */
const shownDate = sql`coalesce(${blogPosts.publishAt}, ${blogPosts.createdAt})`;

/** Public posts at `now`, newest first (the first `limit` of them). Drafts and scheduled posts never leave the admin. */
export async function listPublishedPosts(db: Db, now: Date, limit?: number): Promise<BlogPostSummary[]> {
  const query = db
    .select(SUMMARY_COLUMNS)
    .from(blogPosts)
    .where(isPublic(now))
    .orderBy(desc(shownDate), desc(blogPosts.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
  return rows.map(toSummary);
}

/** What the list's address asks for, as the API takes it (?page=, ?category=, ?q=), checked. */
export interface PostsPageQuery {
  page?: string;
  category?: string;
  q?: string;
}

function checkedPage(query: PostsPageQuery): { page: number; category: string | null; words: string[] } {
  const page = query.page ?? "1";
  const number = blogPageNumber(page);
  if (number === null) throw new HttpError(422, `Page is a whole number from 1 to ${MAX_BLOG_PAGE}.`);
  if ((query.q ?? "").length > MAX_BLOG_SEARCH)
    throw new HttpError(422, `A search is at most ${MAX_BLOG_SEARCH} characters.`);
  if ((query.category ?? "").length > MAX_CATEGORY_SLUG)
    throw new HttpError(422, `A category is at most ${MAX_CATEGORY_SLUG} characters.`);
  return { page: number, category: query.category || null, words: searchWords(query.q ?? "") };
}

const noSuchPage = (page: number, pages: number) =>
  new HttpError(404, `There is no page ${page}: the list has ${pages} ${pages === 1 ? "page" : "pages"}.`);

/**
 * One page of the public posts at `now`: newest first, of one category when it names one; or,
 * with a search, the posts whose title, excerpt or text hold its words (each as the start of a
 * word, stemmed), those holding the most words first, each with a passage of its text where the
 * words are. Reads only the page's rows and a count, from the indexes. A page after the last is
 * a 404 that says how many there are (the first page always answers, empty or not).
 */
export async function publishedPostsPage(
  db: Db,
  now: Date,
  query: PostsPageQuery,
  pageSize = BLOG_PAGE_SIZE,
): Promise<BlogPostsPage> {
  const { page, category, words } = checkedPage(query);
  // A search of nothing to look for (punctuation, single letters, only the commonest words)
  // finds nothing, rather than every post.
  if (words.length === 0 && (query.q ?? "").trim() !== "") {
    if (page > 1) throw noSuchPage(page, 1);
    return { posts: [], total: 0, page, pages: 1 };
  }
  if (words.length === 0) return postsPage(db, now, { page, category, search: null }, pageSize);
  // Searches take turns: anyone can ask for a new one, and each may read many rows of the index.
  const searched = (these: string[]) =>
    searchTurns(() => postsPage(db, now, { page, category, search: textSearch(these) }, pageSize));
  const found = await searched(words);
  // The index holds each word's stem ("lighting" as "light"): a word typed past its stem
  // ("lighti", "lightin") starts none of them. When nothing is found, the first half of each
  // such word is looked for instead, so a word being typed does not find less than its start.
  const halves = words.map(firstHalf);
  if (found.total > 0 || halves.every((half, i) => half === words[i])) return found;
  return searched(halves);
}

/** A word looked for by its start, cut to its first half (never below the prefix's letters). */
function firstHalf(word: string): string {
  if (!searchesByPrefix(word)) return word;
  const letters = [...word];
  return letters.slice(0, Math.max(PREFIX_SEARCH_LETTERS, Math.ceil(letters.length / 2))).join("");
}

/** Searches of the blog, one at a time (src/server/lib/taking-turns.ts). */
const searchTurns = takingTurns();

async function postsPage(
  db: Db,
  now: Date,
  { page, category, search }: { page: number; category: string | null; search: TextSearch | null },
  pageSize: number,
): Promise<BlogPostsPage> {
  const filters = and(isPublic(now), category ? eq(blogPosts.category, category) : undefined);
  const offset = (page - 1) * pageSize;
  const pageRows = (where: SQL | undefined, order: SQL[]) => {
    const from = db.select(SUMMARY_COLUMNS).from(blogPosts);
    const joined = search?.join ? from.innerJoin(search.join.table, search.join.on) : from;
    return joined
      .where(where)
      .orderBy(...order, desc(shownDate), desc(blogPosts.id))
      .limit(pageSize)
      .offset(offset);
  };
  const [rows, total] = await Promise.all([
    pageRows(and(filters, search?.where), search?.order ?? []),
    db.$count(blogPosts, and(filters, search?.found)),
  ]);
  const passages = new Map<number, string>();
  if (search && rows.length > 0)
    // Only a passage that shows a word found: a search found in the title alone has none.
    for (const { id, passage } of await search.passages(
      db,
      rows.map((row) => row.id),
    ))
      if (passage?.includes(MATCH_START)) passages.set(Number(id), passage);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (page > pages) throw noSuchPage(page, pages);
  const posts: FoundPost[] = rows.map((row) => {
    const passage = passages.get(row.id);
    return { ...toSummary(row), ...(passage ? { passage } : {}) };
  });
  return { posts, total, page, pages };
}

/** When the next scheduled post becomes public after `now`, or null when none waits. */
export async function nextPublishAt(db: Db, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(blogPosts.publishAt) })
    .from(blogPosts)
    .where(and(eq(blogPosts.published, true), gt(blogPosts.publishAt, now)));
  return row?.at ? new Date(row.at) : null;
}

export async function getPublishedPost(db: Db, slug: string, now: Date): Promise<BlogPost> {
  const [row] = await db
    .select(POST_COLUMNS)
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug), isPublic(now)))
    .limit(1);
  if (!row) throw new HttpError(404, NO_PUBLISHED_POST);
  return toPost(row);
}

/**
 * Up to three other public posts of the same category, newest first. A draft answers
 * exactly like a post that does not exist, so the endpoint cannot tell that it does.
 */
export async function relatedPosts(db: Db, slug: string, now: Date, limit = 3): Promise<BlogPostSummary[]> {
  const [post] = await db
    .select({ category: blogPosts.category })
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug), isPublic(now)))
    .limit(1);
  if (!post) throw new HttpError(404, NO_PUBLISHED_POST);
  return postsInCategory(db, post.category, slug, now, limit);
}

/** Public posts of `category` other than `slug`, newest first (none without a category). */
export async function postsInCategory(
  db: Db,
  category: string | null,
  slug: string,
  now: Date,
  limit = 3,
): Promise<BlogPostSummary[]> {
  if (!category) return [];
  const rows = await db
    .select(SUMMARY_COLUMNS)
    .from(blogPosts)
    .where(and(eq(blogPosts.category, category), isPublic(now), ne(blogPosts.slug, slug)))
    .orderBy(desc(shownDate))
    .limit(limit);
  return rows.map(toSummary);
}
