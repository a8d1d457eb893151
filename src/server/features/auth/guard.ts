import { Elysia, type Cookie } from "elysia";
import { jwt } from "@elysiajs/jwt";
import { jwtVerify } from "jose";
import type { Db } from "#server/db/client.ts";
import type { AdminUser } from "#shared/features/auth/contract.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { adminForToken } from "./service.ts";

export const SESSION_COOKIE = "cg_session";
export const SESSION_DAYS = 7;

export interface SessionClaims {
  sub: string;
  v: number;
}

export function sessionJwt(secret: string) {
  return jwt({ name: "sessionJwt", secret, exp: `${SESSION_DAYS}d`, alg: "HS256" });
}

type Verifier = { verify(token?: string): Promise<unknown> };

/** The signed-in admin, when the cookie holds a valid, current token. */
export async function currentAdmin(db: Db, verifier: Verifier, cookie: Record<string, Cookie<unknown>>): Promise<(AdminUser & { v: number }) | null> {
  const token = cookie[SESSION_COOKIE]?.value;
  if (typeof token !== "string" || !token) return null;
  const claims = (await verifier.verify(token)) as SessionClaims | false;
  if (!claims) return null;
  const admin = await adminForToken(db, Number(claims.sub), Number(claims.v));
  return admin ? { ...admin, v: Number(claims.v) } : null;
}

/** A state-changing request from a foreign Origin, or marked cross-site by the browser, is refused. */
export function refuseForeign(request: Request, allowedOrigins: string[]): void {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return;
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  if ((origin && !allowedOrigins.includes(origin)) || site === "cross-site" || site === "same-site") {
    throw new HttpError(403, "This request came from another site and was refused.");
  }
}

/** The session cookie's value from a raw request (before Elysia has parsed anything). */
function sessionToken(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export function isAdminPath(pathname: string): boolean {
  return pathname.startsWith("/api/admin/") || pathname === "/api/admin" || pathname === "/api/upload";
}

/**
 * The first thing every admin request meets, before its body is parsed or validated: a
 * foreign origin is 403, a missing or stale session 401. So a guest learns nothing about
 * the admin API's rules, and no body is read for them.
 */
export function adminGate(db: Db, secret: string, allowedOrigins: (request: Request) => string[]) {
  const verifier = { verify: (token?: string) => (token ? sessionJwtVerify(secret, token) : Promise.resolve(false)) };
  return async (request: Request): Promise<void> => {
    if (!isAdminPath(new URL(request.url).pathname)) return;
    refuseForeign(request, allowedOrigins(request));
    const token = sessionToken(request);
    const cookie = { [SESSION_COOKIE]: { value: token } } as unknown as Record<string, Cookie<unknown>>;
    if (!token || !(await currentAdmin(db, verifier, cookie))) throw new HttpError(401, "Sign in as the admin to continue.");
  };
}

async function sessionJwtVerify(secret: string, token: string): Promise<unknown> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ["HS256"] });
    return payload;
  } catch {
    return false;
  }
}

/** DECISIONS P11: every admin call needs the session; nothing happens without it. */
export function adminGuard(db: Db, secret: string, allowedOrigins: (request: Request) => string[]) {
  return new Elysia({ name: "admin-guard" })
    .use(sessionJwt(secret))
    .derive({ as: "scoped" }, async ({ request, cookie, sessionJwt }) => {
      refuseForeign(request, allowedOrigins(request));
      const admin = await currentAdmin(db, sessionJwt, cookie);
      if (!admin) throw new HttpError(401, "Sign in as the admin to continue.");
      return { admin };
    });
}
