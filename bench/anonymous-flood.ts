// `bun bench/anonymous-flood.ts`: what anonymous GETs can make the compiled executable write.
// Each flood runs 10 s of wrk against a fresh seeded DATA_DIR, every request a navigation with
// a User-Agent never sent before (bench/rotating-agent.lua), so hash-based counting sees each
// one as a new visitor:
//   1. /go/<slug> from one address (the attack: one client, rotating agents);
//   2. the same with a new client address on every request, through a trusted proxy
//      (TRUSTED_PROXIES=127.0.0.1 and X-Forwarded-For), to reach the ceilings for everyone;
//   3. the home page with a new referrer site and utm_source on every request.
// For each: requests answered, rows added to every table an anonymous request can add to,
// database growth (app.db and its write-ahead log) and what the admin's report counts.
// Writes bench/ANONYMOUS-FLOOD.md, or the file named by BENCH_OUT. BENCH_BINARY measures
// another build (an earlier release's dist/cam-guide); BENCH_FLOODS=1,3 runs only those floods;
// BENCH_PORT (default 4710), BENCH_DURATION (10s) and BENCH_CONNECTIONS (32) tune the run.

import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binary, ensureBinary, requireWrk, runWrk, spawnServer } from "./lib.ts";

const duration = process.env.BENCH_DURATION ?? "10s";
const connections = process.env.BENCH_CONNECTIONS ?? "32";
const port = Number(process.env.BENCH_PORT ?? 4710);
const base = `http://127.0.0.1:${port}`;
const script = join(import.meta.dir, "rotating-agent.lua");
const out = process.env.BENCH_OUT ?? join(import.meta.dir, "ANONYMOUS-FLOOD.md");

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** Every table a request without a session can add a row to (docs/security.md, "Anonymous writes"). */
const TABLES = ["analytics_visitors", "analytics_daily", "analytics_salts", "quiz_results", "earnings_results"];

requireWrk();
ensureBinary();

interface Server {
  proc: Bun.Subprocess;
  dataDir: string;
}

async function start(env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), "cam-guide-flood-"));
  const proc = spawnServer(port, dataDir, env);
  for (let i = 0; i < 3000; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { proc, dataDir };
    } catch {
      // not listening yet
    }
    await Bun.sleep(5);
  }
  proc.kill("SIGKILL");
  throw new Error("the server did not start");
}

async function stop({ proc, dataDir }: Server): Promise<void> {
  proc.kill("SIGTERM");
  await proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
}

function query<T>(dataDir: string, sql: string): T {
  const db = new Database(join(dataDir, "app.db"), { readonly: true });
  try {
    return db.query(sql).get() as T;
  } finally {
    db.close();
  }
}

interface Snapshot {
  rows: Record<string, number>;
  bytes: number;
  /** What the admin's report sums for the flood's metric (clicks or page views), and of it over the limits. */
  counted: number;
  overLimit: number;
  referrers: number;
}

function snapshot(dataDir: string, metric: string): Snapshot {
  const file = join(dataDir, "app.db");
  const rows = Object.fromEntries(
    TABLES.map((table) => [table, query<{ n: number }>(dataDir, `SELECT count(*) AS n FROM ${table}`).n]),
  );
  const sum = (where: string) =>
    query<{ n: number | null }>(dataDir, `SELECT sum(count) AS n FROM analytics_daily WHERE ${where}`).n ?? 0;
  return {
    rows,
    bytes: [file, `${file}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0),
    counted: sum(`metric = '${metric}'`),
    overLimit: sum(`metric = '${metric}' AND key = '(over the limit)'`),
    referrers: query<{ n: number }>(dataDir, "SELECT count(*) AS n FROM analytics_daily WHERE metric = 'referrer'").n,
  };
}

/** A managed link of the seeded site, read from its database. */
function someLink(dataDir: string): string {
  return query<{ slug: string }>(dataDir, "SELECT slug FROM links ORDER BY slug LIMIT 1").slug;
}

interface Flood {
  name: string;
  env: Record<string, string>;
  path: (server: Server) => string;
  flags: Record<string, string>;
}

const floods: Flood[] = [
  {
    name: "`/go/<slug>`, one address, a new User-Agent per request",
    env: {},
    path: (server) => `/go/${someLink(server.dataDir)}?p=footer`,
    flags: {},
  },
  {
    name: "`/go/<slug>`, a new address (X-Forwarded-For, trusted proxy) and User-Agent per request",
    env: { TRUSTED_PROXIES: "127.0.0.1" },
    path: (server) => `/go/${someLink(server.dataDir)}?p=footer`,
    flags: { FLOOD_ADDRESSES: "1" },
  },
  {
    name: "`/`, one address, a new User-Agent, referrer site and utm_source per request",
    env: {},
    path: () => "/",
    flags: { FLOOD_REFERRERS: "1" },
  },
];

const lines: string[] = [
  "# Writes anonymous GETs can cause",
  "",
  `Measured by \`bun bench/anonymous-flood.ts\` on ${new Date().toISOString().slice(0, 10)} with \`${binary.replace(`${join(import.meta.dir, "..")}/`, "")}\`: a fresh seeded DATA_DIR per flood, wrk -t2 -c${connections} -d${duration} on 127.0.0.1 with bench/rotating-agent.lua, ${navigator.hardwareConcurrency} cores shared by the server and wrk. Rows and bytes are what the flood added (counts are written once a second: read 2.5 s after it ends).`,
  "",
  "| flood | requests (per second) | visitor-day rows | daily-count rows | other rows | database growth | clicks / page views counted | of which over the limit | referrer rows |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];

const only = process.env.BENCH_FLOODS?.split(",").map(Number);
for (const [index, flood] of floods.entries()) {
  if (only && !only.includes(index + 1)) continue;
  const server = await start(flood.env);
  try {
    const path = flood.path(server);
    // The first visit makes the day's salt: not part of what the flood adds.
    await (await fetch(base + path, { redirect: "manual", headers: { "user-agent": BROWSER } })).arrayBuffer();
    await Bun.sleep(1500);
    const metric = path.startsWith("/go/") ? "click" : "pageview";
    const before = snapshot(server.dataDir, metric);
    const run = runWrk(base + path, { connections, duration, script, env: flood.flags });
    await Bun.sleep(2500);
    const after = snapshot(server.dataDir, metric);
    const added = (table: string) => (after.rows[table] ?? 0) - (before.rows[table] ?? 0);
    const others = ["analytics_salts", "quiz_results", "earnings_results"].reduce((n, t) => n + added(t), 0);
    lines.push(
      `| ${flood.name} | ${run.requests} (${run.rps.toFixed(0)}) | ${added("analytics_visitors")} | ${added("analytics_daily")} | ${others} | ${((after.bytes - before.bytes) / 1024 / 1024).toFixed(2)} MB | ${after.counted - before.counted} | ${after.overLimit - before.overLimit} | ${after.referrers - before.referrers} |`,
    );
  } finally {
    await stop(server);
  }
}
lines.push("");

writeFileSync(out, lines.join("\n"));
console.log(lines.join("\n"));
