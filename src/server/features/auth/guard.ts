import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { Db } from "#server/db/types.ts";
import { changesState } from "#server/lib/methods.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { ADMIN_MOUNTS } from "#shared/features/auth/constants.ts";
import { type SessionTokens, sessionAdmin } from "./session.ts";

/** Where the admin API lives; uploads keep their own mount, POST /api/upload. */
export const ADMIN_PREFIX = ADMIN_MOUNTS.api;

/** The origin a Referer names, or "" when it is not an address. */
function refererOrigin(referer: string): string {
  try {
    return new URL(referer).origin;
  } catch {
    return "";
  }
}

/**
 * A state-changing request from a foreign Origin, or marked cross-site by the browser, is
 * refused; without an Origin, so is one whose Referer names another site.
 */
export function refuseForeign(request: Request, allowedOrigins: string[]): void {
  if (!changesState(request)) return;
  const origin = request.headers.get("origin");
  const referer = request.headers.get("referer");
  const site = request.headers.get("sec-fetch-site")?.trim().toLowerCase();
  // An Origin that is present must be ours, even empty (no browser sends that).
  const claimed = origin ?? (referer === null ? null : refererOrigin(referer));
  if ((claimed !== null && !allowedOrigins.includes(claimed)) || site === "cross-site" || site === "same-site") {
    throw new HttpError(403, "This request came from another site and was refused.");
  }
}

// request.url is already normalised (dot segments resolved), so its path can be read
// without parsing a URL on every request the site serves.
export function isUnder(prefix: string, url: string): boolean {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start < 0 || !url.startsWith(prefix, start)) return false;
  const next = url[start + prefix.length];
  return next === undefined || next === "/" || next === "?" || next === "#";
}

export interface AdminGuardOptions {
  db: Db;
  tokens: SessionTokens;
  /** The origins a state-changing admin call may come from. */
  allowedOrigins: (request: Request, server: Server | null) => string[];
}

/**
 * The admin guard, as a mount: every route used inside it is served under `prefix`, and
 * every request under `prefix` must come from the signed-in admin on this site, whether
 * or not a route is listed anywhere else. The check runs on the raw request, before
 * routing, body parsing and validation: a guest gets 401 and a foreign origin 403
 * without learning the API's rules, and no body is read for them. The prefix keeps its
 * literal type, so the routes used inside are typed under their whole path (`App`).
 */
export function adminGuard<const Prefix extends string>(
  prefix: Prefix,
  { db, tokens, allowedOrigins }: AdminGuardOptions,
) {
  return (
    new Elysia({ prefix })
      // Request hooks run for every request of the app, so the hook itself checks the prefix.
      .onRequest(async ({ request, set, server }) => {
        if (!isUnder(prefix, request.url)) return;
        // Admin answers (refusals included) are private and change with every edit.
        set.headers["cache-control"] = "no-store";
        refuseForeign(request, allowedOrigins(request, server));
        if (!(await sessionAdmin(db, tokens, request))) throw new HttpError(401, "Sign in as the admin to continue.");
      })
      .onAfterHandle(({ set }) => {
        // A handler may have set its own: admin answers are never stored.
        set.headers["cache-control"] = "no-store";
      })
  );
}
