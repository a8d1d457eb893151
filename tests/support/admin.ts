import { type TestAppOptions, testApp } from "./app.ts";
import { ADMIN, createAdmin } from "./factories.ts";

export { ADMIN };

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
  const cookie = await login(t.request);
  let current = cookie;
  /** A request as the signed-in admin from this site. */
  const asAdmin = async (path: string, init: RequestInit & { json?: unknown } = {}) => {
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
