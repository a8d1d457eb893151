import { matchRoute } from "wouter";
import { routeParser } from "../../web/routes.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { HttpError } from "../plugins/errors.ts";
import { getSettings } from "../modules/settings/service.ts";
import { getSitePage } from "../modules/site-pages/service.ts";
import { getQuizResult } from "../modules/quiz/service.ts";
import { getEarningsResult } from "../modules/earnings/service.ts";
import { listProductsFor } from "../modules/products/service.ts";

/** Answers a page's query key (an API GET path) by calling the service directly. */
export type QueryResolver = (key: string) => unknown;

type Resolve = (params: Record<string, string>, search: URLSearchParams) => unknown;

export function createQueryResolver(handle: DatabaseHandle, contact: string): QueryResolver {
  const { db } = handle;
  // Each entry mirrors a public GET route of the API, with the same service behind it.
  const table: [string, Resolve][] = [
    ["/api/settings", () => getSettings(db)],
    ["/api/pages/:slug", (p) => getSitePage(db, p.slug!, contact)],
    ["/api/quiz/result/:id", (p) => getQuizResult(db, p.id!)],
    ["/api/earnings/result/:id", (p) => getEarningsResult(db, p.id!)],
    ["/api/recommended-products/:archetype", (p) => listProductsFor(db, p.archetype!)],
  ];
  return (key) => {
    const url = new URL(key, "http://local");
    for (const [pattern, resolve] of table) {
      const [ok, params] = matchRoute(routeParser, pattern, url.pathname);
      if (ok) {
        // Path parameters arrive encoded, as the browser sent them ("All%20Archetypes").
        const decoded = Object.fromEntries(
          Object.entries(params as Record<string, string>).map(([k, v]) => [k, v === undefined ? v : decodeURIComponent(v)]),
        );
        return resolve(decoded, url.searchParams);
      }
    }
    throw new HttpError(500, `No server resolver for query ${url.pathname}`);
  };
}
