import type { ComponentType } from "react";
import { matchRoute } from "wouter";
import { parse } from "regexparam";
import { API } from "#shared/paths.ts";
import { ALL_ARCHETYPES } from "#shared/features/products/constants.ts";
import { isArchetype } from "#shared/features/quiz/constants.ts";
import type { QuizResult } from "#shared/features/quiz/contract.ts";
import { parseModuleId } from "#shared/features/course/course.ts";

export interface PageProps {
  params: Record<string, string | undefined>;
}

export interface PageModule {
  default: ComponentType<PageProps>;
}

/** A query the page reads; an optional one may be missing (the page shows its own error state). */
export type QuerySpec = string | { key: string; optional: true; missingStatus: number };
/** A query whose record may be missing; the page then answers `missingStatus` (404 by default). */
export const optional = (key: string, missingStatus = 404): QuerySpec => ({ key, optional: true, missingStatus });
/** Server only: reads a query's data while deciding which queries a page needs (null when missing). */
export type QueryReader = <T>(key: string) => T | null;

export interface PageDef {
  id: string;
  /** A wouter (regexparam) pattern: named (:id), optional (:id?) and wildcard (*) parts. */
  path: string;
  load: () => Promise<PageModule>;
  /**
   * The API GET paths the page reads; the server resolves them before rendering. `read`
   * lets one query depend on another's answer (the starter kit reads the quiz result
   * to know which products to show).
   */
  queries?: (params: PageProps["params"], search: URLSearchParams, read: QueryReader) => QuerySpec[];
  /**
   * The same for every visitor at this address (path and query): the server renders it
   * once and serves it from memory until the admin changes something.
   */
  cache?: boolean | ((search: URLSearchParams) => boolean);
  /** The HTTP status when it is not 200; a function decides from the address. */
  status?: number | ((params: PageProps["params"], search: URLSearchParams) => number);
  /**
   * Where this path sends the visitor instead, decided from the URL alone: the server
   * answers a real 3xx (DECISIONS P10), the client navigates without rendering.
   */
  redirect?: (params: PageProps["params"], search: URLSearchParams, read?: QueryReader) => { to: string; permanent?: boolean } | null;
}

/**
 * THE page table, read by the server (matching, status, data) and the client
 * (hydration and navigation). Order matters: the first match wins.
 */
export const pages: PageDef[] = [
  { id: "home", cache: true, path: "/", load: () => import("./features/site-pages/home-page.tsx") },
  { id: "about", cache: true, path: "/learn-more", load: () => import("./features/site-pages/about-page.tsx") },
  {
    id: "terms",
    cache: true,
    path: "/terms",
    load: () => import("./features/site-pages/site-page.tsx"),
    queries: () => [API.sitePage("terms")],
  },
  {
    id: "privacy",
    cache: true,
    path: "/privacy",
    load: () => import("./features/site-pages/site-page.tsx"),
    queries: () => [API.sitePage("privacy")],
  },
  { id: "quiz", cache: true, path: "/quiz", load: () => import("./features/quiz/quiz-page.tsx") },
  {
    id: "quiz-result",
    path: "/quiz/result",
    // A saved result never changes, so its page is the same for anyone at that address.
    cache: true,
    load: () => import("./features/quiz/quiz-result-page.tsx"),
    redirect: (_, s) => (s.get("archetype") || s.get("id") ? null : { to: "/quiz" }),
    // A known archetype in the address is shown as is; otherwise the result is read by id.
    queries: (_, s) => {
      const id = s.get("id");
      return !isArchetype(s.get("archetype") ?? "") && id ? [optional(API.quizResult(id))] : [];
    },
    status: (_, s) => (isArchetype(s.get("archetype") ?? "") || s.get("id") ? 200 : 404),
  },
  {
    id: "earnings",
    // The calculator is the same for everyone, and a saved tier result never changes.
    cache: true,
    path: "/quiz/earnings",
    load: () => import("./features/earnings/earnings-page.tsx"),
    queries: (_, s) => {
      const id = s.get("id");
      if (s.get("tier") && id) return [optional(API.earningsResult(id))];
      const quizId = s.get("quizId");
      // A stale quiz id only means the result is saved without it: not a missing page.
      return quizId ? [optional(API.quizResult(quizId), 200)] : [];
    },
  },
  {
    id: "starter-kit",
    path: "/quiz/starter-kit",
    cache: true,
    load: () => import("./features/products/starter-kit-page.tsx"),
    redirect: (_, s) => (s.get("quizId") ? null : { to: "/quiz" }),
    queries: (_, s, read) => {
      const key = API.quizResult(s.get("quizId") ?? "");
      const quiz = read<QuizResult>(key);
      return [optional(key), API.products(ALL_ARCHETYPES), ...(quiz ? [API.products(quiz.archetype)] : [])];
    },
  },
  { id: "learn", cache: true, path: "/learn", load: () => import("./features/course/learn-page.tsx"), queries: () => [API.modules] },
  {
    id: "module-complete",
    cache: true,
    path: "/learn/module-complete",
    load: () => import("./features/course/module-complete-page.tsx"),
  },
  { id: "quiz-complete", cache: true, path: "/learn/quiz-complete", load: () => import("./features/course/quiz-complete-page.tsx") },
  { id: "course-complete", cache: true, path: "/learn/complete", load: () => import("./features/course/course-complete-page.tsx") },
  {
    id: "module",
    cache: true,
    path: "/learn/:id",
    load: () => import("./features/course/module-page.tsx"),
    // SPEC 5: a non-numeric id goes back to the course overview.
    redirect: (p) => (parseModuleId(p.id) === null ? { to: "/learn" } : null),
    queries: (p) => [optional(API.module(parseModuleId(p.id) ?? 0))],
  },
  {
    id: "resources",
    cache: true,
    path: "/resources",
    load: () => import("./features/site-pages/resources-page.tsx"),
    queries: () => [API.modules, API.blogCategories],
  },
  {
    id: "blog",
    cache: true,
    path: "/blog",
    load: () => import("./features/blog/blog-page.tsx"),
    queries: () => [API.blogPosts, API.blogCategories],
  },
  {
    id: "blog-post",
    cache: true,
    path: "/blog/:slug",
    load: () => import("./features/blog/blog-post-page.tsx"),
    // SPEC 2: an unknown or unpublished post sends the visitor to the blog; the footer's
    // Platform Reviews link falls back to that category (on the server: a real 302).
    redirect: (p, _, read) => {
      if (!read || read(API.blogPost(p.slug ?? "")) !== null) return null;
      return { to: p.slug === "platform-reviews" ? "/blog?category=platform-reviews" : "/blog" };
    },
    queries: (p) => [API.blogPost(p.slug ?? ""), API.blogRelated(p.slug ?? "")],
  },
  { id: "admin-login", path: "/admin-login", load: () => import("./features/auth/admin-login-page.tsx") },
  { id: "admin", path: "/admin", load: () => import("./admin/admin-page.tsx") },
  // DECISIONS P6.
  {
    id: "course-complete-redirect",
    path: "/course-complete",
    load: () => import("./layout/not-found-page.tsx"),
    redirect: () => ({ to: "/learn/complete", permanent: true }),
  },
  { id: "not-found", path: "*", load: () => import("./layout/not-found-page.tsx"), status: 404 },
];

/** Rendered by the server when a request fails; never matched by path. */
export const errorPage: PageDef = {
  id: "error",
  path: "/__error",
  load: () => import("./layout/error-page.tsx"),
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
  if (!hit) {
    hit = parse(route, loose) as Parsed;
    parsed.set(key, hit);
  }
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

/** The queries a page reads; every page reads the site settings for the layout. */
export function pageQueries(match: PageMatch, search: URLSearchParams, read: QueryReader): QuerySpec[] {
  return [API.settings, ...(match.page.queries?.(match.params, search, read) ?? [])];
}
