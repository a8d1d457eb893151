import { jwtVerify, SignJWT } from "jose";
import type { Db } from "#server/db/client.ts";
import type { AdminUser } from "#shared/features/auth/contract.ts";
import { adminForToken } from "./service.ts";

export const SESSION_COOKIE = "cg_session";
export const SESSION_DAYS = 7;

/** Signs and reads session tokens: HS256 with the site's secret, so one library does both. */
export function sessionTokens(secret: string) {
  const key = new TextEncoder().encode(secret);
  return {
    /** A fresh token at every sign-in: it carries a unique id and the admin's current version. */
    sign(admin: { id: number; tokenVersion: number }): Promise<string> {
      return new SignJWT({ v: admin.tokenVersion })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(admin.id))
        .setJti(crypto.randomUUID())
        .setIssuedAt()
        .setExpirationTime(`${SESSION_DAYS}d`)
        .sign(key);
    },
    /** The claims of a token signed with our key, unexpired; null for anything else. */
    async verify(token: string): Promise<{ sub: string; v: number } | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["exp", "sub"] });
        return typeof payload.v === "number" ? { sub: payload.sub!, v: payload.v } : null;
      } catch {
        return null;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof sessionTokens>;

/** The session cookie's value, read from the raw header so it works before Elysia parses anything. */
function sessionToken(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== SESSION_COOKIE) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      return null;
    }
  }
  return null;
}

/** The signed-in admin, when the request carries a valid token of a session not ended since. */
export async function sessionAdmin(db: Db, tokens: SessionTokens, request: Request): Promise<AdminUser | null> {
  const token = sessionToken(request);
  const claims = token ? await tokens.verify(token) : null;
  if (!claims) return null;
  return await adminForToken(db, Number(claims.sub), claims.v);
}
