import { matchPage, type PageMatch } from "#web/routes.ts";

/** A request's address, parsed, and the page it names. */
export interface RequestPage {
  url: URL;
  found: PageMatch;
}

const known = new WeakMap<Request, RequestPage>();

/**
 * The page a request's address names, found once for the request: the renderer and the visit
 * count both ask, and parsing the address and matching it against the routes twice was a
 * tenth of the cost of serving a cached page.
 */
export function requestPage(request: Request): RequestPage {
  let page = known.get(request);
  if (!page) {
    const url = new URL(request.url);
    page = { url, found: matchPage(url.pathname, url.searchParams) };
    known.set(request, page);
  }
  return page;
}
