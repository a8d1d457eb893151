import { Elysia } from "elysia";
import { databaseDamaged } from "#server/db/faults.ts";
import { databaseUnreachable, failedQuery, uniqueViolation, unstorableText } from "#server/db/unreachable.ts";
import { DESCRIPTORS_BUSY, descriptorShortage, outOfDescriptors } from "#server/lib/descriptors.ts";
import { formProblemPage, formStart } from "#server/lib/form-problem-page.ts";
import { changesState } from "#server/lib/methods.ts";
import { RETRY_AFTER_SECONDS, type StorageState, storageFault } from "#server/lib/storage-health.ts";
import type { Logger } from "#server/logger.ts";
import { fieldProblems } from "#shared/schema/field-problems.ts";

/** An error whose message is safe and useful to show to the client. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly details?: unknown,
    /** Headers the answer carries, such as Retry-After. */
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/**
 * The answer to a change that cannot be kept: 507 when there is no room for it, 503 when the
 * data itself is unusable. Nothing was saved, and the client may try again later. `read`: the
 * answer to a read that failed on the storage instead, which asked for nothing to be saved.
 */
export function storageRefusal(state: Extract<StorageState, { ok: false }>, { read = false } = {}): HttpError {
  const what = read ? "This could not be read" : "Nothing was saved";
  return new HttpError(state.status, `${what}: ${state.reason}. Try again later.`, undefined, {
    "retry-after": String(RETRY_AFTER_SECONDS),
  });
}

export interface ErrorPluginOptions {
  logger: Logger;
  /** Renders the site's HTML error page for non-API requests. */
  renderErrorPage(request: Request, status: 404 | 500): Promise<Response>;
  /** Looks at the storage again when a request failed on it, to answer 507 or 503 honestly. */
  storage?: { recheck(): StorageState; damaged?(): void };
}

export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

/** The site's error page with the status of a refusal (503, 507) and its headers. */
async function pageWithStatus(page: Promise<Response>, http: HttpError): Promise<Response> {
  const rendered = await page;
  const headers = new Headers(rendered.headers);
  // A refusal holds only for now: no cache may keep it.
  headers.set("cache-control", "no-store");
  for (const [name, value] of Object.entries(http.headers ?? {})) headers.set(name, value);
  return new Response(rendered.body, { status: http.status, headers });
}

export function errorHandler({ logger, renderErrorPage, storage }: ErrorPluginOptions) {
  return new Elysia({ name: "errors" }).onError({ as: "global" }, async ({ code, error, request }) => {
    const api = isApiPath(new URL(request.url).pathname);
    // A route's own body parser throws HttpError (413, 415, 400); Elysia wraps it as PARSE.
    let http =
      error instanceof HttpError ? error : code === "PARSE" && error.cause instanceof HttpError ? error.cause : null;
    // Out of file descriptors (a file could not be opened, or SQLite could not open one): the
    // server is overloaded, not its storage; a moment later the same request may work.
    const storageSaid = http ? null : storageFault(error);
    if (!http && (descriptorShortage(error) || (storageSaid === "broken" && outOfDescriptors()))) {
      logger.error("request failed: out of file descriptors", { method: request.method, url: request.url });
      storage?.recheck();
      http = new HttpError(
        503,
        changesState(request)
          ? `${DESCRIPTORS_BUSY} to take this now; nothing was saved. Please try again in a minute.`
          : `${DESCRIPTORS_BUSY} to take this now. Please try again in a minute.`,
        undefined,
        { "retry-after": String(RETRY_AFTER_SECONDS) },
      );
    }
    // The database server (PostgreSQL) cannot be reached now: 503, one log line naming why.
    const away = http ? null : databaseUnreachable(error);
    if (away) {
      logger.error("request failed: the database cannot be reached", {
        method: request.method,
        url: request.url,
        cause: away,
      });
      http = new HttpError(
        503,
        changesState(request)
          ? "The site's database cannot be reached just now; nothing was saved. Please try again in a moment."
          : "The site's database cannot be reached just now. Please try again in a moment.",
        undefined,
        { "retry-after": String(RETRY_AFTER_SECONDS) },
      );
    }
    if (!http && unstorableText(error))
      http = new HttpError(
        400,
        "The request holds a NUL character (U+0000), which the site cannot store or look up. Remove it and try again.",
      );
    if (!http && uniqueViolation(error))
      http = new HttpError(
        409,
        "Another change took the same name or address at the same moment; nothing was saved. Reload and try again.",
      );
    // A write that failed on the disk or the database file: never a generic 500. The storage
    // is examined again, so the answer names the real cause and later writes are refused up front.
    const fault = http ? null : storageSaid;
    if (fault) {
      logger.error("request failed on the storage", { method: request.method, url: request.url, error });
      if (databaseDamaged(error)) storage?.damaged?.();
      const state = storage?.recheck() ?? { ok: true };
      http = storageRefusal(
        !state.ok
          ? state
          : fault === "full"
            ? { ok: false, status: 507, reason: "the disk holding the data is full" }
            : { ok: false, status: 503, reason: "the data could not be read or written (a storage error)" },
        { read: !changesState(request) },
      );
    }
    if (http) {
      if (!api && http.status === 404) return renderErrorPage(request, 404);
      if (http.status >= 500 && !fault && http.status !== 503 && http.status !== 507)
        logger.error("request failed", { method: request.method, url: request.url, error: http });
      // A form a page sent without JavaScript (the quiz's last step) refused on the way
      // (another site, too many, no room): a page that says so, not a JSON answer.
      if (!api && changesState(request)) {
        return formProblemPage(
          http.status,
          http.message,
          formStart(new URL(request.url).pathname),
          http.headers,
          "Your browser's Back button returns to your answers, to send them again.",
        );
      }
      if (http.status >= 500 && !api) return pageWithStatus(renderErrorPage(request, 500), http);
      return json(
        http.status,
        { error: http.message, ...(http.details ? { details: http.details } : {}) },
        http.headers,
      );
    }
    switch (code) {
      case "PARSE":
        return json(400, {
          error: "The request body could not be read. Send valid JSON with Content-Type: application/json.",
        });
      case "VALIDATION":
        // Elysia's own error carries the submitted values (passwords included): only each
        // problem's path and message leave the server.
        return json(422, { error: "Some fields are missing or invalid.", details: fieldProblems(error.all) });
      case "NOT_FOUND":
        return api ? json(404, { error: "No such API endpoint." }) : renderErrorPage(request, 404);
      case "INVALID_COOKIE_SIGNATURE":
        return json(401, { error: "Your session is not valid. Please sign in again." });
      default: {
        logger.error("request failed", {
          method: request.method,
          url: request.url,
          code,
          ...(failedQuery(error) ?? { error }),
        });
        if (api) return json(500, { error: "Something went wrong on our side. Please try again." });
        return renderErrorPage(request, 500);
      }
    }
  });
}
