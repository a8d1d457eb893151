import { ensureAdmin } from "#server/features/auth/bootstrap.ts";
import { testApp } from "./app.ts";

export const ADMIN = { username: "admin", password: "correct-horse-battery" };

/** The real app with an admin account and a signed-in session cookie. */
export async function adminApp(options: Parameters<typeof testApp>[0] = {}) {
  const t = testApp(options);
  await ensureAdmin(t.database.db, ADMIN.username, ADMIN.password);
  const cookie = await login(t.request);
  /** A request as the signed-in admin from this site. */
  const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    headers.set("cookie", cookie);
    headers.set("origin", "http://localhost");
    if (init.json !== undefined) headers.set("content-type", "application/json");
    return t.request(path, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
  };
  return { ...t, cookie, asAdmin };
}

export async function login(request: (path: string, init?: RequestInit) => Promise<Response>, creds = ADMIN): Promise<string> {
  const res = await request("/api/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://localhost" },
    body: JSON.stringify(creds),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}
