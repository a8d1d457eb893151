import { dehydrate } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { renderToReadableStream } from "react-dom/server";
import { siteLocation } from "#server/lib/location.ts";
import type { ReadResolver } from "#server/lib/reads.ts";
import type { Logger } from "#server/logger.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { readKey } from "#shared/read.ts";
import { App } from "#web/app.tsx";
import { type BootData, serializeBoot } from "#web/boot.ts";
import { Document } from "#web/document.tsx";
import { createQueryClient } from "#web/lib/query-client.ts";
import { loadPage } from "#web/page-modules.ts";
import {
  type PageRoute,
  pageQueries,
  pageStatus,
  type Reader,
  type Redirect,
  type RouteContext,
} from "#web/page-route.ts";
import { errorPage, matchPage, notFoundPage, type PageDef, type PageMatch, pageCacheKey } from "#web/routes.ts";
import type { AssetStore } from "./assets.ts";
import {
  type AddedHeaders,
  type CachedPage,
  cachedResponse,
  missResponse,
  type PageCache,
  toCachedPage,
} from "./page-cache.ts";
import { requestPage } from "./request-page.ts";

export interface RendererDeps {
  assets: AssetStore;
  /** Pages whose route says `cache` are kept here once rendered. */
  cache?: PageCache;
  resolveRead: ReadResolver;
  logger: Logger;
  /**
   * The site's public address for canonical and social links, or null when none is known
   * (links are then relative or left out). Never taken from the request: a cached page is
   * served to everyone.
   */
  publicBase: () => Promise<string | null>;
}

/**
 * A page at the request's address (or the 404 or 500 page when `forced`). `added`: headers a
 * cached answer carries besides its own (the security headers the app sends with everything),
 * so it is sent as made.
 */
export type PageRenderer = (request: Request, forced?: 404 | 500, added?: AddedHeaders) => Promise<Response>;

/** A page rendered with some reads answered in advance (a post that is not public yet), never cached. */
interface PreviewRequest {
  /** The public address the page is rendered as (e.g. /blog/<slug>). */
  pathname: string;
  /** Answers by read key, used instead of reading them. */
  answers: Map<string, unknown>;
  /** Shown with the page (the preview notice), after it in the document. */
  notice: ReactNode;
}

export type PreviewRenderer = (preview: PreviewRequest) => Promise<Response>;

interface PageRequest {
  page: PageDef;
  route: PageRoute;
  context: RouteContext;
}

/**
 * A redirect. One the address alone decides (a page moved for good, another spelling) may be
 * kept an hour; one decided from data (a post's old address) is never kept: the owner may undo
 * the change, and a browser that kept the old 301 would then loop between the two addresses.
 */
function redirectResponse({ to, permanent }: Redirect, { fromData = false } = {}): Response {
  return new Response(null, {
    status: permanent ? 301 : 302,
    headers: {
      location: siteLocation(to),
      "cache-control": permanent && !fromData ? "public, max-age=3600" : "no-store",
    },
  });
}

/**
 * A page's own address: its path with the values the address gave put in as they were written
 * (a post's slug, a module's number), or null for the catch-all page.
 */
function spelledAddress(path: string, params: Readonly<Record<string, string | undefined>>): string | null {
  if (path.includes("*")) return null;
  return path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? "");
}

export function createRenderer(deps: RendererDeps): PageRenderer & { preview: PreviewRenderer } {
  const { assets, resolveRead, logger, publicBase, cache } = deps;
  const { manifest } = assets;

  /** Resolves each key once per request; a missing record (404) reads as null. */
  function createReader(given?: Map<string, unknown>) {
    const answers = new Map<string, Promise<unknown>>();
    for (const [key, value] of given ?? []) answers.set(key, Promise.resolve(value));
    const byKey = (key: string): Promise<unknown> => {
      let answer = answers.get(key);
      if (!answer) {
        answer = resolveRead(key).catch((error: unknown) => {
          if (error instanceof HttpError && error.status === 404) return null;
          throw error;
        });
        answers.set(key, answer);
      }
      return answer;
    };
    const read: Reader = (decl, ...args) => byKey(readKey(decl.path, args[0])) as never;
    return { byKey, read };
  }

  /** `search`: only the query parameters the page declares (pageCacheKey), never the raw query. */
  async function pageRequest(
    pathname: string,
    search: string,
    match: { page: PageDef; params: PageMatch["params"] },
  ): Promise<PageRequest> {
    const { route = {} } = await loadPage(match.page);
    return {
      page: match.page,
      route,
      context: { params: match.params, search: new URLSearchParams(search), pathname },
    };
  }

  async function renderMatch(
    { page, route, context }: PageRequest,
    forced: boolean,
    preview?: Omit<PreviewRequest, "pathname">,
  ): Promise<Response> {
    // Unknown when it cannot be read (the error page still renders): links are then relative.
    const siteOrigin = await publicBase().catch(() => null);
    const queryClient = createQueryClient({ server: true });
    const reader = createReader(preview?.answers);
    let status = pageStatus(route, context);
    const queries = await pageQueries(route, { ...context, read: reader.read });
    if (!Array.isArray(queries)) return redirectResponse(queries, { fromData: true });
    // Read side by side; each answer is then taken in the page's order.
    const answers = await Promise.allSettled(queries.map(({ key }) => reader.byKey(key)));
    for (const [index, { key, missingStatus }] of queries.entries()) {
      const answer = answers[index]!;
      if (answer.status === "rejected") {
        // The error page renders even when its data (the settings) cannot be read.
        if (page === errorPage) continue;
        throw answer.reason;
      }
      const data = answer.value;
      if (data === null) {
        if (missingStatus === undefined) throw new HttpError(404, `Not found: ${key}`);
        // The page shows its own "not found" state; the status says so.
        status = missingStatus;
      }
      queryClient.setQueryData([key], data);
    }

    const boot: BootData = {
      state: dehydrate(queryClient),
      // A preview is plain HTML: no script takes it over (its address is not the page's).
      assets: { css: manifest.css, entry: manifest.entry, preload: preview ? [] : (manifest.pages[page.id] ?? []) },
      forcedPageId: forced ? page.id : null,
      origin: siteOrigin,
    };
    const bootJson = serializeBoot(boot);
    const stream = await renderToReadableStream(
      <Document assets={boot.assets} bootJson={bootJson}>
        <App
          queryClient={queryClient}
          ssrPath={context.pathname}
          ssrSearch={context.search.toString()}
          forcedPageId={boot.forcedPageId}
          origin={siteOrigin}
        />
        {/* After the page, so its skip link stays the first thing to tab to; shown fixed at the bottom. */}
        {preview?.notice}
      </Document>,
      {
        bootstrapModules: preview ? [] : [manifest.entry],
        // Data is loaded before rendering, so nothing suspends on the server. Without this
        // React outlines large boundaries and moves them with inline scripts, which the
        // CSP (no 'unsafe-inline') rightly blocks.
        progressiveChunkSize: Number.MAX_SAFE_INTEGER,
        onError(error) {
          logger.error("render failed", { url: context.pathname, error });
        },
      },
    );
    return new Response(stream, {
      status,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
    });
  }

  // Requests for a page that is being rendered for the cache wait for that one render
  // instead of starting their own (no stampede when a popular page expires). Keyed with the
  // cache's generation: a request that arrives after an admin change never waits for a
  // render that started before it.
  const inflight = new Map<string, Promise<CachedPage | Response>>();

  /**
   * A page as visitors would see it at `pathname`, with the given answers: for the admin's
   * preview. Never cached, never indexed, never stored by a browser or proxy.
   */
  const preview: PreviewRenderer = async ({ pathname, answers, notice }) => {
    const found = matchPage(pathname, new URLSearchParams());
    if ("movedTo" in found.page) throw new HttpError(404, `No page at ${pathname}`);
    const target = await pageRequest(pathname, "", { page: found.page, params: found.params });
    const response = await renderMatch(target, false, { answers, notice });
    response.headers.set("cache-control", "no-store");
    response.headers.set("x-robots-tag", "noindex, nofollow");
    return response;
  };

  const render: PageRenderer = async (request, forced, added) => {
    const { url, found } = requestPage(request);
    const { pathname } = url;
    // The page reads only the query parameters it declares: it is rendered with those, and
    // they are all the cache key holds besides the page and its path.
    const cacheKey = pageCacheKey(found, pathname, url.searchParams);
    if (forced === 500)
      return renderMatch(await pageRequest(pathname, cacheKey.search, { page: errorPage, params: {} }), true);
    const match = forced === 404 ? { page: notFoundPage, params: {} } : found;
    if ("movedTo" in match.page) return redirectResponse({ to: match.page.movedTo, permanent: true });
    // A page asked for in another spelling (/BLOG, /learn/, /Blog/<slug>/) moves for good to
    // its own, so each page has one address (its canonical link names that one) and one entry
    // in the cache.
    const own = forced ? null : spelledAddress(match.page.path, match.params);
    if (own !== null && pathname !== own) return redirectResponse({ to: own + url.search, permanent: true });
    const { key, partition } = cacheKey;
    const gettable = cache && !forced && (request.method === "GET" || request.method === "HEAD");
    // A hit is answered before the page's module is asked anything: only a page that may be
    // cached is ever kept. Once the next due time is known, this is the only lookup.
    const looked = gettable && cache.expireNow();
    if (looked) {
      const hit = cache.get(partition, key);
      if (hit) return cachedResponse(hit, request, added);
    }
    const target = await pageRequest(pathname, cacheKey.search, { page: match.page, params: match.params });
    // HEAD is a GET without the body: answered from the same entry, never a render of its own.
    const cacheable = gettable && target.route.cache === true;
    if (cacheable && !looked) {
      // A scheduled post whose date has come empties the cache first.
      await cache.expire();
      const hit = cache.get(partition, key);
      // A cached page was not a redirect when it was rendered, and any change since
      // (an unpublished post, say) has emptied the cache.
      if (hit) return cachedResponse(hit, request, added);
    }
    const strays =
      !forced &&
      "dropsOtherSearch" in match.page &&
      match.page.dropsOtherSearch &&
      url.search.slice(1) !== cacheKey.search;
    const redirect = strays ? { to: pathname } : forced ? null : target.route.redirect?.(target.context);
    if (redirect) return redirectResponse(redirect);
    try {
      if (!cacheable) return await renderMatch(target, forced === 404);
      // Noted before any data is read: the page is kept only if nothing changed meanwhile.
      const generation = cache.generation;
      const flight = `${generation} ${partition} ${key}`;
      let pending = inflight.get(flight);
      const first = !pending;
      if (!pending) {
        pending = (async () => {
          const response = await renderMatch(target, false);
          if (response.status !== 200) return response;
          const page = await toCachedPage(response);
          cache.set(partition, key, page, generation);
          return page;
        })().finally(() => inflight.delete(flight));
        inflight.set(flight, pending);
      }
      const outcome = await pending;
      // Not cacheable after all (a 404 state, a redirect decided from data): the first
      // request keeps that answer and every request that waited renders its own (a body
      // can be read only once).
      if (outcome instanceof Response) return first ? outcome : renderMatch(target, false);
      return missResponse(outcome, request, added);
    } catch (error) {
      // A page whose data does not exist is a 404, like an unknown path.
      if (error instanceof HttpError && error.status === 404 && match.page !== notFoundPage) {
        return renderMatch(await pageRequest(pathname, cacheKey.search, { page: notFoundPage, params: {} }), true);
      }
      throw error;
    }
  };
  return Object.assign(render, { preview });
}
