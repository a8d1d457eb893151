import { and, eq, isNull, lte, max, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { listPublishedPosts } from "#server/features/blog/service.ts";
import { blogPosts } from "#server/features/blog/table.ts";
import { listModules } from "#server/features/course/service.ts";
import { getSettings } from "#server/features/settings/service.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { xmlText } from "#server/lib/xml.ts";
import type { BlogPostSummary } from "#shared/features/blog/contract.ts";

const STATIC_PAGES = [
  "/",
  "/quiz",
  "/quiz/earnings",
  "/learn",
  "/learn-more",
  "/learn/complete",
  "/resources",
  "/blog",
  "/terms",
  "/privacy",
];

/**
 * The most posts one part of the sitemap lists: the sitemap protocol's limit of 50,000
 * addresses per file (docs/decisions/087-sitemap-index.md).
 */
export const SITEMAP_PART_SIZE = 50_000;

/** `size` when it can be a part's size (a whole number from 1), else an error: a wrong size would lose posts. */
export function checkedPartSize(size: number): number {
  if (!Number.isSafeInteger(size) || size < 1)
    throw new Error(`A sitemap part holds a whole number of posts from 1, not ${size}.`);
  return size;
}

/** The part of the sitemap that lists the pages and modules, as the index names it. */
export const SITEMAP_PAGES_PATH = "/sitemap-pages.xml";

/** The address of the `part`-th part (from 1) of the sitemap that lists the posts. */
function sitemapPostsPath(part: number): string {
  return `/sitemap-posts-${part}.xml`;
}

/**
 * The same rule as the blog's: published, and its publish date (if any) reached. Written here
 * again because the sitemap reads its own columns (the blog's service does not export it).
 */
function isPublic(now: Date): SQL {
  return and(eq(blogPosts.published, true), or(isNull(blogPosts.publishAt), lte(blogPosts.publishAt, now)))!;
}

/** A lastmod: the day, in UTC. */
const day = (d: Date) => d.toISOString().slice(0, 10);

/** One address in a sitemap, or one part in the index. */
interface Entry {
  loc: string;
  lastmod: string;
}

/** The newest of some lastmods (YYYY-MM-DD sorts as text). */
const newest = (entries: Entry[]) =>
  entries
    .map((e) => e.lastmod)
    .sort()
    .at(-1) ?? "";

function urlset(entries: Entry[]): string {
  const urls = entries
    .map((e) => `  <url><loc>${xmlText(e.loc)}</loc><lastmod>${e.lastmod}</lastmod></url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/**
 * The static pages, the modules and the pages the admin added, with their last-modified days:
 * the bundled content's date, except /blog (its newest public post, when newer) and added
 * pages (their own).
 */
async function pageEntries(db: Db, origin: string, contentDate: Date, now: Date): Promise<Entry[]> {
  const [latest] = await db
    .select({ at: max(blogPosts.updatedAt) })
    .from(blogPosts)
    .where(isPublic(now));
  const latestPost = latest?.at ? new Date(latest.at) : null;
  const blogDate = latestPost && latestPost > contentDate ? latestPost : contentDate;
  const added = (await db.select({ slug: sitePages.slug, updatedAt: sitePages.updatedAt }).from(sitePages)).filter(
    (p) => !STATIC_PAGES.includes(`/${p.slug}`),
  );
  return [
    ...STATIC_PAGES.map((path) => ({ loc: origin + path, lastmod: day(path === "/blog" ? blogDate : contentDate) })),
    ...listModules().map((m) => ({ loc: `${origin}/learn/${m.id}`, lastmod: day(contentDate) })),
    ...added.map((p) => ({ loc: `${origin}/${p.slug}`, lastmod: day(new Date(p.updatedAt)) })),
  ];
}

/** `/sitemap-pages.xml`: every public page but the posts (the pages the admin added too) and every module. */
export async function sitemapPagesXml(db: Db, origin: string, contentDate: Date, now: Date): Promise<string> {
  return urlset(await pageEntries(db, origin, contentDate, now));
}

/**
 * `/sitemap-posts-<part>.xml`: the `part`-th run (from 1) of `size` public posts in the order
 * they were made (by id), or null when there is no such part. Reads each post's slug and date only.
 */
export async function sitemapPostsXml(
  db: Db,
  origin: string,
  now: Date,
  part: number,
  size = SITEMAP_PART_SIZE,
): Promise<string | null> {
  checkedPartSize(size);
  if (!Number.isSafeInteger(part) || part < 1 || !Number.isSafeInteger((part - 1) * size)) return null;
  const posts = await db
    .select({ slug: blogPosts.slug, updatedAt: blogPosts.updatedAt })
    .from(blogPosts)
    .where(isPublic(now))
    .orderBy(blogPosts.id)
    .limit(size)
    .offset((part - 1) * size);
  if (posts.length === 0) return null;
  return urlset(
    posts.map((p) => ({ loc: `${origin}/blog/${encodeURIComponent(p.slug)}`, lastmod: day(new Date(p.updatedAt)) })),
  );
}

/**
 * The newest updated_at of each part of the public posts (`size` posts each, by id), in
 * order: one grouped query, no post read into memory. No public post: no part.
 */
async function postPartDates(db: Db, now: Date, size: number): Promise<Date[]> {
  // The part a post falls in: its place in id order, divided by the size (both integers, so
  // an integer division on SQLite and PostgreSQL alike). The size is a checked integer.
  const divisor = sql.raw(String(checkedPartSize(size)));
  const ranked = db.$with("ranked").as(
    db
      .select({
        part: sql<number>`(row_number() over (order by ${blogPosts.id}) - 1) / ${divisor}`.as("part"),
        updatedAt: blogPosts.updatedAt,
      })
      .from(blogPosts)
      .where(isPublic(now)),
  );
  const rows = await db
    .with(ranked)
    .select({ part: ranked.part, newest: max(ranked.updatedAt) })
    .from(ranked)
    .groupBy(sql`${ranked.part}`)
    .orderBy(sql`${ranked.part}`);
  return rows.map((r) => new Date(r.newest!));
}

/**
 * `/sitemap.xml`: the index of the sitemap's parts, each with the newest lastmod inside it:
 * the pages' part always, then one part per `size` public posts (none without a public post).
 */
export async function sitemapIndexXml(
  db: Db,
  origin: string,
  contentDate: Date,
  now: Date,
  size = SITEMAP_PART_SIZE,
): Promise<string> {
  const parts: Entry[] = [
    { loc: origin + SITEMAP_PAGES_PATH, lastmod: newest(await pageEntries(db, origin, contentDate, now)) },
    ...(await postPartDates(db, now, size)).map((date, i) => ({
      loc: origin + sitemapPostsPath(i + 1),
      lastmod: day(date),
    })),
  ];
  const items = parts
    .map((p) => `  <sitemap><loc>${xmlText(p.loc)}</loc><lastmod>${p.lastmod}</lastmod></sitemap>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}\n</sitemapindex>\n`;
}

/** How many posts the feed carries: the newest. */
const FEED_POSTS = 50;

/** RSS 2.0 of the latest public posts, newest first. */
export async function rssXml(db: Db, origin: string, now: Date): Promise<string> {
  const { brandName } = await getSettings(db);
  const posts: BlogPostSummary[] = await listPublishedPosts(db, now, FEED_POSTS);
  const items = posts
    .map((p) => {
      const link = `${origin}/blog/${encodeURIComponent(p.slug)}`;
      return [
        "    <item>",
        `      <title>${xmlText(p.title)}</title>`,
        `      <link>${xmlText(link)}</link>`,
        `      <guid isPermaLink="true">${xmlText(link)}</guid>`,
        `      <pubDate>${new Date(p.date).toUTCString()}</pubDate>`,
        p.category ? `      <category>${xmlText(p.category)}</category>` : null,
        `      <description>${xmlText(p.excerpt ?? "")}</description>`,
        "    </item>",
      ]
        .filter(Boolean)
        .join("\n");
    })
    .join("\n");
  const lastBuild = posts[0] ? new Date(posts[0].updatedAt).toUTCString() : new Date(0).toUTCString();
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${xmlText(`${brandName} Blog`)}</title>
    <link>${xmlText(`${origin}/blog`)}</link>
    <atom:link href="${xmlText(`${origin}/blog/rss.xml`)}" rel="self" type="application/rss+xml"/>
    <description>Expert advice, platform reviews, and income strategies to help you succeed as a webcam model.</description>
    <language>en</language>
    <lastBuildDate>${lastBuild}</lastBuildDate>
${items}
  </channel>
</rss>
`;
}

/** robots.txt; the Sitemap line (an absolute URL) only once the public address is known. */
export function robotsTxt(base: string | null): string {
  return [
    "User-agent: *",
    "Disallow: /admin",
    "Disallow: /admin-login",
    "Disallow: /api/",
    "Disallow: /embed/",
    "Disallow: /go/",
    "",
    ...(base ? [`Sitemap: ${base}/sitemap.xml`, ""] : []),
  ].join("\n");
}
