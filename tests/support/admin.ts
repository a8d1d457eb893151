import { type TestAppOptions, testApp } from "./app.ts";
import { ADMIN, createAdmin } from "./factories.ts";

export { ADMIN };

/** The headers of a request from this site's own pages (what the admin UI sends). */
export const SAME_ORIGIN = { origin: "http://localhost" } as const;

/** The real app with an admin account and a signed-in session cookie. */
export async function adminApp(options: TestAppOptions = {}) {
  const t = testApp(options);
  await createAdmin(t.db);
  const cookie = await login(t.request);
  /** A request as the signed-in admin from this site. */
  const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    headers.set("cookie", cookie);
    headers.set("origin", SAME_ORIGIN.origin);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    return t.request(path, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
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
