// The real app listening on a real port: what tests need when the server must see a socket
// (the peer's address decides which proxy headers are believed; app.handle has no socket).
import { afterAll } from "bun:test";
import { siteApp, type TestAppOptions } from "./app.ts";
import { ADMIN, createAdmin } from "./factories.ts";
import { httpFrom, type RawRequest } from "./http-from.ts";

const running: Array<() => void> = [];
afterAll(() => {
  for (const stop of running.splice(0)) stop();
});

/** The `Origin` a page of this server sends, as the client at `from` reaches it. */
export const originFor = (port: number, from = "127.0.0.1") =>
  from.includes(":") ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`;

/**
 * A seeded-enough app (settings and the admin account) listening on "::" (IPv4 and IPv6)
 * on a free port, stopped after the file's tests.
 */
export async function listeningApp(options: Omit<TestAppOptions, "seed"> = {}) {
  const t = await siteApp(options);
  await createAdmin(t.db);
  t.app.listen({ port: 0, hostname: "::" });
  const port = t.app.server!.port!;
  running.push(() => void t.app.stop(true));
  const send = (request: RawRequest) => httpFrom(port, request);
  /** A sign-in as the page's script sends it, from `from`, with extra headers. */
  const login = (password: string, { from = "127.0.0.1", headers = {} as Record<string, string | string[]> } = {}) =>
    send({
      from,
      method: "POST",
      path: "/api/auth/login",
      headers: { "content-type": "application/json", origin: originFor(port, from), ...headers },
      body: JSON.stringify({ username: ADMIN.username, password }),
    });
  return { ...t, port, send, login };
}
