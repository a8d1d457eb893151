import { Elysia } from "elysia";
import type { Logger } from "#server/logger.ts";
import { fieldProblems } from "#shared/schema/field-problems.ts";

/** An error whose message is safe and useful to show to the client. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly details?: unknown,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

export interface ErrorPluginOptions {
  logger: Logger;
  /** Renders the site's HTML error page for non-API requests. */
  renderErrorPage(request: Request, status: 404 | 500): Promise<Response>;
}

export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

export function errorHandler({ logger, renderErrorPage }: ErrorPluginOptions) {
  return new Elysia({ name: "errors" }).onError({ as: "global" }, async ({ code, error, request }) => {
    const api = isApiPath(new URL(request.url).pathname);
    // A route's own body parser throws HttpError (413, 415, 400); Elysia wraps it as PARSE.
    const http =
      error instanceof HttpError ? error : code === "PARSE" && error.cause instanceof HttpError ? error.cause : null;
    if (http) {
      if (!api && http.status === 404) return renderErrorPage(request, 404);
      if (http.status >= 500) {
        logger.error("request failed", { method: request.method, url: request.url, error: http });
        if (!api) return renderErrorPage(request, 500);
      }
      return json(http.status, { error: http.message, ...(http.details ? { details: http.details } : {}) });
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
        logger.error("request failed", { method: request.method, url: request.url, code, error });
        if (api) return json(500, { error: "Something went wrong on our side. Please try again." });
        return renderErrorPage(request, 500);
      }
    }
  });
}
