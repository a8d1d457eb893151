// A Location header holds bytes, not text: Bun refuses one with a character beyond Latin-1, and
// a browser reads "//host" or "/\host" as another site. Every redirect to a page on this site
// goes through siteLocation; a redirect elsewhere sends only a destination in its saved form
// (src/shared/features/links/destination.ts).

const BASE = "http://site.invalid";

/**
 * `to`, a path on this site with its query and fragment, as a Location header may carry it: as
 * the URL parser writes it (percent-encoded, plain printable ASCII), and always on this site.
 */
export function siteLocation(to: string): string {
  const url = new URL(to.replace(/^[/\\]+/, "/"), BASE);
  if (url.origin !== BASE) return "/";
  return `${url.pathname.replace(/^\/+/, "/")}${url.search}${url.hash}`;
}
