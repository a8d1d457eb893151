// The compiled executable as a running site for an adversarial suite: its output read as it
// comes (a full pipe would stall it), the admin signed in through the real sign-in, and a
// request helper that sends what the admin's pages send.
import { type Running, startServer } from "./binary.ts";

const SITE_PASSWORD = "durable-password-123";

export interface RunningSite extends Running {
  dataDir: string;
  /** Everything the server printed so far. */
  output(): string;
  /** A request as the signed-in admin from the site's own pages. */
  admin(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number>;
}

/** Starts the executable on `dataDir` with `env` and signs the admin in. */
export async function startSite(dataDir: string, env: Record<string, string> = {}): Promise<RunningSite> {
  const server = await startServer(dataDir, { ADMIN_PASSWORD: SITE_PASSWORD, ...env });
  let output = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk, { stream: true });
  };
  void drain(server.proc.stdout);
  void drain(server.proc.stderr);
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ username: "admin", password: SITE_PASSWORD }),
  });
  if (login.status !== 200) {
    server.proc.kill("SIGKILL");
    throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  }
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return {
    ...server,
    dataDir,
    output: () => output,
    admin(path, init = {}) {
      const headers = new Headers(init.headers);
      headers.set("cookie", cookie);
      headers.set("origin", server.url);
      if (init.json !== undefined) headers.set("content-type", "application/json");
      return fetch(server.url + path, {
        ...init,
        headers,
        body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      });
    },
    async stop() {
      if (server.proc.exitCode === null) server.proc.kill("SIGTERM");
      return server.proc.exited;
    },
  };
}
