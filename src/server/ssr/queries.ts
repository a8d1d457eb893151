import { matchRoute } from "wouter";
import { routeParser } from "#web/routes.ts";
import type { DatabaseHandle } from "#server/db/client.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { getSettings } from "#server/features/settings/service.ts";
import { getSitePage } from "#server/features/site-pages/service.ts";
import { getQuizResult } from "#server/features/quiz/service.ts";
import { getEarningsResult } from "#server/features/earnings/service.ts";
import { listProductsFor } from "#server/features/products/service.ts";
import { getModule, listModules } from "#server/features/course/service.ts";
import { getPublishedPost, listCategories, listPublishedPosts, relatedPosts } from "#server/features/blog/service.ts";

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
    ["/api/course/modules", () => listModules()],
    ["/api/blog/categories", () => listCategories(db)],
    ["/api/blog/posts", () => listPublishedPosts(db)],
    ["/api/blog/post/:slug", (p) => getPublishedPost(db, p.slug!)],
    ["/api/blog/post/:slug/related", (p) => relatedPosts(db, p.slug!)],
    ["/api/course/modules/:id", (p) => getModule(Number(p.id))],
  ];
  return (key) => {
    // Split by hand: new URL() would resolve "/api/quiz/result/.." to another path.
    const [pathname = "", query = ""] = key.split("?", 2);
    const searchParams = new URLSearchParams(query);
    for (const [pattern, resolve] of table) {
      const [ok, params] = matchRoute(routeParser, pattern, pathname);
      if (ok) {
        // Path parameters arrive encoded, as the browser sent them ("All%20Archetypes").
        const decoded = Object.fromEntries(
          Object.entries(params as Record<string, string>).map(([k, v]) => [k, v === undefined ? v : decodeURIComponent(v)]),
        );
        return resolve(decoded, searchParams);
      }
    }
    // A key no resolver knows names nothing that exists.
    throw new HttpError(404, `No data for ${pathname}`);
  };
}
