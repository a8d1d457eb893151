// Two-factor sign-in as a client does it: the password step, the code step, enrolment. Used by
// the API tests (app.request) and the adversarial suite (fetch against the executable).
import { expect } from "bun:test";
import { Secret, TOTP } from "otpauth";
import { ADMIN } from "./factories.ts";

type Request = (path: string, init?: RequestInit) => Promise<Response>;

/** A code of `secret` for the step `offset` steps from now (-1, 0, 1 are all accepted once). */
export function codeAt(secret: string, offset = 0): string {
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offset * 30_000 });
}

/**
 * Waits out a step's last 3 s: a code of the step before now, checked by the server in the
 * next step, would be two steps old (on a busy machine a request can take that long).
 */
export async function clearOfStepEdge(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3_000) await Bun.sleep(left + 50);
}

/** The `name=value` of a cookie an answer sets (not one it ends), or null. */
export function cookieOf(res: Response, name: string): string | null {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`) && !c.includes("Max-Age=0"));
  return set?.split(";")[0] ?? null;
}

/**
 * The sign-in and Account calls of one site, from its own origin. `headers` go with every
 * request (a client address through a trusted proxy, say).
 */
export function twoFactorClient(request: Request, origin: string, credentials = ADMIN) {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(path, {
      method: "POST",
      headers: { "content-type": "application/json", origin, ...headers },
      body: JSON.stringify(body),
    });

  /** The password step with two-factor on: the challenge cookie, never a session. */
  async function passwordStep(headers: Record<string, string> = {}): Promise<string> {
    const res = await post("/api/auth/login", credentials, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ codeRequired: true });
    expect(cookieOf(res, "cg_session")).toBeNull();
    return cookieOf(res, "cg_2fa")!;
  }

  /** The code step with a challenge cookie (`cg_2fa=…`). */
  const codeStep = (challenge: string, code: string, headers: Record<string, string> = {}) =>
    post("/api/auth/login/code", { code }, { cookie: challenge, ...headers });

  /** Signs in with the password alone (two-factor off): the session cookie. */
  async function signIn(headers: Record<string, string> = {}): Promise<string> {
    const res = await post("/api/auth/login", credentials, headers);
    expect(res.status).toBe(200);
    return cookieOf(res, "cg_session")!;
  }

  /** An admin call with a session cookie. */
  const asSession = (session: string, path: string, json?: unknown) =>
    json === undefined
      ? request(path, { headers: { cookie: session, origin } })
      : post(path, json, { cookie: session });

  /**
   * Turns two-factor on from `session` with the password and a code of the step before now (the
   * step now and the next one stay for signing in). Answers the secret, the codes and the
   * session's fresh cookie.
   */
  async function enrol(session: string) {
    const start = await asSession(session, "/api/admin/account/two-factor/start", {});
    expect(start.status).toBe(200);
    const { secret } = (await start.json()) as { secret: string };
    await clearOfStepEdge();
    const confirm = await asSession(session, "/api/admin/account/two-factor/confirm", {
      currentPassword: credentials.password,
      code: codeAt(secret, -1),
    });
    expect(confirm.status).toBe(200);
    const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
    return { secret, recoveryCodes, session: cookieOf(confirm, "cg_session")! };
  }

  return { post, passwordStep, codeStep, signIn, asSession, enrol };
}
