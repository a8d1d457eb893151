import { renderToReadableStream } from "react-dom/server";
import { dehydrate } from "@tanstack/react-query";
import { App } from "#web/app.tsx";
import { Document } from "#web/document.tsx";
import { serializeBoot, type BootData } from "#web/boot.ts";
import { createQueryClient } from "#web/lib/query-client.ts";
import { errorPage, matchPage, notFoundPage, pageQueries, type PageMatch, type QueryReader } from "#web/routes.ts";
import { primePage } from "#web/page-loader.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { Logger } from "#server/logger.ts";
import type { AssetStore } from "./assets.ts";
import type { QueryResolver } from "./queries.ts";
import { cachedResponse, toCachedPage, type CachedPage, type PageCache } from "./page-cache.ts";

export interface RendererDeps {
  assets: AssetStore;
  /** Pages marked `cache` in the page table are kept here once rendered. */
  cache?: PageCache;
  resolveQuery: QueryResolver;
  logger: Logger;
  origin: (request: Request) => string;
}

export type PageRenderer = (request: Request, forced?: 404 | 500) => Promise<Response>;

type Reader = QueryReader & { settle<T>(decide: () => T): Promise<T> };

/** What read() throws while an answer is on its way. */
class Pending {
  constructor(readonly until: Promise<unknown>) {}
}

export function createRenderer({ assets, resolveQuery, logger, origin, cache }: RendererDeps): PageRenderer {
  const { manifest } = assets;

  /**
   * Resolves each key once per request; a missing record (404) reads as null. Services
   * answer asynchronously while a page decides its queries synchronously, so read() throws
   * Pending for an answer still on its way, and settle() runs a decision again once the
   * answers it asked for have come.
   */
  function createReader(): Reader {
    const answers = new Map<string, { data: unknown } | { error: unknown }>();
    const arriving = new Map<string, Promise<unknown>>();
    const read = <T,>(key: string): T | null => {
      const answer = answers.get(key);
      if (answer === undefined) {
        let pending = arriving.get(key);
        if (!pending) {
          pending = Promise.resolve()
            .then(() => resolveQuery(key))
            .then(
              (data) => answers.set(key, { data }),
              (error) => answers.set(key, error instanceof HttpError && error.status === 404 ? { data: null } : { error }),
            );
          arriving.set(key, pending);
        }
        throw new Pending(pending);
      }
      if ("error" in answer) throw answer.error;
      return answer.data as T | null;
    };
    async function settle<T>(decide: () => T): Promise<T> {
      for (;;) {
        try {
          return decide();
        } catch (thrown) {
          if (!(thrown instanceof Pending)) throw thrown;
          await thrown.until;
        }
      }
    }
    return Object.assign(read, { settle });
  }

  async function renderMatch(url: URL, match: PageMatch, forced: boolean, siteOrigin: string, read = createReader()): Promise<Response> {
    const queryClient = createQueryClient({ server: true });
    const pageStatus = match.page.status;
    let status = typeof pageStatus === "function" ? pageStatus(match.params, url.searchParams) : (pageStatus ?? 200);
    for (const spec of await read.settle(() => pageQueries(match, url.searchParams, read))) {
      const key = typeof spec === "string" ? spec : spec.key;
      let data: unknown;
      try {
        data = await read.settle(() => read(key));
      } catch (error) {
        // The error page renders even when its data (the settings) cannot be read.
        if (match.page === errorPage) continue;
        throw error;
      }
      if (data === null) {
        if (typeof spec === "string") throw new HttpError(404, `Not found: ${key}`);
        // The page shows its own "not found" state; the status says so.
        status = spec.missingStatus;
      }
      queryClient.setQueryData([key], data);
    }
    primePage(match.page, await match.page.load());

    const boot: BootData = {
      state: dehydrate(queryClient),
      assets: { css: manifest.css, entry: manifest.entry, preload: manifest.pages[match.page.id] ?? [] },
      forcedPageId: forced ? match.page.id : null,
      origin: siteOrigin,
    };
    const bootJson = serializeBoot(boot);
    const stream = await renderToReadableStream(
      <Document assets={boot.assets} bootJson={bootJson}>
        <App
          queryClient={queryClient}
          ssrPath={url.pathname}
          ssrSearch={url.search.replace(/^\?/, "")}
          forcedPageId={boot.forcedPageId}
          origin={siteOrigin}
        />
      </Document>,
      {
        bootstrapModules: [manifest.entry],
        // Data is loaded before rendering, so nothing suspends on the server. Without this
        // React outlines large boundaries and moves them with inline scripts, which the
        // CSP (no 'unsafe-inline') rightly blocks.
        progressiveChunkSize: Number.MAX_SAFE_INTEGER,
        onError(error) {
          logger.error("render failed", { url: url.pathname, error });
        },
      },
    );
    return new Response(stream, {
      status,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
    });
  }

  // Requests for a page that is being rendered for the cache wait for that one render
  // instead of starting their own (no stampede when a popular page expires).
  const inflight = new Map<string, Promise<CachedPage | Response>>();

  return async function render(request, forced) {
    const url = new URL(request.url);
    const siteOrigin = origin(request);
    if (forced === 500) return renderMatch(url, { page: errorPage, params: {} }, true, siteOrigin);
    const match = forced === 404 ? { page: notFoundPage, params: {} } : matchPage(url.pathname);
    const rule = match.page.cache;
    const cacheable = cache && !forced && request.method === "GET" && (typeof rule === "function" ? rule(url.searchParams) : rule === true);
    const key = url.pathname + url.search;
    if (cacheable) {
      const hit = cache.get(key);
      // A cached page was not a redirect when it was rendered, and any change since
      // (an unpublished post, say) has emptied the cache.
      if (hit) return cachedResponse(hit, request);
    }
    const read = createReader();
    const redirect = forced ? null : await read.settle(() => match.page.redirect?.(match.params, url.searchParams, read));
    if (redirect) {
      return new Response(null, {
        status: redirect.permanent ? 301 : 302,
        headers: { location: redirect.to, "cache-control": redirect.permanent ? "public, max-age=3600" : "no-store" },
      });
    }
    try {
      if (!cacheable) return await renderMatch(url, match, forced === 404, siteOrigin, read);
      let pending = inflight.get(key);
      const first = !pending;
      if (!pending) {
        pending = (async () => {
          const response = await renderMatch(url, match, false, siteOrigin, read);
          if (response.status !== 200) return response;
          const page = await toCachedPage(response);
          cache.set(key, page);
          return page;
        })().finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      const outcome = await pending;
      // Not cacheable after all (a 404 state): the first request keeps that answer and
      // every request that waited renders its own (a body can be read only once).
      if (outcome instanceof Response) return first ? outcome : renderMatch(url, match, false, siteOrigin);
      const fresh = cachedResponse(outcome, request);
      fresh.headers.set("x-cache", "miss");
      return fresh;
    } catch (error) {
      // A page whose data does not exist is a 404, like an unknown path.
      if (error instanceof HttpError && error.status === 404 && match.page !== notFoundPage) {
        return renderMatch(url, { page: notFoundPage, params: {} }, true, siteOrigin);
      }
      throw error;
    }
  };
}
