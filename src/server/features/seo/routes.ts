import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { robotsTxt, rssXml, sitemapXml } from "./service.ts";

export interface SeoOptions {
  /** The public origin: PUBLIC_URL, or else the request's own. */
  origin: (request: Request) => string;
  /** When the bundled content last changed: the build date of the executable. */
  contentDate: Date;
}

export function seoRoutes(db: Db, { origin, contentDate }: SeoOptions) {
  const text = (body: string, type: string) =>
    new Response(body, {
      headers: { "content-type": `${type}; charset=utf-8`, "cache-control": "public, max-age=300" },
    });
  return new Elysia({ name: "seo" })
    .get("/sitemap.xml", async ({ request }) =>
      text(await sitemapXml(db, origin(request), contentDate), "application/xml"),
    )
    .get("/blog/rss.xml", async ({ request }) => text(await rssXml(db, origin(request)), "application/rss+xml"))
    .get("/robots.txt", ({ request }) => text(robotsTxt(origin(request)), "text/plain"));
}
