import { jwtVerify, SignJWT } from "jose";
import type { Db } from "#server/db/types.ts";
import type { AdminUser } from "#shared/features/auth/contract.ts";
import { adminForToken } from "./service.ts";

const SESSION_COOKIE = "cg_session";
export const SESSION_DAYS = 7;
/** The cookie that carries a sign-in between the password and the code, and how long it lasts. */
export const CHALLENGE_COOKIE = "cg_2fa";
const CHALLENGE_MINUTES = 5;
/** A challenge's id: a random UUID, as `crypto.randomUUID()` makes them. */
const CHALLENGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Signs and reads session tokens: HS256 with the site's secret, so one library does both. */
export function sessionTokens(secret: string) {
  const key = new TextEncoder().encode(secret);
  // The two-factor challenge is signed with a key of its own, so a challenge can never be
  // taken for a session (or the reverse), whatever cookie it is put in.
  const challengeKey = new Uint8Array(new Bun.CryptoHasher("sha256", key).update("two-factor challenge").digest());
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
        // Our subjects are admin ids: a number, nothing else is looked up.
        return typeof payload.v === "number" && /^\d{1,15}$/.test(payload.sub ?? "")
          ? { sub: payload.sub!, v: payload.v }
          : null;
      } catch {
        return null;
      }
    },
    /**
     * A short-lived proof that the password was right, good only for the code step and only
     * while `challengeId` is the admin's open challenge (see challenge.ts).
     */
    signChallenge(admin: { id: number; tokenVersion: number }, challengeId: string): Promise<string> {
      return new SignJWT({ v: admin.tokenVersion, purpose: "two-factor" })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(admin.id))
        .setJti(challengeId)
        .setIssuedAt()
        .setExpirationTime(`${CHALLENGE_MINUTES}m`)
        .sign(challengeKey);
    },
    async verifyChallenge(token: string): Promise<{ id: number; v: number; challengeId: string } | null> {
      try {
        const { payload } = await jwtVerify(token, challengeKey, {
          algorithms: ["HS256"],
          requiredClaims: ["exp", "sub", "jti"],
        });
        return payload.purpose === "two-factor" &&
          typeof payload.v === "number" &&
          /^\d{1,15}$/.test(payload.sub ?? "") &&
          CHALLENGE_ID.test(payload.jti ?? "")
          ? { id: Number(payload.sub), v: payload.v, challengeId: payload.jti! }
          : null;
      } catch {
        return null;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof sessionTokens>;

// A token we sign is about 250 characters; anything much longer is not one of ours.
const MAX_TOKEN_LENGTH = 1024;
// Browsers send one cookie per path and domain that matches; a few are plenty.
const MAX_CANDIDATES = 4;

/**
 * The session cookie's candidate values, read from the raw header. Nothing else in the
 * server parses cookies (Elysia's cookie jar is never used), so no cookie a client sends,
 * however malformed, can make a request fail: a value that is not shaped like one of our
 * tokens is simply not a session. With several cookies of that name (another path or
 * domain), each plausible one is tried, in the order sent.
 */
export function cookieTokens(request: Request, name = SESSION_COOKIE): string[] {
  const header = request.headers.get("cookie");
  if (!header) return [];
  const found: string[] = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    // Our tokens are three base64url parts: no escapes, quotes or spaces to decode.
    if (value.length <= MAX_TOKEN_LENGTH && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value)) found.push(value);
    if (found.length === MAX_CANDIDATES) break;
  }
  return found;
}

/**
 * The Set-Cookie value for the session: HttpOnly, SameSite=Lax, the whole site, Secure
 * when the site is reached over HTTPS. An empty value with maxAge 0 ends it.
 */
export function sessionCookie(value: string, { maxAge, secure }: { maxAge: number; secure: boolean }): string {
  return httpOnlyCookie(SESSION_COOKIE, value, { maxAge, secure, path: "/", sameSite: "Lax" });
}

/**
 * The challenge cookie: HttpOnly, sent only to the sign-in API, gone after a few minutes.
 * SameSite=Strict: the code step is always posted from the sign-in page itself.
 */
export function challengeCookie(value: string, { secure }: { secure: boolean }): string {
  const maxAge = value ? CHALLENGE_MINUTES * 60 : 0;
  return httpOnlyCookie(CHALLENGE_COOKIE, value, { maxAge, secure, path: "/api/auth", sameSite: "Strict" });
}

/** An HttpOnly Set-Cookie value; maxAge 0 also dates it in the past, for browsers that ignore Max-Age. */
function httpOnlyCookie(
  name: string,
  value: string,
  { maxAge, secure, path, sameSite }: { maxAge: number; secure: boolean; path: string; sameSite: "Lax" | "Strict" },
): string {
  return [
    `${name}=${value}`,
    `Max-Age=${maxAge}`,
    ...(maxAge === 0 ? ["Expires=Thu, 01 Jan 1970 00:00:00 GMT"] : []),
    `Path=${path}`,
    "HttpOnly",
    `SameSite=${sameSite}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** The signed-in admin, when the request carries a valid token of a session not ended since. */
export async function sessionAdmin(db: Db, tokens: SessionTokens, request: Request): Promise<AdminUser | null> {
  for (const token of cookieTokens(request)) {
    const claims = await tokens.verify(token);
    const admin = claims && (await adminForToken(db, Number(claims.sub), claims.v));
    if (admin) return admin;
  }
  return null;
}
