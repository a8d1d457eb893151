import { Secret, TOTP } from "otpauth";
import { databaseImage } from "#server/db/client.ts";
import { type TestApp, type TestAppOptions, testApp } from "./app.ts";
import { ADMIN, createAdmin } from "./factories.ts";

export { ADMIN };

/** A route of the admin pages' typed client (`adminApi.blog.posts`): its path is `route["~path"]`. */
type Route = { "~path": string };

/** "POST /api/admin/blog/post": how tests write down a request they saw, for a route of the client. */
export const requestLine = (method: string, route: Route) => `${method} ${route["~path"]}`;

/** The headers of a request from this site's own pages (what the admin UI sends). */
export const SAME_ORIGIN = { origin: "http://localhost" } as const;

/**
 * The real app with an admin account and a signed-in session cookie. `cookie` is the one
 * the sign-in gave; `asAdmin` goes on with the fresh one an answer sets, as a browser does
 * (a change to how the admin signs in ends every other session and renews this one).
 */
export async function adminApp(options: TestAppOptions = {}) {
  const t = testApp(options);
  await createAdmin(t.db);
  return signedIn(t, await login(t.request));
}

type AdminApp = Awaited<ReturnType<typeof adminApp>>;

function signedIn(t: TestApp, cookie: string) {
  let current = cookie;
  /** A request as the signed-in admin from this site, to a path or a route of the admin client. */
  const asAdmin = async (to: string | Route, init: RequestInit & { json?: unknown } = {}) => {
    const path = typeof to === "string" ? to : to["~path"];
    const headers = new Headers(init.headers);
    headers.set("cookie", current);
    headers.set("origin", SAME_ORIGIN.origin);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    const res = await t.request(path, {
      ...init,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
    const renewed = res.headers.getSetCookie().find((c) => c.startsWith("cg_session=") && !c.includes("Max-Age=0"));
    if (renewed) current = renewed.split(";")[0]!;
    return res;
  };
  return { ...t, cookie, asAdmin };
}

/**
 * For a table of cases that each need the same prepared site: `prepare` runs once on a
 * signed-in admin app, and each call of the answer is a fresh app on a copy of its database,
 * signed in with the same session (a copy holds the same admin and token version, and every
 * test app the same secret), so no case sees another's writes and none pays for a sign-in.
 * `prepare` must not change how the admin signs in.
 */
export async function adminAppCopies(
  prepare: (t: AdminApp) => Promise<void>,
  options: TestAppOptions = {},
): Promise<() => AdminApp> {
  const template = await adminApp(options);
  await prepare(template);
  const image = databaseImage(template.database);
  return () => signedIn(testApp({ ...options, image }), template.cookie);
}

/** Signs in through the real login endpoint and answers the session cookie (`name=value`). */
export async function login(
  request: (path: string, init?: RequestInit) => Promise<Response>,
  creds = ADMIN,
): Promise<string> {
  const res = await request("/api/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", ...SAME_ORIGIN },
    body: JSON.stringify(creds),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

/** The authenticator app's code for `secret`, `offset` 30-second steps from now. */
export function codeAt(secret: string, offset = 0): string {
  return new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offset * 30_000,
  });
}

/**
 * Turns two-factor sign-in on through the API, as the signed-in admin, with the code of the
 * step before now (so the current step's code is still unused); answers the secret and the
 * recovery codes. Never across a step's edge: the server would read that code as two steps old.
 */
export async function enrolTwoFactor(asAdmin: Awaited<ReturnType<typeof adminApp>>["asAdmin"]) {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3_000) await Bun.sleep(left + 50);
  const start = await asAdmin("/api/admin/account/two-factor/start", { method: "POST", json: {} });
  const { secret } = (await start.json()) as { secret: string };
  const confirm = await asAdmin("/api/admin/account/two-factor/confirm", {
    method: "POST",
    json: { currentPassword: ADMIN.password, code: codeAt(secret, -1) },
  });
  const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}
