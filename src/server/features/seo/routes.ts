import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { cachedResponse, missResponse, type PageCache, toCachedPage } from "#server/ssr/page-cache.ts";
import {
  checkedPartSize,
  robotsTxt,
  rssXml,
  SITEMAP_PAGES_PATH,
  SITEMAP_PART_SIZE,
  sitemapIndexXml,
  sitemapPagesXml,
  sitemapPostsXml,
} from "./service.ts";

export interface SeoOptions {
  /** The site's public address (PUBLIC_URL or the one in the settings); null when none is known. */
  publicBase: () => Promise<string | null>;
  /** When the bundled content last changed: the build date of the executable. */
  contentDate: Date;
  /** What time it is for scheduled posts (tests pass their own clock). */
  now: () => Date;
  /** The most posts one part of the sitemap lists (default SITEMAP_PART_SIZE; tests pass a small one). */
  sitemapPartSize?: number;
  /**
   * The site's page cache: the sitemap and the feed are kept in it like a page, emptied by the
   * same changes (an admin's write, a scheduled post's date, another instance's change). Each
   * reads every public post's date, which a crawler's every visit would otherwise pay for.
   */
  cache?: PageCache;
}

/** Why the sitemap and the feed are not served yet: both need absolute links. */
const NO_PUBLIC_ADDRESS =
  "needs the site's public address, which is not known yet. The admin sets it in Settings (or the operator sets PUBLIC_URL); until then it is not served.";

const NO_SUCH_PART = "No such part of the sitemap: /sitemap.xml lists the parts there are.\n";

/** A posts' part's number from its address: digits without a leading zero, else null. */
const POSTS_PART = /^\/sitemap-posts-([1-9][0-9]{0,15})\.xml$/;

export function seoRoutes(
  db: Db,
  { publicBase, contentDate, now, sitemapPartSize = SITEMAP_PART_SIZE, cache }: SeoOptions,
) {
  // A wrong size stops the start, not the first crawl.
  checkedPartSize(sitemapPartSize);
  const text = (body: string, type: string, status = 200) =>
    new Response(body, {
      status,
      headers: {
        "content-type": `${type}; charset=utf-8`,
        "cache-control": status === 200 ? "public, max-age=300" : "no-store",
      },
    });
  /** The answer to `request` from the cache, else made, and kept when it is a 200 made from data no change has touched since. */
  const kept = async (request: Request, make: () => Promise<Response>) => {
    if (!cache) return make();
    await cache.expire();
    const key = `seo ${new URL(request.url).pathname}`;
    const hit = cache.get("shared", key);
    if (hit) return cachedResponse(hit, request);
    // Noted before any data is read, as a page's render does.
    const generation = cache.generation;
    const response = await make();
    if (response.status !== 200) return response;
    const page = await toCachedPage(response);
    cache.set("shared", key, page, generation);
    return missResponse(page, request);
  };
  // Sitemaps and RSS need absolute URLs; without a known address they honestly do not exist yet.
  const absent = (what: string) => text(`${what} ${NO_PUBLIC_ADDRESS}\n`, "text/plain", 404);
  /** Any address of the sitemap: the same 404 without a public address, whichever part is asked for. */
  const sitemap = async (build: (base: string) => Promise<string | null>) => {
    const base = await publicBase();
    if (!base) return absent("The sitemap");
    const xml = await build(base);
    return xml === null ? text(NO_SUCH_PART, "text/plain", 404) : text(xml, "application/xml");
  };
  return (
    new Elysia({ name: "seo" })
      .get("/sitemap.xml", ({ request }) =>
        kept(request, () => sitemap((base) => sitemapIndexXml(db, base, contentDate, now(), sitemapPartSize))),
      )
      .get(SITEMAP_PAGES_PATH, ({ request }) =>
        kept(request, () => sitemap((base) => sitemapPagesXml(db, base, contentDate, now()))),
      )
      // Elysia has no parameter inside a path segment: this route takes every /sitemap-posts-…
      // address of one segment, and the part number is read from the path.
      .get("/sitemap-posts-*", ({ path, request }) =>
        kept(request, () =>
          sitemap(async (base) => {
            const part = POSTS_PART.exec(path)?.[1];
            return part ? sitemapPostsXml(db, base, now(), Number(part), sitemapPartSize) : null;
          }),
        ),
      )
      .get("/blog/rss.xml", ({ request }) =>
        kept(request, async () => {
          const base = await publicBase();
          return base ? text(await rssXml(db, base, now()), "application/rss+xml") : absent("The RSS feed");
        }),
      )
      .get("/robots.txt", async () => text(robotsTxt(await publicBase()), "text/plain"))
  );
}
