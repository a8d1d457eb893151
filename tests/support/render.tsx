import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { content } from "#server/db/content.ts";
import { slugFrom } from "#server/features/links/service.ts";
import { DEFAULT_RESULT_RETENTION_DAYS } from "#shared/features/settings/result-retention.ts";
import { loadProgress } from "#web/features/progress/store.ts";
import { createQueryClient } from "#web/lib/query-client.ts";

/**
 * Renders a component inside the app's providers at a given path, with seeded settings (and
 * the default result retention, as the settings read answers on a new site), as
 * in a hydrated page: the progress this browser's storage holds has been read.
 */
export function renderAt(path: string, ui: ReactNode) {
  loadProgress();
  const queryClient = createQueryClient();
  // The key the settings query uses: its API path. Pages get each platform's managed link,
  // which the seed names after the platform.
  const { platformA, platformB } = content.siteSettings;
  queryClient.setQueryData(["/api/settings"], {
    ...content.siteSettings,
    resultRetentionDays: DEFAULT_RESULT_RETENTION_DAYS,
    footerPages: [],
    platformA: { name: platformA.name, url: `/go/${slugFrom(platformA.name)}` },
    platformB: { name: platformB.name, url: `/go/${slugFrom(platformB.name)}` },
  });
  const location = memoryLocation({ path, record: true });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <Router hook={location.hook}>{ui}</Router>
    </QueryClientProvider>,
  );
  return { ...result, location, queryClient };
}

/**
 * The HTML the server renders for `ui` at `path` (and `search`), with the answers a page's
 * loader would have put in the cache: what a browser without scripts is given.
 */
export function renderServerHtml(
  path: string,
  ui: ReactNode,
  { search, data = [] }: { search?: string; data?: [key: readonly unknown[], answer: unknown][] } = {},
): string {
  const queryClient = createQueryClient();
  for (const [key, answer] of data) queryClient.setQueryData(key, answer);
  return renderToString(
    <QueryClientProvider client={queryClient}>
      <Router ssrPath={path} ssrSearch={search}>
        {ui}
      </Router>
    </QueryClientProvider>,
  );
}
