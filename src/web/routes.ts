import type { ComponentType } from "react";
import { matchRoute } from "wouter";
import { parse } from "regexparam";
import { API } from "../shared/paths.ts";

export interface PageProps {
  params: Record<string, string | undefined>;
}

export interface PageModule {
  default: ComponentType<PageProps>;
}

export interface PageDef {
  id: string;
  /** A wouter (regexparam) pattern: named (:id), optional (:id?) and wildcard (*) parts. */
  path: string;
  load: () => Promise<PageModule>;
  /** The API GET paths the page reads; the server resolves them before rendering. */
  queries?: (params: PageProps["params"], search: URLSearchParams) => string[];
  status?: number;
  /**
   * Where this path sends the visitor instead, decided from the URL alone: the server
   * answers a real 3xx (DECISIONS P10), the client navigates without rendering.
   */
  redirect?: (params: PageProps["params"], search: URLSearchParams) => { to: string; permanent?: boolean } | null;
}

/**
 * THE page table, read by the server (matching, status, data) and the client
 * (hydration and navigation). Order matters: the first match wins.
 */
export const pages: PageDef[] = [
  { id: "home", path: "/", load: () => import("./pages/home.tsx") },
  { id: "about", path: "/learn-more", load: () => import("./pages/about.tsx") },
  {
    id: "terms",
    path: "/terms",
    load: () => import("./pages/site-page.tsx"),
    queries: () => [API.sitePage("terms")],
  },
  {
    id: "privacy",
    path: "/privacy",
    load: () => import("./pages/site-page.tsx"),
    queries: () => [API.sitePage("privacy")],
  },
  // DECISIONS P6.
  {
    id: "course-complete-redirect",
    path: "/course-complete",
    load: () => import("./pages/not-found.tsx"),
    redirect: () => ({ to: "/learn/complete", permanent: true }),
  },
  { id: "not-found", path: "*", load: () => import("./pages/not-found.tsx"), status: 404 },
];

/** Rendered by the server when a request fails; never matched by path. */
export const errorPage: PageDef = {
  id: "error",
  path: "/__error",
  load: () => import("./pages/error.tsx"),
  status: 500,
};

export const notFoundPage = pages[pages.length - 1]!;

export interface PageMatch {
  page: PageDef;
  params: PageProps["params"];
}

type Parsed = { keys: string[]; pattern: RegExp };
const parsed = new Map<string, Parsed>();
/** regexparam, as wouter uses it, with each pattern compiled once. */
export function routeParser(route: string, loose?: boolean): Parsed {
  const key = `${route}|${loose ? 1 : 0}`;
  let hit = parsed.get(key);
  if (!hit) parsed.set(key, (hit = parse(route, loose) as Parsed));
  return hit;
}

export function matchPage(pathname: string): PageMatch {
  for (const page of pages) {
    const [ok, params] = matchRoute(routeParser, page.path, pathname);
    if (ok) return { page, params: params as PageProps["params"] };
  }
  return { page: notFoundPage, params: {} };
}

export function pageById(id: string): PageDef | undefined {
  return id === errorPage.id ? errorPage : pages.find((p) => p.id === id);
}

/** The query keys every page reads: the layout needs the site settings. */
export function pageQueries(match: PageMatch, search: URLSearchParams): string[] {
  return [API.settings, ...(match.page.queries?.(match.params, search) ?? [])];
}
