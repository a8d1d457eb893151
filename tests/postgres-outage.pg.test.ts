// The executable on PostgreSQL while the database server is stopped (an upgrade, a restart, a
// failover): requests that need it answer 503 with Retry-After, never a 500; cached pages still
// answer; the log names the cause in one line; and once the server is back, so is the site,
// without a restart. On a cluster of its own, which this file stops. Run by `bun run test:postgres`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import postgres from "postgres";
import { ensureBuilt, type Running, startServer, stopServer } from "./support/binary.ts";
import { startCluster, type TestCluster } from "./support/postgres.ts";
import { scratchDir } from "./support/scratch.ts";

let cluster: TestCluster;
let site: Running;
let output = "";

beforeAll(async () => {
  ensureBuilt();
  cluster = startCluster();
  const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
  await admin.unsafe("CREATE DATABASE site");
  await admin.end();
  site = await startServer(scratchDir("pg-outage"), {
    DATABASE_URL: cluster.url("site"),
    JWT_SECRET: "pg-outage-secret-pg-outage-secret-0123456",
  });
  void (async () => {
    for await (const chunk of site.proc.stderr) output += new TextDecoder().decode(chunk);
  })();
  void (async () => {
    for await (const chunk of site.proc.stdout) output += new TextDecoder().decode(chunk);
  })();
});

afterAll(async () => {
  await stopServer(site);
  cluster.stop();
});

test("while the database is stopped: 503 with Retry-After, cached pages still served; back by itself after", async () => {
  // A page read once is kept; the blog is left unread so that it needs the database.
  expect((await fetch(`${site.url}/quiz`)).status).toBe(200);
  cluster.halt!();
  try {
    const health = await fetch(`${site.url}/healthz`);
    expect(health.status).toBe(503);
    for (const path of ["/blog", "/api/blog/posts"]) {
      const res = await fetch(`${site.url}${path}`);
      expect([path, res.status, res.headers.get("retry-after")]).toEqual([path, 503, expect.stringMatching(/^\d+$/)]);
      // The page is the site's error page ("try again in a moment"); the API names the cause.
      expect(await res.text()).toContain(
        path.startsWith("/api/") ? "database cannot be reached" : "try again in a moment",
      );
    }
    const login = await fetch(`${site.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: site.url },
      body: JSON.stringify({ username: "admin", password: "durable-password-123" }),
    });
    expect(login.status).toBe(503);
    expect((await fetch(`${site.url}/quiz`)).status).toBe(200);
    expect(output).toContain("the database cannot be reached");
    expect(output).not.toContain("Failed query");
  } finally {
    cluster.resume!();
  }
  // The pool connects again on the next request: no restart.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await fetch(`${site.url}/api/blog/posts`);
    if (res.status === 200) break;
    if (Date.now() > deadline) throw new Error(`still ${res.status} after the database came back`);
    await Bun.sleep(100);
  }
  expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
});
