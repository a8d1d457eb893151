import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { Db } from "#server/db/types.ts";
import type { ClientOf } from "#server/lib/client.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { JSON_BODY_LIMIT, jsonBody, readBodyLimited } from "#server/plugins/json-body.ts";
import { CHALLENGE_ENDED, LOGIN_FAILURE, type LoginFailure, waitText } from "#shared/features/auth/constants.ts";
import { CodeInput, LoginInput, type SignedIn } from "#shared/features/auth/contract.ts";
import { checkSchema } from "#shared/schema/check.ts";
import { challengeAdmin, claimChallenge, openChallenge, settleChallenge } from "./challenge.ts";
import { isUnder, refuseForeign } from "./guard.ts";
import { recoveryCodeState } from "./recovery-codes.ts";
import { endSessions, verifyLogin } from "./service.ts";
import { challengeCookie, SESSION_DAYS, type SessionTokens, sessionAdmin, sessionCookie } from "./session.ts";
import { LoginThrottle, type Refusal, type SignInThrottle } from "./throttle.ts";
import { type SecondFactor, spendSecondFactor, twoFactorEnabled, wrongCodeMessage } from "./two-factor.ts";

export interface AuthOptions {
  tokens: SessionTokens;
  /** Sends the cookie with Secure when the site is reached over HTTPS. */
  secure: (request: Request, server: Server | null) => boolean;
  allowedOrigins: (request: Request, server: Server | null) => string[];
  client: ClientOf;
  throttle?: SignInThrottle;
  /** The throttle of the code step (and of the codes the Account section asks for). */
  codeThrottle?: SignInThrottle;
  /** Runs after a successful sign-in (the app records where the site is reached). */
  onSignIn?: (request: Request) => Promise<void>;
}

/** Where signing in and out live. */
export const AUTH_PATH = "/api/auth";
/** Signing in with the password: it stores nothing (the write gate lets it through on a full disk). */
export const LOGIN_PATH = `${AUTH_PATH}/login`;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/** The sign-in page's address for the code step. */
const CODE_STEP = "/admin-login?step=code";

/** A sign-in as the JSON API sends it, or as the page's form posts it without JavaScript. */
interface LoginBody extends LoginInput {
  form: boolean;
}

/**
 * The sign-in body: JSON (the page's script), or a urlencoded form (the same page
 * before its script runs, or with JavaScript off). A form's missing fields are not an
 * error here: the handler sends the browser back to the page with a message.
 */
async function loginBody({ request }: { request: Request }): Promise<LoginBody> {
  if (!FORM_TYPE.test(request.headers.get("content-type") ?? "")) {
    return { ...((await jsonBody(LoginInput)({ request })) as LoginInput), form: false };
  }
  const tooLarge = `The request body is larger than ${JSON_BODY_LIMIT / 1024} KB.`;
  const fields = new URLSearchParams(
    new TextDecoder().decode(await readBodyLimited(request, JSON_BODY_LIMIT, tooLarge)),
  );
  return { username: fields.get("username") ?? "", password: fields.get("password") ?? "", form: true };
}

/** The code step's body: JSON from the page's script, or the same page's form without it. */
interface CodeBody extends CodeInput {
  form: boolean;
  /** The form asked for a recovery code: a failure goes back to that form. */
  recovery: boolean;
}

async function codeBody({ request }: { request: Request }): Promise<CodeBody> {
  if (!FORM_TYPE.test(request.headers.get("content-type") ?? "")) {
    return { ...((await jsonBody(CodeInput)({ request })) as CodeInput), form: false, recovery: false };
  }
  const tooLarge = `The request body is larger than ${JSON_BODY_LIMIT / 1024} KB.`;
  const fields = new URLSearchParams(
    new TextDecoder().decode(await readBodyLimited(request, JSON_BODY_LIMIT, tooLarge)),
  );
  return { code: fields.get("code") ?? "", form: true, recovery: fields.get("use") === "recovery" };
}

function refusalMessage(refusal: Refusal): string {
  return refusal.scope === "site"
    ? `Too many failed sign-in attempts on this site. Try again in ${waitText(refusal.retryAfter)}.`
    : `Too many failed sign-in attempts. Try again in ${waitText(refusal.retryAfter)}.`;
}

export function authRoutes(
  db: Db,
  {
    tokens,
    secure,
    allowedOrigins,
    client,
    throttle = new LoginThrottle(),
    codeThrottle = new LoginThrottle(),
    onSignIn,
  }: AuthOptions,
) {
  /** The session cookie (and the challenge's end): to /admin for a form, the user for a script. */
  async function signedIn(
    request: Request,
    server: Server | null,
    set: { status?: number | string; headers: Record<string, string | number> },
    admin: { id: number; username: string; tokenVersion: number },
    form: boolean,
    factor?: SecondFactor,
  ): Promise<SignedIn | ""> {
    await onSignIn?.(request);
    const isSecure = secure(request, server);
    (set.headers as Record<string, string | string[]>)["set-cookie"] = [
      sessionCookie(await tokens.sign(admin), { maxAge: SESSION_DAYS * 24 * 60 * 60, secure: isSecure }),
      challengeCookie("", { secure: isSecure }),
    ];
    if (form) {
      // The admin home says how many recovery codes are left, whichever way the sign-in came.
      set.status = 303;
      set.headers.location = "/admin";
      return "";
    }
    const user = { id: admin.id, username: admin.username };
    if (factor !== "recovery") return { user };
    return { user, recoveryCodesLeft: (await recoveryCodeState(db, admin.id))?.left ?? 0 };
  }

  return (
    new Elysia({ name: "auth" })
      // Whatever the auth routes answer, errors included, is about one person's session.
      .onRequest(({ request, set }) => {
        if (isUnder(AUTH_PATH, request.url)) set.headers["cache-control"] = "no-store";
      })
      .post(
        LOGIN_PATH,
        async ({ body, request, set, server }) => {
          refuseForeign(request, allowedOrigins(request, server));
          const { form, username, password } = body as LoginBody;
          // A form without JavaScript goes back to the sign-in page, never to a JSON answer;
          // the page shows the failure from its code. Nothing typed is put in the address.
          const back = (failure: LoginFailure, wait?: number) => {
            set.status = 303;
            set.headers.location = `/admin-login?error=${failure}${wait ? `&wait=${wait}` : ""}`;
            return "";
          };
          if (form && checkSchema(LoginInput, { username, password }).length > 0) return back(LOGIN_FAILURE.missing);

          // The attempt is reserved before the slow password check, so parallel guesses
          // beyond the limit are refused without being checked.
          const attempt = await throttle.begin(client(request, server).address);
          if (!attempt.allowed) {
            set.headers["retry-after"] = String(attempt.retryAfter);
            if (form) return back(LOGIN_FAILURE.throttled, attempt.retryAfter);
            throw new HttpError(429, refusalMessage(attempt));
          }
          let admin: Awaited<ReturnType<typeof verifyLogin>>;
          try {
            admin = await verifyLogin(db, username, password);
          } catch (error) {
            attempt.fail();
            throw error;
          }
          if (!admin) {
            attempt.fail();
            if (form) return back(LOGIN_FAILURE.credentials);
            throw new HttpError(401, "Invalid username or password");
          }
          await attempt.succeed();
          if (await twoFactorEnabled(db, admin.id)) {
            // The password alone never opens a session: the answer is a short-lived
            // challenge, good only for the code step, in a cookie scripts cannot read.
            set.headers["set-cookie"] = challengeCookie(await openChallenge(db, tokens, admin), {
              secure: secure(request, server),
            });
            if (form) {
              set.status = 303;
              set.headers.location = CODE_STEP;
              return "";
            }
            return { codeRequired: true };
          }
          return signedIn(request, server, set, admin, form);
        },
        { parse: loginBody },
      )
      .post(
        "/api/auth/login/code",
        async ({ body, request, set, server }) => {
          refuseForeign(request, allowedOrigins(request, server));
          const { form, code, recovery } = body as CodeBody;
          // The address keeps the page's own order of its values (error, wait, step, use).
          const back = (failure: LoginFailure, wait?: number) => {
            set.status = 303;
            set.headers.location =
              failure === LOGIN_FAILURE.expired
                ? `/admin-login?error=${failure}`
                : `/admin-login?error=${failure}${wait ? `&wait=${wait}` : ""}&step=code${recovery ? "&use=recovery" : ""}`;
            return "";
          };
          const ended = () => {
            if (form) return back(LOGIN_FAILURE.expired);
            throw new HttpError(401, CHALLENGE_ENDED);
          };
          const challenge = await challengeAdmin(db, tokens, request);
          if (!challenge) return ended();
          if (form && checkSchema(CodeInput, { code }).length > 0) return back(LOGIN_FAILURE.code);
          const attempt = await codeThrottle.begin(client(request, server).address);
          if (!attempt.allowed) {
            set.headers["retry-after"] = String(attempt.retryAfter);
            if (form) return back(LOGIN_FAILURE.throttled, attempt.retryAfter);
            throw new HttpError(429, refusalMessage(attempt));
          }
          // One code at a time is checked with a challenge, and a right one uses it up: a
          // replayed or raced cookie finds it taken and spends no code.
          if (!(await claimChallenge(db, challenge))) {
            attempt.fail();
            return ended();
          }
          let factor: SecondFactor | null = null;
          try {
            factor = await spendSecondFactor(db, challenge.id, code);
          } finally {
            if (factor) await attempt.succeed();
            else attempt.fail();
            await settleChallenge(db, challenge, { used: factor !== null });
          }
          if (!factor) {
            if (form) return back(LOGIN_FAILURE.code);
            throw new HttpError(401, wrongCodeMessage(code));
          }
          return signedIn(request, server, set, challenge, form, factor);
        },
        { parse: codeBody },
      )
      .post("/api/auth/logout", async ({ request, set, server }) => {
        refuseForeign(request, allowedOrigins(request, server));
        const admin = await sessionAdmin(db, tokens, request);
        // Signing out ends the session on the server too: a copied cookie stops working.
        if (admin) await endSessions(db, admin.id);
        set.headers["set-cookie"] = sessionCookie("", { maxAge: 0, secure: secure(request, server) });
        return { message: "Logged out" };
      })
      .get("/api/auth/me", async ({ request }) => {
        const admin = await sessionAdmin(db, tokens, request);
        return admin ? { isAdmin: true, user: { id: admin.id, username: admin.username } } : { isAdmin: false };
      })
  );
}
