import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Suspense, use, useEffect, useState } from "react";
import { Redirect, Router, useLocation, useSearch } from "wouter";
import { useSearch as useBrowserSearch, usePathname } from "wouter/use-browser-location";
import { useNavigationCount } from "./features/analytics/beacon.ts";
import { loadProgress } from "./features/progress/store.ts";
import { Layout } from "./layout/layout.tsx";
import { followLinkButtonsOnSpace } from "./lib/link-buttons.ts";
import { OriginContext } from "./lib/origin.ts";
import { loadPage } from "./page-modules.ts";
import type { PageModule, PageProps } from "./page-route.ts";
import { matchPage, type PageDef, pageById, searchAt } from "./routes.ts";

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
        <Router ssrPath={ssrPath} ssrSearch={ssrSearch} searchHook={usePageSearch}>
          <Layout>
            <PageOutlet forcedPageId={forcedPageId} />
          </Layout>
        </Router>
      </OriginContext>
    </QueryClientProvider>
  );
}

/**
 * What useSearch() gives: only the query parameters the current page declares, as the
 * server rendered it with, so a parameter it does not read cannot change what it shows
 * (and the first render in the browser matches the server's HTML).
 */
function usePageSearch(options: { ssrPath?: string; ssrSearch?: string }): string {
  return searchAt(usePathname(options), useBrowserSearch(options));
}

function PageOutlet({ forcedPageId }: { forcedPageId: string | null }) {
  const [location] = useLocation();
  // The forced page (the server's error page) holds only for the location it was rendered at.
  const [forcedAt] = useState(location);
  const forced = forcedPageId && location === forcedAt ? pageById(forcedPageId) : undefined;
  const search = useSearch();
  const match = forced ? { page: forced, params: {} } : matchPage(location, new URLSearchParams(search));
  useNavigationCount(match.page.id, location, search ? `${location}?${search}` : location);
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
