// The blog's search (docs/decisions/086-blog-search-and-pages.md), on the database's own
// full-text index: SQLite's FTS5 table blog_posts_search (kept by triggers, drizzle/0013) and
// PostgreSQL's GIN index over a generated column (drizzle-pg/0005). Both stem English words, find
// the posts holding any word of the search (from three letters, as the start of a word), those
// holding the most words first, then by where the words are: the title, the excerpt, the text.

import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { table, text } from "#server/db/columns.ts";
import { dialect } from "#server/db/dialect.ts";
import { inTransaction } from "#server/db/transaction.ts";
import type { Db } from "#server/db/types.ts";
import { MATCH_END, MATCH_START, searchesByPrefix } from "#shared/features/blog/constants.ts";

import { blogPosts } from "./table.ts";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/**
 * A post's content as the plain text the index holds: the words of its clean HTML, tags
 * removed, character references decoded, space collapsed. Derived when the post is saved.
 */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : " ";
    })
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * SQLite's FTS5 table, only to name it and its columns in queries: the migration creates it,
 * and it is not in the schema drizzle-kit reads (db/schema.ts), so it makes no migration.
 */
const blogPostsSearch = table("blog_posts_search", {
  rowid: text("rowid"),
  title: text("title"),
  excerpt: text("excerpt"),
  searchText: text("search_text"),
});

/** PostgreSQL: the posts' words, a column PostgreSQL generates and indexes (drizzle-pg/0005). */
const postgresWords = sql.raw(`"blog_posts"."search_words"`);

/** A search as the database runs it: what it joins, which rows match, their order and their passages. */
export interface TextSearch {
  /** SQLite: the index table to join on the post's id, for the rank; PostgreSQL: none. */
  join: { table: typeof blogPostsSearch; on: SQL } | null;
  /** The found posts, with the join. */
  where: SQL;
  /** The found posts, without the join: for the count, which needs no rank. */
  found: SQL;
  /** Best first: the posts holding the most of the words, then by where they hold them. */
  order: SQL[];
  /** For the posts of one page: a passage of each one's text around the words found, each found word between MATCH_START and MATCH_END. */
  passages: (db: Db, ids: number[]) => Promise<{ id: number; passage: string | null }[]>;
}

const PASSAGE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=26, MinWords=12, MaxFragments=1, FragmentDelimiter=" … "`;

/**
 * The search for `words` (from searchWords, at least one): the posts holding any of the words,
 * those holding more of them first ("make money" finds posts about money that never say
 * "make", after those that say both), then by the index's rank. A passage is made for the
 * page's posts only, after they are chosen (it reads each one's text).
 */
export function textSearch(words: string[]): TextSearch {
  if (dialect === "postgresql") {
    // Letters and digits only (searchWords), so the words cannot be operators.
    const tsquery = (text: string) => sql`to_tsquery('english'::regconfig, ${text})`;
    const term = (word: string) => (searchesByPrefix(word) ? `${word}:*` : word);
    const any = tsquery(words.map(term).join(" | "));
    const held = sql.join(
      words.map((word) => sql`(${postgresWords} @@ ${tsquery(term(word))})::int`),
      sql` + `,
    );
    const where = sql`${postgresWords} @@ ${any}`;
    return {
      join: null,
      where,
      found: where,
      order: [...(words.length > 1 ? [sql`${held} desc`] : []), sql`ts_rank(${postgresWords}, ${any}) desc`],
      passages: (db, ids) =>
        db
          .select({
            id: blogPosts.id,
            passage: sql<
              string | null
            >`ts_headline('english'::regconfig, coalesce(${blogPosts.searchText}, ''), ${any}, ${PASSAGE_OPTIONS})`,
          })
          .from(blogPosts)
          .where(inArray(blogPosts.id, ids)),
    };
  }
  // Each word quoted (it holds only letters and digits anyway) and, from three letters, a
  // prefix: "earn"* OR "money"*. Two letters are a word of their own ("tv", "uk").
  const term = (word: string) => (searchesByPrefix(word) ? `"${word}"*` : `"${word}"`);
  const matching = (query: string) =>
    sql`(${blogPosts.id} IN (SELECT rowid FROM ${blogPostsSearch} WHERE ${blogPostsSearch} MATCH ${query}))`;
  const any = words.map(term).join(" OR ");
  const held = sql.join(
    words.map((word) => matching(term(word))),
    sql` + `,
  );
  return {
    join: { table: blogPostsSearch, on: sql`${blogPostsSearch.rowid} = ${blogPosts.id}` },
    where: sql`${blogPostsSearch} MATCH ${any}`,
    // As a list of ids read once: joined, SQLite would run the search again for each post.
    found: matching(any),
    order: [...(words.length > 1 ? [sql`${held} desc`] : []), sql`bm25(${blogPostsSearch}, 10.0, 4.0, 1.0)`],
    passages: (db, ids) =>
      db
        .select({
          id: sql<number>`${blogPostsSearch.rowid}`,
          passage: sql<string | null>`snippet(${blogPostsSearch}, 2, ${MATCH_START}, ${MATCH_END}, '…', 18)`,
        })
        .from(blogPostsSearch)
        .where(and(sql`${blogPostsSearch} MATCH ${any}`, inArray(sql`${blogPostsSearch.rowid}`, ids))),
  };
}

/**
 * The start's upgrade step: each post saved before the search existed (or written by other
 * means) gets its words, in batches of 200, so no write holds the database long. Returns how
 * many posts it filled. A second run changes nothing.
 */
export async function fillSearchText(db: Db): Promise<number> {
  let filled = 0;
  for (;;) {
    const rows = await db
      .select({ id: blogPosts.id, content: blogPosts.content })
      .from(blogPosts)
      .where(isNull(blogPosts.searchText))
      .limit(200);
    if (rows.length === 0) return filled;
    await inTransaction(db, async (tx) => {
      for (const row of rows)
        await tx
          .update(blogPosts)
          .set({ searchText: plainText(row.content) })
          .where(eq(blogPosts.id, row.id));
    });
    filled += rows.length;
  }
}
