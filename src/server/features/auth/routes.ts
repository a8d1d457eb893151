import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import type { ClientOf } from "#server/lib/client.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { jsonBody } from "#server/plugins/json-body.ts";
import { LoginInput } from "#shared/features/auth/contract.ts";
import { refuseForeign } from "./guard.ts";
import { endSessions, verifyLogin } from "./service.ts";
import { SESSION_COOKIE, SESSION_DAYS, type SessionTokens, sessionAdmin } from "./session.ts";
import { LoginThrottle } from "./throttle.ts";

export interface AuthOptions {
  tokens: SessionTokens;
  /** Sends the cookie with Secure when the site is served over HTTPS. */
  secure: (request: Request) => boolean;
  allowedOrigins: (request: Request) => string[];
  client: ClientOf;
  throttle?: LoginThrottle;
  /** Runs after a successful sign-in (the app records where the site is reached). */
  onSignIn?: (request: Request) => Promise<void>;
}

export function authRoutes(
  db: Db,
  { tokens, secure, allowedOrigins, client, throttle = new LoginThrottle(), onSignIn }: AuthOptions,
) {
  return new Elysia({ name: "auth" })
    .post(
      "/api/auth/login",
      async ({ body, request, cookie, set, server }) => {
        refuseForeign(request, allowedOrigins(request));
        const ip = client(request, server).address;
        const wait = throttle.retryAfter(ip, body.username);
        if (wait > 0) {
          set.headers["retry-after"] = String(wait);
          throw new HttpError(
            429,
            `Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? "s" : ""}.`,
          );
        }
        const admin = await verifyLogin(db, body.username, body.password);
        if (!admin) {
          throttle.fail(ip, body.username);
          throw new HttpError(401, "Invalid username or password");
        }
        throttle.succeed(ip, body.username);
        await onSignIn?.(request);
        cookie[SESSION_COOKIE]!.set({
          value: await tokens.sign(admin),
          httpOnly: true,
          sameSite: "lax",
          secure: secure(request),
          path: "/",
          maxAge: SESSION_DAYS * 24 * 60 * 60,
        });
        return { user: { id: admin.id, username: admin.username } };
      },
      { parse: jsonBody(LoginInput), body: LoginInput },
    )
    .post("/api/auth/logout", async ({ request, cookie }) => {
      refuseForeign(request, allowedOrigins(request));
      const admin = await sessionAdmin(db, tokens, request);
      // Signing out ends the session on the server too: a copied cookie stops working.
      if (admin) await endSessions(db, admin.id);
      cookie[SESSION_COOKIE]!.set({
        value: "",
        httpOnly: true,
        sameSite: "lax",
        secure: secure(request),
        path: "/",
        maxAge: 0,
      });
      return { message: "Logged out" };
    })
    .get("/api/auth/me", async ({ request, set }) => {
      set.headers["cache-control"] = "no-store";
      const admin = await sessionAdmin(db, tokens, request);
      return admin ? { isAdmin: true, user: { id: admin.id, username: admin.username } } : { isAdmin: false };
    });
}
