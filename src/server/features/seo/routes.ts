import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { robotsTxt, rssXml, sitemapXml } from "./service.ts";

export interface SeoOptions {
  /** The site's public address (PUBLIC_URL or the one in the settings); null when none is known. */
  publicBase: () => Promise<string | null>;
  /** When the bundled content last changed: the build date of the executable. */
  contentDate: Date;
  /** What time it is for scheduled posts (tests pass their own clock). */
  now: () => Date;
}

/** Why the sitemap and the feed are not served yet: both need absolute links. */
const NO_PUBLIC_ADDRESS =
  "needs the site's public address, which is not known yet. The admin sets it in Settings (or the operator sets PUBLIC_URL); until then it is not served.";

export function seoRoutes(db: Db, { publicBase, contentDate, now }: SeoOptions) {
  const text = (body: string, type: string, status = 200) =>
    new Response(body, {
      status,
      headers: {
        "content-type": `${type}; charset=utf-8`,
        "cache-control": status === 200 ? "public, max-age=300" : "no-store",
      },
    });
  // Sitemaps and RSS need absolute URLs; without a known address they honestly do not exist yet.
  const absent = (what: string) => text(`${what} ${NO_PUBLIC_ADDRESS}\n`, "text/plain", 404);
  return new Elysia({ name: "seo" })
    .get("/sitemap.xml", async () => {
      const base = await publicBase();
      return base ? text(await sitemapXml(db, base, contentDate, now()), "application/xml") : absent("The sitemap");
    })
    .get("/blog/rss.xml", async () => {
      const base = await publicBase();
      return base ? text(await rssXml(db, base, now()), "application/rss+xml") : absent("The RSS feed");
    })
    .get("/robots.txt", async () => text(robotsTxt(await publicBase()), "text/plain"));
}
