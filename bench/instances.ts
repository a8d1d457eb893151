// `bun bench/instances.ts`: one instance on SQLite, one on PostgreSQL, and three on PostgreSQL
// behind a small round-robin proxy (bench/round-robin.ts), side by side. For each: POST
// /api/quiz/result (each request a visitor of its own), a blog post served from the page cache,
// and the same post rendered on every request (/__bench/render). wrk from Debian's packages;
// PostgreSQL is the throwaway cluster the tests use (tests/support/postgres.ts). Everything runs
// on this machine, wrk and the proxy included: read the ratios, and what the last column says
// limits each figure. BENCH_DURATION (default 8s), BENCH_CONNECTIONS (default 16).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { content } from "#server/db/content.ts";
import { emptyDatabase, startCluster } from "#tests/support/postgres.ts";
import { ensureBinary, requireWrk, runWrk, spawnServer, type WrkRun } from "./lib.ts";

const duration = process.env.BENCH_DURATION ?? "8s";
const connections = process.env.BENCH_CONNECTIONS ?? "16";
const script = join(import.meta.dir, "post-visitor.lua");
const post = `/blog/${content.blogPosts[0]!.slug}`;
const JWT_SECRET = "bench-secret-bench-secret-bench-secret-0123";

async function up(base: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`${base} did not start`);
    await Bun.sleep(100);
  }
}

/** bench/round-robin.ts in a process of its own (wrk blocks this one while it runs). */
async function roundRobin(backends: string[], port: number) {
  const proxy = Bun.spawn(["bun", join(import.meta.dir, "round-robin.ts")], {
    env: { ...process.env, BACKENDS: backends.join(","), PROXY_PORT: String(port) },
    stdout: "ignore",
    stderr: "inherit",
  });
  await up(`http://127.0.0.1:${port}`);
  return { port, stop: () => proxy.kill("SIGTERM") };
}

interface Setup {
  name: string;
  limit: string;
  start(): Promise<{ base: string; stop(): Promise<void> }>;
}

const env = { WRITE_LIMIT: "off", CAM_GUIDE_BENCH: "1" };

interface Database {
  env: Record<string, string>;
  drop?: () => Promise<void>;
}

function instances(count: number, extra: () => Promise<Database>) {
  return async () => {
    const { env: more, drop } = await extra();
    const dirs = Array.from({ length: count }, () => mkdtempSync(join(tmpdir(), "cam-guide-instances-")));
    const ports = dirs.map((_, i) => 5720 + i);
    const servers = dirs.map((dir, i) =>
      spawnServer(ports[i]!, dir, { ...env, ...more, ...(count > 1 ? { TRUSTED_PROXIES: "127.0.0.1" } : {}) }),
    );
    const bases = ports.map((port) => `http://127.0.0.1:${port}`);
    // One after the other: the first migrates and seeds, the others find it done.
    for (const base of bases) await up(base);
    const proxy = count > 1 ? await roundRobin(bases, 5719) : null;
    return {
      base: proxy ? `http://127.0.0.1:${proxy.port}` : bases[0]!,
      async stop() {
        proxy?.stop();
        for (const server of servers) server.kill("SIGTERM");
        await Promise.all(servers.map((server) => server.exited));
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
        await drop?.();
      },
    };
  };
}

requireWrk();
ensureBinary();
const cluster = startCluster();
process.env.TEST_POSTGRES_URL = cluster.url();
const postgres = async () => {
  const database = await emptyDatabase("bench");
  return { env: { DATABASE_URL: database.url, JWT_SECRET }, drop: database.drop };
};
const setups: Setup[] = [
  {
    name: "1 instance, SQLite",
    limit: "one process: its event loop and SQLite's single writer",
    start: instances(1, async () => ({ env: {} })),
  },
  {
    name: "1 instance, PostgreSQL",
    limit: "one process's event loop; each query a round trip",
    start: instances(1, postgres),
  },
  {
    name: "3 instances, PostgreSQL, round-robin proxy",
    limit: "two cores shared by wrk, the proxy, three servers and PostgreSQL",
    start: instances(3, postgres),
  },
];

const rows: { setup: Setup; write: WrkRun; cached: WrkRun; rendered: WrkRun }[] = [];
try {
  for (const setup of setups) {
    const site = await setup.start();
    try {
      const measure = (path: string, lua?: string) => {
        runWrk(`${site.base}${path}`, { connections, duration: "2s", script: lua });
        return runWrk(`${site.base}${path}`, { connections, duration, script: lua });
      };
      const write = measure("/api/quiz/result", script);
      const cached = measure(post);
      const rendered = measure(`/__bench/render?path=${encodeURIComponent(post)}`);
      rows.push({ setup, write, cached, rendered });
      console.error(`measured: ${setup.name}`);
    } finally {
      await site.stop();
    }
  }
} finally {
  cluster.stop();
}

const cell = (run: WrkRun) =>
  `${Math.round(run.rps).toLocaleString("en-US")} (p99 ${run.p99}${run.non2xx ? `, ${run.non2xx} non-2xx` : ""})`;
console.log(`${connections} connections, ${duration} each after a 2 s warm-up (wrk, WRITE_LIMIT=off), requests/s\n`);
console.log("| Setup | POST /api/quiz/result | Post page, cached | Post page, rendered per request | What limits it |");
console.log("|---|---|---|---|---|");
for (const { setup, write, cached, rendered } of rows)
  console.log(`| ${setup.name} | ${cell(write)} | ${cell(cached)} | ${cell(rendered)} | ${setup.limit} |`);
