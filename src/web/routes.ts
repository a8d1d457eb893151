import { parse } from "regexparam";
import { matchRoute } from "wouter";
import type { PageModule, PageProps } from "./page-route.ts";

/** A page: its module exports the component and its `route` (data, redirect, status, cache). */
export interface PageDef {
  id: string;
  /** A wouter (regexparam) pattern: named (:id), optional (:id?) and wildcard (*) parts. */
  path: string;
  /** When one address holds several pages: this one only for a query string it accepts. */
  query?: (search: URLSearchParams) => boolean;
  load: () => Promise<PageModule>;
}

/** An address that moved for good: a 301 on the server, a navigation in the browser. */
export interface MovedPath {
  id: string;
  path: string;
  movedTo: string;
}

export type PathEntry = PageDef | MovedPath;

/**
 * THE page table, read by the server (matching, then the page module's route) and the
 * client (hydration and navigation). Order matters: the first match wins.
 */
export const pages: PathEntry[] = [
  { id: "home", path: "/", load: () => import("./features/site-pages/home-page.tsx") },
  { id: "about", path: "/learn-more", load: () => import("./features/site-pages/about-page.tsx") },
  { id: "terms", path: "/terms", load: () => import("./features/site-pages/site-page.tsx") },
  { id: "privacy", path: "/privacy", load: () => import("./features/site-pages/site-page.tsx") },
  { id: "quiz", path: "/quiz", load: () => import("./features/quiz/quiz-page.tsx") },
  { id: "quiz-result", path: "/quiz/result", load: () => import("./features/quiz/quiz-result-page.tsx") },
  // With a tier and a result id the calculator's address shows that saved result.
  {
    id: "tier-result",
    path: "/quiz/earnings",
    query: (s) => Boolean(s.get("tier") && s.get("id")),
    load: () => import("./features/earnings/tier-result-page.tsx"),
  },
  { id: "earnings", path: "/quiz/earnings", load: () => import("./features/earnings/earnings-page.tsx") },
  { id: "starter-kit", path: "/quiz/starter-kit", load: () => import("./features/products/starter-kit-page.tsx") },
  { id: "learn", path: "/learn", load: () => import("./features/course/learn-page.tsx") },
  {
    id: "module-complete",
    path: "/learn/module-complete",
    load: () => import("./features/course/module-complete-page.tsx"),
  },
  { id: "quiz-complete", path: "/learn/quiz-complete", load: () => import("./features/course/quiz-complete-page.tsx") },
  { id: "course-complete", path: "/learn/complete", load: () => import("./features/course/course-complete-page.tsx") },
  { id: "module", path: "/learn/:id", load: () => import("./features/course/module-page.tsx") },
  { id: "resources", path: "/resources", load: () => import("./features/site-pages/resources-page.tsx") },
  { id: "blog", path: "/blog", load: () => import("./features/blog/blog-page.tsx") },
  { id: "blog-post", path: "/blog/:slug", load: () => import("./features/blog/blog-post-page.tsx") },
  { id: "admin-login", path: "/admin-login", load: () => import("./features/auth/admin-login-page.tsx") },
  { id: "admin", path: "/admin", load: () => import("./admin/admin-page.tsx") },
  // The course's old completion address.
  { id: "course-complete-redirect", path: "/course-complete", movedTo: "/learn/complete" },
  { id: "not-found", path: "*", load: () => import("./layout/not-found-page.tsx") },
];

/** Rendered by the server when a request fails; never matched by path. */
export const errorPage: PageDef = { id: "error", path: "/__error", load: () => import("./layout/error-page.tsx") };

export const notFoundPage = pages.at(-1) as PageDef;

export interface PageMatch {
  page: PathEntry;
  params: PageProps["params"];
}

type Parsed = { keys: string[]; pattern: RegExp };
const parsed = new Map<string, Parsed>();
/** regexparam, as wouter uses it, with each pattern compiled once. */
export function routeParser(route: string, loose?: boolean): Parsed {
  const key = `${route}|${loose ? 1 : 0}`;
  let hit = parsed.get(key);
  if (!hit) {
    hit = parse(route, loose) as Parsed;
    parsed.set(key, hit);
  }
  return hit;
}

export function matchPage(pathname: string, search = new URLSearchParams()): PageMatch {
  for (const page of pages) {
    const [ok, params] = matchRoute(routeParser, page.path, pathname);
    if (ok && (!("query" in page) || !page.query || page.query(search)))
      return { page, params: params as PageProps["params"] };
  }
  return { page: notFoundPage, params: {} };
}

export function pageById(id: string): PageDef | undefined {
  return id === errorPage.id ? errorPage : pages.find((p): p is PageDef => p.id === id && "load" in p);
}
