// The sitemap read as a search engine reads it: /sitemap.xml is an index of parts, and each
// part it lists is fetched and parsed in turn (docs/decisions/087-sitemap-index.md).
import { expect } from "bun:test";
import { parseXml } from "./page.ts";

const NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** One <url> of a part, or one <sitemap> of the index: its address and its last-modified day. */
interface SitemapEntry {
  loc: string;
  lastmod: string;
}

interface SitemapPart extends SitemapEntry {
  /** The part's path on the site, e.g. "/sitemap-posts-1.xml". */
  path: string;
  /** What the part lists, in its order. */
  urls: SitemapEntry[];
}

interface Sitemap {
  /** The index's own text. */
  index: string;
  /** The parts, in the index's order. */
  parts: SitemapPart[];
  /** Every address of every part, in order (a repeated one appears twice). */
  locs: string[];
  /** Every part's own text, joined: what a search for a word in the whole sitemap reads. */
  text: string;
}

/** The children named `name` of `parent`, each with its <loc> and <lastmod> read. */
function entries(parent: Element | Document, name: string): SitemapEntry[] {
  return [...parent.getElementsByTagName(name)].map((element) => ({
    loc: element.getElementsByTagName("loc")[0]?.textContent ?? "",
    lastmod: element.getElementsByTagName("lastmod")[0]?.textContent ?? "",
  }));
}

/**
 * GETs `/sitemap.xml` through `request`, checks it is a well-formed sitemap index whose every
 * part is at `site`, carries a day as lastmod and that day is the newest inside it, then
 * fetches and checks each part (200, XML, a well-formed <urlset>). Fails the test otherwise.
 */
export async function readSitemap(
  request: (path: string) => Promise<Response>,
  site: string,
  indexPath = "/sitemap.xml",
): Promise<Sitemap> {
  const res = await request(indexPath);
  const index = await res.text();
  expect([indexPath, res.status]).toEqual([indexPath, 200]);
  expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  const indexDoc = parseXml(index);
  expect(indexDoc.documentElement.tagName).toBe("sitemapindex");
  expect(indexDoc.documentElement.getAttribute("xmlns")).toBe(NAMESPACE);
  const parts: SitemapPart[] = [];
  const texts: string[] = [];
  for (const { loc, lastmod } of entries(indexDoc, "sitemap")) {
    expect(loc.startsWith(`${site}/`)).toBe(true);
    expect(lastmod).toMatch(DAY);
    const path = loc.slice(site.length);
    const partRes = await request(path);
    const text = await partRes.text();
    expect([path, partRes.status]).toEqual([path, 200]);
    expect(partRes.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(partRes.headers.get("cache-control")).toBe("public, max-age=300");
    const doc = parseXml(text);
    expect(doc.documentElement.tagName).toBe("urlset");
    expect(doc.documentElement.getAttribute("xmlns")).toBe(NAMESPACE);
    const urls = entries(doc, "url");
    for (const url of urls) expect(url.lastmod).toMatch(DAY);
    // The index dates each part by the newest address inside it.
    expect([path, lastmod]).toEqual([
      path,
      urls
        .map((u) => u.lastmod)
        .sort()
        .at(-1) ?? "",
    ]);
    parts.push({ path, loc, lastmod, urls });
    texts.push(text);
  }
  return { index, parts, locs: parts.flatMap((p) => p.urls.map((u) => u.loc)), text: texts.join("\n") };
}
