import { type QueryClient, QueryClientProvider, useQueryClient } from "@tanstack/react-query";
import { Suspense, use, useDeferredValue, useEffect, useState } from "react";
import { Redirect, Router, useLocation, useSearch } from "wouter";
import { navigate, useSearch as useBrowserSearch, usePathname } from "wouter/use-browser-location";
import { useNavigationCount } from "./features/analytics/beacon.ts";
import { loadProgress } from "./features/progress/store.ts";
import { Layout } from "./layout/layout.tsx";
import { followLinkButtonsOnSpace } from "./lib/link-buttons.ts";
import { OriginContext } from "./lib/origin.ts";
import { pageArrival, pageShown } from "./page-arrival.ts";
import { loadPage, pageReady } from "./page-modules.ts";
import type { PageModule, PageProps } from "./page-route.ts";
import { addressAt, matchPage, type PageDef, type PageMatch, pageById } from "./routes.ts";

interface AppProps {
  queryClient: QueryClient;
  /** Server only: the request's path and the query string its page reads (`pageCacheKey`). */
  ssrPath?: string;
  ssrSearch?: string;
  forcedPageId?: string | null;
  origin: string | null;
}

export function App({ queryClient, ssrPath, ssrSearch, forcedPageId = null, origin }: AppProps) {
  useEffect(() => {
    // A marker for tests and styles: effects run only once hydration has committed.
    document.documentElement.dataset.hydrated = "true";
    // What this browser remembers is read only now, so the first render matched the server's.
    loadProgress();
    return followLinkButtonsOnSpace();
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <OriginContext value={origin}>
        <Router ssrPath={ssrPath} ssrSearch={ssrSearch} hook={useShownLocation} searchHook={usePageSearch}>
          <Layout>
            <PageOutlet forcedPageId={forcedPageId} />
          </Layout>
        </Router>
      </OriginContext>
    </QueryClientProvider>
  );
}

type LocationOptions = { ssrPath?: string; ssrSearch?: string };

/**
 * The address the site shows, `value` of it: the browser's, except while a link leads to a
 * page whose code or data has not arrived yet (page-arrival.ts). Then the whole site (header,
 * page, focus and scroll) keeps showing the page the visitor is on, its address included, and
 * moves at once when the next page can render whole: never a bare "Loading…" in between.
 * React renders the new address in the background (useDeferredValue) and commits it once
 * nothing suspends. An address whose page is here is shown at once, so a field bound to it
 * (the blog's search) follows every keystroke.
 */
function useShown<T>(value: T, { pathname, search, match }: Address): T {
  const queryClient = useQueryClient();
  const deferred = useDeferredValue(value);
  // Whether this render is the background one, which already shows the new address.
  const href = `${pathname}?${search}`;
  const background = useDeferredValue(href) === href;
  if (!pageReady(match.page)) return deferred;
  const arrival = typeof window === "undefined" ? null : pageArrival(queryClient, match, pathname, search);
  if (!arrival || arrival.status === "fulfilled") return value;
  if (!background) return deferred;
  use(arrival as Promise<void>);
  return value;
}

interface Address {
  pathname: string;
  /** The query string the page reads (searchAt). */
  search: string;
  match: PageMatch;
}

/** The browser's address, matched against the routes once for each hook that reads it. */
function useAddress(options: LocationOptions): Address {
  const pathname = usePathname(options);
  return { pathname, ...addressAt(pathname, useBrowserSearch(options)) };
}

/** useLocation() for the whole site: the browser's path, held while the next page arrives (useShown). */
function useShownLocation(options: LocationOptions): [string, typeof navigate] {
  const address = useAddress(options);
  return [useShown(address.pathname, address), navigate];
}

/**
 * What useSearch() gives: only the query parameters the current page declares, as the
 * server rendered it with, so a parameter it does not read cannot change what it shows
 * (and the first render in the browser matches the server's HTML). Held with the path (useShown).
 */
function usePageSearch(options: LocationOptions): string {
  const address = useAddress(options);
  return useShown(address.search, address);
}

function PageOutlet({ forcedPageId }: { forcedPageId: string | null }) {
  const [location] = useLocation();
  // The forced page (the server's error page) holds only for the location it was rendered at.
  const [forcedAt] = useState(location);
  const forced = forcedPageId && location === forcedAt ? pageById(forcedPageId) : undefined;
  const search = useSearch();
  const match = forced ? { page: forced, params: {} } : matchPage(location, new URLSearchParams(search));
  useNavigationCount(match.page.id, location, search ? `${location}?${search}` : location);
  useEffect(() => pageShown(match.page), [match.page]);
  if ("movedTo" in match.page) return <Redirect to={match.page.movedTo} replace />;
  return (
    <Suspense fallback={<p aria-busy="true">Loading…</p>}>
      <PageView
        key={match.page.id + location}
        page={match.page}
        params={match.params}
        pathname={location}
        search={search}
      />
    </Suspense>
  );
}

function PageView({
  page,
  params,
  pathname,
  search,
}: {
  page: PageDef;
  params: PageProps["params"];
  pathname: string;
  search: string;
}) {
  const { default: Page, route } = use(loadPage(page) as Promise<PageModule>);
  const redirect = route?.redirect?.({ params, search: new URLSearchParams(search), pathname });
  if (redirect) return <Redirect to={redirect.to} replace />;
  return <Page params={params} />;
}
