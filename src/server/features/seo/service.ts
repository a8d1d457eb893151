import type { Db } from "#server/db/types.ts";
import { listPublishedPosts } from "#server/features/blog/service.ts";
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

/** Every public page (the pages the admin added too), module and public post, with last-modified dates. */
export async function sitemapXml(db: Db, origin: string, contentDate: Date, now: Date): Promise<string> {
  const posts = await listPublishedPosts(db, now);
  const added = (await db.select({ slug: sitePages.slug, updatedAt: sitePages.updatedAt }).from(sitePages)).filter(
    (p) => !STATIC_PAGES.includes(`/${p.slug}`),
  );
  const day = (d: Date | string) => new Date(d).toISOString().slice(0, 10);
  // biome-ignore lint/complexity/useMathMinMax: ISO date strings, compared as text (Math.max would give NaN).
  const newestPost = posts.reduce((max, p) => (p.updatedAt > max ? p.updatedAt : max), contentDate.toISOString());
  const entries: { loc: string; lastmod: string }[] = [
    ...STATIC_PAGES.map((path) => ({ loc: origin + path, lastmod: day(path === "/blog" ? newestPost : contentDate) })),
    ...listModules().map((m) => ({ loc: `${origin}/learn/${m.id}`, lastmod: day(contentDate) })),
    ...posts.map((p) => ({ loc: `${origin}/blog/${encodeURIComponent(p.slug)}`, lastmod: day(p.updatedAt) })),
    ...added.map((p) => ({ loc: `${origin}/${p.slug}`, lastmod: day(p.updatedAt) })),
  ];
  const urls = entries
    .map((e) => `  <url><loc>${xmlText(e.loc)}</loc><lastmod>${e.lastmod}</lastmod></url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
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
