// `bun bench/quiz-post.ts`: what counting costs the quiz's POST. The built executable with
// WRITE_LIMIT=off answers POST /api/quiz/result under wrk, with ANALYTICS=off and on in turn,
// BENCH_ROUNDS times (each run on a fresh DATA_DIR); prints every run and the medians.
// Noisy on a shared machine: compare runs made one after the other.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, requireWrk, runWrk, spawnServer, type WrkRun } from "./lib.ts";

const port = Number(process.env.BENCH_PORT ?? 5619);
const duration = process.env.BENCH_DURATION ?? "10s";
const connections = process.env.BENCH_CONNECTIONS ?? "16";
const script = join(import.meta.dir, "post-visitor.lua");

async function measure(analytics: "on" | "off"): Promise<WrkRun & { counted: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "cam-guide-quiz-post-"));
  // CAM_GUIDE_BENCH=1: no day's ceiling on saved results stops a run that saves tens of thousands.
  const server = spawnServer(port, dataDir, { WRITE_LIMIT: "off", ANALYTICS: analytics, CAM_GUIDE_BENCH: "1" });
  try {
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const up = await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error("the server did not start");
      await Bun.sleep(100);
    }
    // A short warm-up, then the measured run.
    const warm = runWrk(`${base}/api/quiz/result`, { connections, duration: "2s", script });
    const run = runWrk(`${base}/api/quiz/result`, { connections, duration, script });
    server.kill("SIGTERM");
    await server.exited;
    // What was counted (written on shutdown at the latest): every finished quiz, warm-up included.
    const file = new Database(join(dataDir, "app.db"), { readonly: true });
    const row = file
      .query("SELECT coalesce(sum(count), 0) AS n FROM analytics_daily WHERE metric = 'quiz_finish'")
      .get() as { n: number };
    file.close();
    return { ...run, counted: row.n - warm.requests };
  } finally {
    server.kill("SIGTERM");
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

requireWrk();
ensureBinary();
// Off and on alternate, round after round, so a change in the machine's load falls on both;
// the medians are compared.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const runs: { name: "off" | "on"; round: number; run: WrkRun & { counted: number } }[] = [];
for (let round = 1; round <= rounds; round++)
  for (const name of ["off", "on"] as const) runs.push({ name, round, run: await measure(name) });
console.log(`POST /api/quiz/result, ${connections} connections, ${duration} (wrk, WRITE_LIMIT=off)\n`);
console.log("| round | ANALYTICS | requests/s | p99 | requests | non-2xx | quizzes counted |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const { name, round, run } of runs)
  console.log(
    `| ${round} | ${name} | ${run.rps.toFixed(0)} | ${run.p99} | ${run.requests} | ${run.non2xx} | ${name === "on" ? Math.max(0, run.counted) : "–"} |`,
  );
const median = (name: "off" | "on") => {
  const sorted = runs
    .filter((r) => r.name === name)
    .map((r) => r.run.rps)
    .sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const off = median("off");
const on = median("on");
console.log(
  `\nMedian requests/s: off ${off.toFixed(0)}, on ${on.toFixed(0)}: counting costs ${(((off - on) / off) * 100).toFixed(1)}% of the throughput.`,
);
