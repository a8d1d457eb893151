import type { QueryClient } from "@tanstack/react-query";
import { readKey } from "#shared/read.ts";
import { loadPage } from "./page-modules.ts";
import { pageQueries, type Reader } from "./page-route.ts";
import type { PageDef, PageMatch } from "./routes.ts";

// A link followed in the browser fetches what the next page's loader names (the same reads the
// server puts into its first HTML) before the site moves to it (useShown in app.tsx), so the
// page arrives whole, as it does from the server: no "Loading…" in its middle, and nothing
// pushed down when its data comes. Browser only; the server renders with the data already read.

/** How long the page on screen may stay while the next one's data comes (a slow network). */
const LONGEST_WAIT_MS = 2_500;

type Arrival = Promise<void> & { status?: "pending" | "fulfilled" };

const arrivals = new Map<string, Arrival>();
let shown: PageDef | null = null;

/** The page now on screen: set once it has rendered (PageOutlet's effect). */
export function pageShown(page: PageDef | { movedTo: string }): void {
  if ("load" in page) shown = page;
}

/**
 * What to wait for before moving to `pathname` (with the query string its page reads), as a
 * promise React's use() can read; null when there is nothing to wait for: the first page, a
 * moved address, or a page of the same module as the one shown (the quiz's next step, another
 * admin section), which shows its own progress.
 */
export function pageArrival(
  queryClient: QueryClient,
  found: PageMatch,
  pathname: string,
  search: string,
): Arrival | null {
  if (shown === null || "movedTo" in found.page || found.page.load === shown.load) return null;
  const href = `${pathname}?${search}`;
  let arrival = arrivals.get(href);
  if (!arrival) {
    const tracked: Arrival = Promise.race([
      prepare(queryClient, found.page, found.params, pathname, search),
      new Promise<void>((resolve) => setTimeout(resolve, LONGEST_WAIT_MS)),
    ]);
    tracked.status = "pending";
    void tracked.then(() => {
      tracked.status = "fulfilled";
      // Asked again next time: the data may have gone from the cache by then.
      setTimeout(() => arrivals.delete(href), LONGEST_WAIT_MS);
    });
    arrivals.set(href, tracked);
    arrival = tracked;
  }
  return arrival;
}

/** The page's code, then every read its loader names, each fetched once into the cache; never rejects. */
async function prepare(
  queryClient: QueryClient,
  page: PageDef,
  params: Record<string, string | undefined>,
  pathname: string,
  search: string,
): Promise<void> {
  try {
    const { route = {} } = await loadPage(page);
    const fetchRead = (key: string) => queryClient.fetchQuery({ queryKey: [key] });
    const read: Reader = (decl, ...args) => fetchRead(readKey(decl.path, args[0])).catch(() => null) as never;
    const queries = await pageQueries(route, { params, search: new URLSearchParams(search), pathname, read });
    // A redirect is the page's own to make once it renders.
    if (Array.isArray(queries)) await Promise.allSettled(queries.map(({ key }) => fetchRead(key)));
  } catch {
    // The page shows its own error state, as it would have without this.
  }
}
