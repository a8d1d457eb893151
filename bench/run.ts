// `bun run bench`: starts the compiled executable on a fresh seeded DATA_DIR and measures,
// in one run, with wrk on 127.0.0.1 (Debian's `wrk`):
//   requests/s and p99 for /, a blog post, /learn/1, a quiz result page and POST /api/quiz/result;
//   the same bytes served from memory by the same executable (the ceiling) and each page's ratio;
//   the home page and a post rendered without the cache; peak memory (VmHWM); time from start to
//   the first 200, on an empty DATA_DIR and again on the seeded one; the JavaScript each page
//   loads (bytes, gzipped); and each target below, met or not. Writes bench/RESULTS.md.
//   BENCH_SERVER_ENV="NAME=value ..." runs the server with those settings too (say, a runtime option).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsFloor } from "./js-floor.ts";
import { ensureBinary, requireWrk, runWrk, spawnServer } from "./lib.ts";
import { pageJavaScript } from "./page-js.ts";

const root = join(import.meta.dir, "..");
const duration = process.env.BENCH_DURATION ?? "10s";
const connections = process.env.BENCH_CONNECTIONS ?? "50";
const port = Number(process.env.BENCH_PORT ?? 4610);
const base = `http://127.0.0.1:${port}`;
const postScript = join(import.meta.dir, "post.lua");

requireWrk();
ensureBinary();

const dataDir = mkdtempSync(join(tmpdir(), "cam-guide-bench-"));
const started = performance.now();
const serverEnv = {
  CAM_GUIDE_BENCH: "1",
  // POST /api/quiz/result is measured for its speed: from one client the write limit would
  // answer nearly all of them 429 (bench/cache-abuse.ts measures the limit).
  WRITE_LIMIT: "off",
  // As a deployed site: its canonical links and social tags are absolute.
  PUBLIC_URL: base,
  // An operator's own settings for the runtime, to measure them: BENCH_SERVER_ENV="NAME=value ...".
  ...Object.fromEntries(
    (process.env.BENCH_SERVER_ENV ?? "")
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  ),
};
let server = spawnServer(port, dataDir, serverEnv);

/** The targets the pages are held to (docs/decisions/089-cheaper-renders-and-cached-answers.md). */
const TARGET = {
  cachedShare: 0.95,
  postRenderShare: 0.5,
  contentJsKb: 70,
  funnelJsKb: 80,
  peakMemoryMb: 120,
  startMs: 120,
};
/** Pages of the quiz and the earnings estimate, with their results: held to the funnel's budget. */
const FUNNEL_PAGES = new Set(["quiz", "quiz-result", "tier-result", "earnings", "starter-kit"]);

async function firstOk(started: number): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(`${base}/`)).status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await Bun.sleep(5);
  }
}

function peakMemoryMb(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

interface Result {
  name: string;
  path: string;
  rps: number;
  p99: string;
  non2xx: number;
}

function wrk(name: string, path: string, script?: string): Result {
  // A short warm-up, then the measured run.
  runWrk(base + path, { connections, duration: "2s", script });
  const { rps, p99, non2xx } = runWrk(base + path, { connections, duration, script });
  return { name, path, rps, p99, non2xx };
}

// Lighthouse is not a devDependency (it would bring ~190 packages into every install for
// one table): `bun x` fetches this exact version into Bun's cache the first time the
// benchmark runs, and reuses it after.
const LIGHTHOUSE = "lighthouse@12.8.2";
let lighthouseWarned = false;

/** Lighthouse (npm) in Debian's Chromium with its default mobile settings: category scores. */
function lighthouse(path: string): Record<string, number> | null {
  const out = join(dataDir, "lighthouse.json");
  const result = Bun.spawnSync(
    [
      "bun",
      "x",
      "--bun",
      LIGHTHOUSE,
      base + path,
      "--quiet",
      "--only-categories=performance,accessibility,best-practices,seo",
      "--form-factor=mobile",
      "--output=json",
      `--output-path=${out}`,
      "--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run",
    ],
    {
      env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
      stdout: "ignore",
      stderr: "pipe",
    },
  );
  if (result.exitCode !== 0) {
    if (!lighthouseWarned) {
      lighthouseWarned = true;
      const why = result.stderr.toString().trim().split("\n").slice(-5).join("\n");
      console.error(
        `Lighthouse did not run: \`bun x ${LIGHTHOUSE}\` needs the npm registry the first time, and Chromium at CHROMIUM_PATH or /usr/bin/chromium. Its rows say "did not run".\n${why}`,
      );
    }
    return null;
  }
  const report = JSON.parse(readFileSync(out, "utf8")) as { categories: Record<string, { score: number }> };
  return Object.fromEntries(Object.entries(report.categories).map(([k, v]) => [k, Math.round(v.score * 100)]));
}

/** The entry module and every module the page preloads, gzipped as served (the build's .gz files). */
function pageJs(html: string): number {
  const files = [
    ...html.matchAll(/<(?:link rel="modulepreload"[^>]*href|script type="module" src)="(\/assets\/[^"]+\.js)"/g),
  ].map((m) => m[1]!);
  return [...new Set(files)].reduce(
    (sum, file) => sum + readFileSync(join(root, "dist", "client", `${file}.gz`)).length,
    0,
  );
}

try {
  const startup = await firstOk(started);
  const body = /'(.+)'/.exec(readFileSync(postScript, "utf8"))![1]!;
  const quiz = (await (
    await fetch(`${base}/api/quiz/result`, { method: "POST", headers: { "content-type": "application/json" }, body })
  ).json()) as { id: string };
  const pages = [
    ["home", "/"],
    ["blog post", "/blog/platform-reviews"],
    ["module 1", "/learn/1"],
    ["quiz result", `/quiz/result?archetype=Girl%20Next%20Door&id=${quiz.id}`],
  ] as const;

  const rows: { result: Result; ceiling: Result; js: number; bytes: number }[] = [];
  for (const [name, path] of pages) {
    const html = await (await fetch(base + path)).text();
    const result = wrk(name, path);
    const ceiling = wrk(`${name} (ceiling)`, `/__bench/ceiling?path=${encodeURIComponent(path)}`);
    rows.push({ result, ceiling, js: pageJs(html), bytes: Buffer.byteLength(html) });
  }
  const uncached = wrk("home, rendered on every request", "/__bench/render?path=/");
  const uncachedPost = wrk("blog post, rendered on every request", "/__bench/render?path=/blog/platform-reviews");
  const audits = ["/", "/quiz", "/learn/1", "/blog/platform-reviews"].map((path) => ({
    path,
    scores: lighthouse(path),
  }));
  const posts = wrk("POST /api/quiz/result", "/api/quiz/result", postScript);
  const memory = peakMemoryMb();
  // Started again on the data folder it seeded: what a restart costs an existing site.
  server.kill("SIGTERM");
  await server.exited;
  const restarted = performance.now();
  server = spawnServer(port, dataDir, serverEnv);
  const restart = await firstOk(restarted);
  const js = pageJavaScript(join(root, "dist", "client"));
  const floor = await jsFloor();
  const budget = (page: string) => (FUNNEL_PAGES.has(page) ? TARGET.funnelJsKb : TARGET.contentJsKb);
  const publicJs = js.filter(({ page }) => !page.startsWith("admin"));
  const overBudget = publicJs.filter(({ page, bytes }) => bytes / 1024 > budget(page));
  const met = (ok: boolean) => (ok ? "met" : "not met");
  const share = (n: number) => `${(n * 100).toFixed(0)}%`;
  const postShare = uncachedPost.rps / uncached.rps;
  const cachedShares = rows.map(({ result, ceiling }) => ({ name: result.name, share: result.rps / ceiling.rps }));
  const lowestCached = cachedShares.reduce((a, b) => (b.share < a.share ? b : a));

  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const lines = [
    "# Benchmark results",
    "",
    `Measured by \`bun run bench\` on ${new Date().toISOString().slice(0, 10)}: the compiled executable on a fresh seeded DATA_DIR, wrk -t2 -c${connections} -d${duration} on 127.0.0.1, ${navigator.hardwareConcurrency} cores shared by the server and wrk${process.env.BENCH_SERVER_ENV ? `; the server run with ${process.env.BENCH_SERVER_ENV}` : ""}.`,
    "",
    "| page | requests/s | p99 | same bytes from memory | ratio | HTML | JavaScript (gzipped) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map(
      ({ result, ceiling, js, bytes }) =>
        `| ${result.name} | ${result.rps.toFixed(0)} | ${result.p99} | ${ceiling.rps.toFixed(0)} | ${((result.rps / ceiling.rps) * 100).toFixed(0)}% | ${kb(bytes)} | ${kb(js)} |`,
    ),
    "",
    "| measure | value |",
    "| --- | ---: |",
    `| home rendered on every request (cache bypassed) | ${uncached.rps.toFixed(0)} requests/s, p99 ${uncached.p99} |`,
    `| blog post rendered on every request (cache bypassed) | ${uncachedPost.rps.toFixed(0)} requests/s, p99 ${uncachedPost.p99} |`,
    `| POST /api/quiz/result | ${posts.rps.toFixed(0)} requests/s, p99 ${posts.p99} |`,
    `| peak memory of the server (VmHWM) | ${memory.toFixed(0)} MB |`,
    `| process start to first 200 on an empty DATA_DIR | ${startup.toFixed(0)} ms |`,
    `| process start to first 200 on the seeded DATA_DIR | ${restart.toFixed(0)} ms |`,
    "",
    "Targets (met or not, in this run):",
    "",
    "| target | figure | |",
    "| --- | ---: | --- |",
    `| a blog post rendered per request at least ${share(TARGET.postRenderShare)} of the home page rendered per request | ${share(postShare)} | ${met(postShare >= TARGET.postRenderShare)} |`,
    `| every cached page at least ${share(TARGET.cachedShare)} of its bytes served from memory | lowest: ${lowestCached.name}, ${share(lowestCached.share)} | ${met(lowestCached.share >= TARGET.cachedShare)} |`,
    `| home and content pages at most ${TARGET.contentJsKb} KB of JavaScript, funnel pages ${TARGET.funnelJsKb} KB (gzipped) | ${overBudget.length} of ${publicJs.length} pages over | ${met(overBudget.length === 0)} |`,
    `| peak memory under this load at most ${TARGET.peakMemoryMb} MB | ${memory.toFixed(0)} MB | ${met(memory <= TARGET.peakMemoryMb)} |`,
    `| start to first 200 on a seeded DATA_DIR at most ${TARGET.startMs} ms | ${restart.toFixed(0)} ms | ${met(restart <= TARGET.startMs)} |`,
    "",
    "Lighthouse (mobile settings, Debian's Chromium, the same run):",
    "",
    "| page | performance | accessibility | best practices | SEO |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...audits.map(({ path, scores }) =>
      scores
        ? `| \`${path}\` | ${scores.performance} | ${scores.accessibility} | ${scores["best-practices"]} | ${scores.seo} |`
        : `| \`${path}\` | did not run | | | |`,
    ),
    "",
    `Non-2xx answers during the run: ${[...rows.flatMap((r) => [r.result, r.ceiling]), uncached, uncachedPost, posts].reduce((n, r) => n + r.non2xx, 0)}.`,
    "",
    "JavaScript each page loads (React's entry plus the modules it preloads, gzipped):",
    "",
    `The floor under it, built the same way (bench/js-floor.ts): React alone, hydrating one button, ${kb(floor.react)}; with TanStack Query, wouter and zustand, as every page here hydrates, ${kb(floor.stack)}. A budget below the second is met only by a page that hydrates less than the whole app (docs/decisions/094-javascript-budgets-and-the-stacks-floor.md).`,
    "",
    "| page | JavaScript | budget |",
    "| --- | ---: | ---: |",
    ...js.map(
      ({ page, bytes }) =>
        `| ${page} | ${kb(bytes)} | ${page.startsWith("admin") ? "(admin)" : `${budget(page)} KB${bytes / 1024 > budget(page) ? ", over" : ""}`} |`,
    ),
    "",
  ];
  writeFileSync(join(import.meta.dir, "RESULTS.md"), lines.join("\n"));
  console.log(lines.join("\n"));
} finally {
  server.kill("SIGTERM");
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
