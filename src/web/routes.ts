import { inject, parse } from "regexparam";
import { matchRoute } from "wouter";
import { readPeriod } from "#shared/features/analytics/report.ts";
import { isSeededCategory } from "#shared/features/blog/categories.ts";
import { blogPageNumber, readAdminPostsPage } from "#shared/features/blog/constants.ts";
import { QUIZ_QUESTIONS_PER_MODULE, TOPICS_PER_MODULE } from "#shared/features/course/constants.ts";
import { isModuleNumber, parseModuleId } from "#shared/features/course/course.ts";
import { canonicalRetry } from "#shared/features/course/quiz-review.ts";
import { earningsAnswersSoFar } from "#shared/features/earnings/constants.ts";
import { LIMITS, readWhatIf, WHAT_IF_PARAMS, type WhatIf } from "#shared/features/earnings/estimate.ts";
import { readHealthFilter } from "#shared/features/links/health.ts";
import { isArchetype, quizAnswersSoFar } from "#shared/features/quiz/constants.ts";
import type { PageModule, PageProps } from "./page-route.ts";

/**
 * Whether one value of an address is one of the few every visitor shares (an archetype,
 * a module number): the page is then kept in the page cache's shared partition with the
 * site's pages. Any other value (an id a visitor made, an unknown name) still shows its
 * page, which is kept in the smaller visitor partition, so no number of such addresses
 * pushes the site's pages out.
 */
type SharedValue = (value: string) => boolean;

/** A value made by a visitor, such as a saved result's id: never shared. */
const visitorMade: SharedValue = () => false;

/**
 * A query parameter whose many spellings mean few things: `canonical` gives the value as
 * the page understands it, or null when it means the same as no value. The page (on the
 * server and in the browser) reads only the canonical value, so `?quiz=yes` and no
 * `quiz` at all are one page and one cache entry.
 */
interface SearchRule {
  shared: SharedValue;
  canonical: (value: string) => string | null;
}

/** A module number as the course pages read it (`parseModuleId`); anything else reads as none. */
const moduleNumber: SearchRule = {
  shared: isModuleNumber,
  canonical: (value) => {
    const n = parseModuleId(value);
    return n ? String(n) : null;
  },
};

/**
 * A lesson of a module page, 1-based as the address writes it: 2 to the most lessons a
 * module has; the first lesson, like any other value, reads as none.
 */
const topicNumber: SearchRule = {
  shared: () => true,
  canonical: (value) => {
    const n = /^[1-9]\d?$/.test(value) ? Number(value) : 0;
    return n >= 2 && n <= TOPICS_PER_MODULE ? String(n) : null;
  },
};

/** A page of the blog's list after the first: 2 to MAX_BLOG_PAGE; any other value reads as the first. */
const blogPage: SearchRule = {
  shared: () => true,
  canonical: (value) => {
    const n = blogPageNumber(value) ?? 0;
    return n >= 2 ? String(n) : null;
  },
};

/**
 * The answer to one question of a module quiz sent as a form without JavaScript: a letter
 * A to D. A set of answers is the visitor's own, so its result page is kept apart.
 */
const quizAnswer: SearchRule = {
  shared: visitorMade,
  canonical: (value) => (/^[A-Da-d]$/.test(value) ? value.toUpperCase() : null),
};

/**
 * The questions of a module quiz asked again without JavaScript ("24": the second and the
 * fourth), the ones missed in the answers beside it: once each, in order, none past the
 * last question; anything else reads as none. Tied to a visitor's answers: kept apart.
 */
const quizRetry: SearchRule = { shared: visitorMade, canonical: canonicalRetry };

/** The query names of a module quiz's answers: a1 for the first question, and so on. */
export const quizAnswerNames = Array.from({ length: QUIZ_QUESTIONS_PER_MODULE }, (_, i) => `a${i + 1}`);

/**
 * The answers so far of a wizard (the quiz, the calculator): the address of each step, so
 * reload and Back keep the step. Anything but answers before the last question reads as
 * none (the first question). Made by a visitor: kept apart from the site's pages.
 */
function answersSoFar(parse: (value: string) => unknown[] | null): SearchRule {
  return { shared: visitorMade, canonical: (value) => (parse(value) ? value : null) };
}

/** A what-if value of the earnings estimate: a whole number clamped to its limits; anything else reads as none. */
function whatIf(name: WhatIf): SearchRule {
  return {
    shared: visitorMade,
    canonical: (value) => {
      const n = readWhatIf(name, value);
      return n === null ? null : String(n);
    },
  };
}

/** A page: its module exports the component and its `route` (data, redirect, status, cache). */
export interface PageDef {
  id: string;
  /** A wouter (regexparam) pattern: named (:id), optional (:id?) and wildcard (*) parts. */
  path: string;
  /**
   * The query parameters the page reads, with their shared values. The page is rendered,
   * cached and hydrated with these only (the first value of each, in this order): any
   * other parameter never reaches it, on the server or in the browser.
   */
  search?: Record<string, SharedValue | SearchRule>;
  /** Path parameters with few shared values; without a rule any value is shared (its data decides). */
  params?: Record<string, SharedValue>;
  /**
   * A query parameter it does not read sends the browser to the bare page (a 302) instead
   * of being ignored: for pages where one must not stay in the address bar (a password).
   */
  dropsOtherSearch?: boolean;
  /** When one address holds several pages: this one only for a query string it accepts (its `search` only). */
  query?: (search: URLSearchParams) => boolean;
  load: () => Promise<PageModule>;
}

/** An address that moved for good: a 301 on the server, a navigation in the browser. */
interface MovedPath {
  id: string;
  path: string;
  movedTo: string;
}

export type PathEntry = PageDef | MovedPath;

const adminPage = () => import("./admin/admin-page.tsx");

/**
 * THE route table, read by the server (matching, then the page module's route) and the
 * client (hydration and navigation). Order matters: the first match wins.
 */
export const pages: PathEntry[] = [
  { id: "home", path: "/", load: () => import("./features/site-pages/home-page.tsx") },
  { id: "about", path: "/learn-more", load: () => import("./features/site-pages/about-page.tsx") },
  { id: "terms", path: "/terms", load: () => import("./features/site-pages/site-page.tsx") },
  { id: "privacy", path: "/privacy", load: () => import("./features/site-pages/site-page.tsx") },
  {
    id: "quiz",
    path: "/quiz",
    search: { answers: answersSoFar(quizAnswersSoFar) },
    load: () => import("./features/quiz/quiz-page.tsx"),
  },
  {
    id: "quiz-result",
    path: "/quiz/result",
    search: { archetype: isArchetype, id: visitorMade },
    load: () => import("./features/quiz/quiz-result-page.tsx"),
  },
  // With a tier and a result id the calculator's address shows that saved result.
  {
    id: "tier-result",
    path: "/quiz/earnings",
    search: {
      tier: visitorMade,
      id: visitorMade,
      ...Object.fromEntries((Object.keys(LIMITS) as WhatIf[]).map((name) => [WHAT_IF_PARAMS[name], whatIf(name)])),
    },
    query: (s) => Boolean(s.get("tier") && s.get("id")),
    load: () => import("./features/earnings/tier-result-page.tsx"),
  },
  {
    id: "earnings",
    path: "/quiz/earnings",
    search: { quizId: visitorMade, answers: answersSoFar(earningsAnswersSoFar) },
    load: () => import("./features/earnings/earnings-page.tsx"),
  },
  {
    id: "starter-kit",
    path: "/quiz/starter-kit",
    search: { quizId: visitorMade },
    load: () => import("./features/products/starter-kit-page.tsx"),
  },
  { id: "plan", path: "/plan", load: () => import("./features/plan/plan-page.tsx") },
  { id: "learn", path: "/learn", load: () => import("./features/course/learn-page.tsx") },
  {
    id: "module-complete",
    path: "/learn/module-complete",
    search: { moduleId: moduleNumber },
    load: () => import("./features/course/module-complete-page.tsx"),
  },
  {
    id: "quiz-complete",
    path: "/learn/quiz-complete",
    search: { moduleId: moduleNumber },
    load: () => import("./features/course/quiz-complete-page.tsx"),
  },
  { id: "course-complete", path: "/learn/complete", load: () => import("./features/course/course-complete-page.tsx") },
  // Before the module page, whose pattern would take "certificate" as a module id.
  { id: "certificate", path: "/learn/certificate", load: () => import("./features/course/certificate-page.tsx") },
  {
    id: "module",
    path: "/learn/:id",
    params: { id: isModuleNumber },
    // The module page opens its quiz for quiz=true only; topic is the lesson shown, and
    // a1..a5 the answers of the quiz's form when it is sent without JavaScript.
    search: {
      quiz: { shared: () => true, canonical: (value) => (value === "true" ? value : null) },
      topic: topicNumber,
      ...Object.fromEntries(quizAnswerNames.map((name) => [name, quizAnswer])),
      // The questions missed that the quiz asks again, the others' answers standing.
      retry: quizRetry,
    },
    load: () => import("./features/course/module-page.tsx"),
  },
  { id: "resources", path: "/resources", load: () => import("./features/site-pages/resources-page.tsx") },
  { id: "resume", path: "/resume", load: () => import("./features/progress/resume-page.tsx") },
  {
    id: "blog",
    path: "/blog",
    // A search is typed by the visitor: its pages are kept apart from the site's.
    search: { category: isSeededCategory, q: visitorMade, page: blogPage },
    load: () => import("./features/blog/blog-page.tsx"),
  },
  { id: "blog-post", path: "/blog/:slug", load: () => import("./features/blog/blog-post-page.tsx") },
  {
    id: "admin-login",
    path: "/admin-login",
    // The code of a failed sign-in sent without JavaScript, and how long to wait; the
    // second step (step=code), which code it asks for (use=recovery), and session=ended when
    // the dashboard sent the admin here because their session ended.
    search: { error: visitorMade, wait: visitorMade, step: visitorMade, use: visitorMade, session: visitorMade },
    dropsOtherSearch: true,
    load: () => import("./features/auth/admin-login-page.tsx"),
  },
  // The admin dashboard: /admin is its home; one address per section, and the
  // post and offer editors by record id ("new" for a new one). Never cached; the session
  // is checked in the browser, so the server's HTML holds no admin data.
  { id: "admin", path: "/admin", load: adminPage },
  {
    id: "admin-posts",
    path: "/admin/posts",
    // The list's page (2 and on; any other value reads as the first) and its search.
    search: {
      page: { shared: () => true, canonical: (value) => ((readAdminPostsPage(value) ?? 1) > 1 ? value : null) },
      q: visitorMade,
    },
    load: adminPage,
  },
  { id: "admin-post", path: "/admin/posts/:id", load: adminPage },
  { id: "admin-categories", path: "/admin/categories", load: adminPage },
  { id: "admin-offers", path: "/admin/offers", load: adminPage },
  { id: "admin-offer", path: "/admin/offers/:id", load: adminPage },
  { id: "admin-products", path: "/admin/products", load: adminPage },
  {
    id: "admin-links",
    path: "/admin/links",
    // The health filter the list opens with (the admin home links to ?health=attention).
    search: { health: { shared: () => true, canonical: (value) => (readHealthFilter(value) ? value : null) } },
    load: adminPage,
  },
  {
    id: "admin-analytics",
    path: "/admin/analytics",
    // The period shown: 7, 30 or 90 days; anything else reads as none (the default).
    search: { days: { shared: () => true, canonical: (value) => (readPeriod(value) ? value : null) } },
    load: adminPage,
  },
  { id: "admin-link", path: "/admin/links/:id", load: adminPage },
  { id: "admin-settings", path: "/admin/settings", load: adminPage },
  { id: "admin-pages", path: "/admin/pages", load: adminPage },
  { id: "admin-page", path: "/admin/pages/:id", load: adminPage },
  { id: "admin-media", path: "/admin/media", load: adminPage },
  { id: "admin-backups", path: "/admin/backups", load: adminPage },
  { id: "admin-account", path: "/admin/account", load: adminPage },
  // The course's old completion address.
  { id: "course-complete-redirect", path: "/course-complete", movedTo: "/learn/complete" },
  // A page the admin added (About, Contact…): any other one-part address, answered 404 when there is none.
  { id: "added-page", path: "/:slug", load: () => import("./features/site-pages/site-page.tsx") },
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
const parsed = { exact: new Map<string, Parsed>(), loose: new Map<string, Parsed>() };
/** regexparam, as wouter uses it, with each pattern compiled once. */
function routeParser(route: string, loose?: boolean): Parsed {
  const kept = loose ? parsed.loose : parsed.exact;
  let hit = kept.get(route);
  if (!hit) {
    hit = parse(route, loose) as Parsed;
    kept.set(route, hit);
  }
  return hit;
}

export function matchPage(pathname: string, search = new URLSearchParams()): PageMatch {
  for (const page of pages) {
    const [ok, params] = matchRoute(routeParser, page.path, pathname);
    if (ok && (!("query" in page) || !page.query || page.query(pageSearch(page, search))))
      return { page, params: params as PageProps["params"] };
  }
  return { page: notFoundPage, params: {} };
}

/**
 * The query parameters `page` reads: the first value of each it declares (canonical where
 * its rule says how), in its order; nothing else.
 */
function pageSearch(page: PathEntry, search: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams();
  for (const [name, rule] of Object.entries(("search" in page && page.search) || {})) {
    const value = search.get(name);
    const read = value === null || typeof rule === "function" ? value : rule.canonical(value);
    if (read !== null) kept.append(name, read);
  }
  return kept;
}

type PageAddress = Readonly<{ match: Readonly<PageMatch>; search: string }>;
/** The last few addresses matched: a render asks for its address once for each link and heading that reads it. */
const matched = new Map<string, PageAddress>();
const MATCHED_KEPT = 64;

/** The page at this address and the query string it reads, matched once (browser side: what useSearch() gives a page). */
export function addressAt(pathname: string, search: string): PageAddress {
  const key = `${pathname}?${search}`;
  const known = matched.get(key);
  if (known) return known;
  const all = new URLSearchParams(search);
  const match = matchPage(pathname, all);
  const address = { match, search: pageSearch(match.page, all).toString() };
  matched.set(key, address);
  if (matched.size > MATCHED_KEPT) matched.delete(matched.keys().next().value!);
  return address;
}

/** The query string the page at this address reads. */
export function searchAt(pathname: string, search: string): string {
  return addressAt(pathname, search).search;
}

/** A page's cache key: what the page reads from its address, and which cache partition keeps it. */
export interface PageCacheKey {
  /** The query string the page is rendered with: `pageSearch`, encoded. */
  search: string;
  /** The page and what it reads from the address: two addresses with one key show one page. */
  key: string;
  /**
   * "shared" when the path is spelled as the page's pattern spells it and every value
   * read is a shared one; "visitor" otherwise (the visitor cache, see SharedValue).
   */
  partition: "shared" | "visitor";
}

export function pageCacheKey({ page, params }: PageMatch, pathname: string, search: URLSearchParams): PageCacheKey {
  const kept = pageSearch(page, search);
  const rules: Pick<PageDef, "params" | "search"> = "load" in page ? page : {};
  const shared =
    pathname === inject(page.path, params) &&
    Object.entries(rules.params ?? {}).every(([name, isShared]) => isShared(params[name] ?? "")) &&
    [...kept].every(([name, value]) => {
      const rule = rules.search?.[name];
      return (typeof rule === "function" ? rule : rule?.shared)?.(value) === true;
    });
  return { search: kept.toString(), key: `${page.id} ${pathname}?${kept}`, partition: shared ? "shared" : "visitor" };
}

export function pageById(id: string): PageDef | undefined {
  return id === errorPage.id ? errorPage : pages.find((p): p is PageDef => p.id === id && "load" in p);
}
