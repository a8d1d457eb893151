import { pages } from "#web/routes.ts";

/**
 * The first part of every address the server answers before the pages (the API, managed links,
 * files): a page added at one of them would never be shown.
 */
const SERVER_PREFIXES = ["api", "go", "uploads", "assets", "seed", "social", "healthz", "favicon"];

/**
 * Addresses an added page cannot take: the server's own and the first part of every page's
 * address in the route table (so a page added later to the site takes its address back from
 * nothing), and "new", where the admin makes a page.
 */
const RESERVED = new Set([
  ...SERVER_PREFIXES,
  "new",
  ...pages.map((page) => page.path.split("/")[1] ?? "").filter((part) => part !== "" && /^[a-z0-9-]+$/.test(part)),
]);

/** The sitemap's parts of posts answer every address that starts so (/sitemap-posts-{n}.xml, else a 404). */
const SITEMAP_PARTS = "sitemap-posts-";

export function isReservedAddress(slug: string): boolean {
  return RESERVED.has(slug) || slug.startsWith(SITEMAP_PARTS);
}
