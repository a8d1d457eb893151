// `bun bench/cache-abuse.ts`: what cheap requests cost the compiled executable, on a fresh
// seeded DATA_DIR, with wrk on 127.0.0.1 (Debian's `wrk`). Writes bench/COST-RESULTS.md.
//   1. requests/s for a cached page asked with the same address, and with a query string
//      never seen before on every request; for comparison, a value the page does read, or a
//      path, never seen before (both with bench/unique-value.lua); and how long a cached page
//      waits while new searches flood the blog;
//   2. whether real pages stay cached (x-cache) after a flood of unique query strings, and
//      after a flood of saved quiz results' pages;
//   3. anonymous writes from one client: accepted rows per second and database growth, with
//      the default configuration.
// BENCH_SKIP_BUILD=1 reuses dist/cam-guide; BENCH_PORT (default 4700), BENCH_DURATION (10s),
// BENCH_CONNECTIONS (32) and BENCH_FLOOD (3000 addresses per flood) tune the run.

import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, requireWrk, runWrk, spawnServer, type WrkRun } from "./lib.ts";

const _root = join(import.meta.dir, "..");
const duration = process.env.BENCH_DURATION ?? "10s";
const connections = process.env.BENCH_CONNECTIONS ?? "32";
const port = Number(process.env.BENCH_PORT ?? 4700);
const flood = Number(process.env.BENCH_FLOOD ?? 3000);
const base = `http://127.0.0.1:${port}`;
const uniqueValueScript = join(import.meta.dir, "unique-value.lua");
const postScript = join(import.meta.dir, "post.lua");

requireWrk();
ensureBinary();

interface Server {
  proc: Bun.Subprocess;
  dataDir: string;
}

async function start(env: Record<string, string> = {}): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), "cam-guide-cost-"));
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

function wrk(path: string, script?: string): WrkRun {
  return runWrk(base + path, { connections, duration, script });
}

/** Runs `count` tasks with at most `concurrency` in flight. */
async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const REAL_PAGES = [
  "/",
  "/learn-more",
  "/quiz",
  "/learn",
  "/learn/1",
  "/learn/2",
  "/resources",
  "/blog",
  "/blog/platform-reviews",
  "/quiz/result?archetype=Girl%20Next%20Door",
];

async function warm(): Promise<void> {
  for (const path of REAL_PAGES) await (await fetch(base + path)).arrayBuffer();
}

/** How many of the real pages answer from the cache. */
async function stillCached(): Promise<number> {
  let hits = 0;
  for (const path of REAL_PAGES) {
    const res = await fetch(base + path);
    await res.arrayBuffer();
    if (res.headers.get("x-cache") === "hit") hits++;
  }
  return hits;
}

function peakMemoryMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

const QUIZ = readFileSync(postScript, "utf8").match(/'(.+)'/)![1]!;
const postQuiz = () =>
  fetch(`${base}/api/quiz/result`, { method: "POST", headers: { "content-type": "application/json" }, body: QUIZ });

const lines: string[] = [
  "# What cheap requests cost",
  "",
  `Measured by \`bun bench/cache-abuse.ts\` on ${new Date().toISOString().slice(0, 10)}: the compiled executable on a fresh seeded DATA_DIR, wrk -t2 -c${connections} -d${duration} on 127.0.0.1, ${navigator.hardwareConcurrency} cores shared by the server and wrk.`,
  "",
];

// 1 and 2: the page cache, with writes unlimited so the floods of results can be made.
let server = await start({ WRITE_LIMIT: "off" });
try {
  await warm();
  const rows: string[] = [];
  for (const path of ["/", "/blog"]) {
    wrk(path); // warm-up of the connection path
    const same = wrk(path);
    const unique = wrk(`${path}?x=`, uniqueValueScript);
    rows.push(
      `| \`${path}\` | ${same.rps.toFixed(0)} (p99 ${same.p99}) | ${unique.rps.toFixed(0)} (p99 ${unique.p99}) | ${(same.rps / unique.rps).toFixed(1)}× |`,
    );
  }
  lines.push(
    "| page | same address, requests/s | unique query string per request, requests/s | slowdown |",
    "| --- | ---: | ---: | ---: |",
    ...rows,
    "",
  );
  const valueRows: string[] = [];
  for (const [what, path] of [
    ["a made-up blog category", "/blog?category=x"],
    ["a made-up quiz flag on a module", "/learn/1?quiz=x"],
    ["a module number that is no number", "/learn/module-complete?moduleId=1"],
    ["an unknown path (404)", "/no-such-page-"],
  ] as const) {
    const unique = wrk(path, uniqueValueScript);
    valueRows.push(`| ${what} | \`${path}<unique>\` | ${unique.rps.toFixed(0)} (p99 ${unique.p99}) |`);
  }
  lines.push(
    "For comparison, a value the page does read (or a path) never seen before on every request:",
    "",
    "| what | address | requests/s |",
    "| --- | --- | ---: |",
    ...valueRows,
    "",
  );

  // A cached page while a flood of new searches runs: searches take turns, so the page waits
  // for one search at most, not for every search queued.
  const searches = Bun.spawn(
    ["wrk", "-t2", `-c${connections}`, `-d${duration}`, "-s", uniqueValueScript, `${base}/blog?q=cam+pla+str+tok+lig`],
    { stdout: "pipe" },
  );
  await Bun.sleep(1000);
  const waits: number[] = [];
  while (searches.exitCode === null && waits.length < 60) {
    const asked = performance.now();
    await (await fetch(`${base}/`)).arrayBuffer();
    waits.push(performance.now() - asked);
    await Bun.sleep(100);
  }
  const searched = Number(/Requests\/sec:\s+([\d.]+)/.exec(await new Response(searches.stdout).text())?.[1] ?? 0);
  waits.sort((a, b) => a - b);
  lines.push(
    `The cached home page, asked every 100 ms while ${connections} connections ask for new searches (\`/blog?q=cam+pla+str+tok+lig<unique>\`, ${searched.toFixed(0)} answered a second):`,
    "",
    "| answers | median | slowest |",
    "| ---: | ---: | ---: |",
    `| ${waits.length} | ${waits[Math.floor(waits.length / 2)]?.toFixed(1)} ms | ${waits.at(-1)?.toFixed(1)} ms |`,
    "",
  );

  await warm();
  const before = await stillCached();
  await pool(flood, 16, async (i) => {
    await (await fetch(`${base}/?flood=${i}&utm_source=${i}`)).arrayBuffer();
  });
  const afterQueries = await stillCached();

  await warm();
  const ids: string[] = [];
  await pool(flood, 16, async () => {
    const res = await postQuiz();
    if (res.status === 201) ids.push(((await res.json()) as { id: string }).id);
    else await res.arrayBuffer();
  });
  await pool(ids.length, 16, async (i) => {
    await (await fetch(`${base}/quiz/result?archetype=Girl%20Next%20Door&id=${ids[i]}`)).arrayBuffer();
  });
  const afterResults = await stillCached();
  lines.push(
    `Real pages answered from the cache (x-cache: hit), out of ${REAL_PAGES.length}:`,
    "",
    "| when | cached |",
    "| --- | ---: |",
    `| warmed, before any flood | ${before} |`,
    `| after ${flood} requests for \`/\` with unique query strings | ${afterQueries} |`,
    `| after the pages of ${ids.length} saved quiz results | ${afterResults} |`,
    "",
    `Peak memory of the server (VmHWM) after the floods: ${peakMemoryMb(server.proc.pid).toFixed(0)} MB.`,
    "",
  );
} finally {
  await stop(server);
}

// 3: anonymous writes from one client, default configuration.
server = await start();
try {
  const dbFile = join(server.dataDir, "app.db");
  const size = () => [dbFile, `${dbFile}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
  const count = () => {
    const db = new Database(dbFile, { readonly: true });
    try {
      return (db.query("SELECT count(*) AS n FROM quiz_results").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const burst: Record<number, number> = {};
  let retryAfter: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await postQuiz();
    await res.arrayBuffer();
    burst[res.status] = (burst[res.status] ?? 0) + 1;
    retryAfter ??= res.headers.get("retry-after");
  }
  const rowsBefore = count();
  const sizeBefore = size();
  const posts = wrk("/api/quiz/result", postScript);
  const seconds = Number.parseFloat(duration);
  const rowsAfter = count();
  const growth = size() - sizeBefore;
  lines.push(
    "Anonymous writes from one client (POST /api/quiz/result), default configuration:",
    "",
    "| measure | value |",
    "| --- | ---: |",
    `| 100 posts one after another | ${Object.entries(burst)
      .map(([status, n]) => `${n}× ${status}`)
      .join(", ")}${retryAfter ? ` (Retry-After: ${retryAfter})` : ""} |`,
    `| wrk, answers/s | ${posts.rps.toFixed(0)} (${posts.non2xx} of ${posts.requests} refused) |`,
    `| rows written during the wrk run, per second | ${((rowsAfter - rowsBefore) / seconds).toFixed(1)} |`,
    `| database growth during the wrk run (app.db + WAL), per second | ${(growth / seconds / 1024).toFixed(1)} KB |`,
    "",
  );
} finally {
  await stop(server);
}

writeFileSync(join(import.meta.dir, "COST-RESULTS.md"), lines.join("\n"));
console.log(lines.join("\n"));
