// `bun bench/result-retention.ts`: how long the compiled server takes to delete RESULTS
// (1,000,000) expired quiz and calculator results, and how long requests wait meanwhile.
// Builds dist/cam-guide (skip with BENCH_SKIP_BUILD=1), lets it create and seed a fresh
// DATA_DIR, writes the expired results (half quiz results, half estimates, one in three of
// them linked to a quiz result) and 1,000 fresh ones straight into app.db, then starts it
// again: its first pass deletes them while CLIENTS (4) loops read a fresh result's API answer,
// its page (rendered, then from the cache) and /healthz without pause. The same loops then run
// as long again on the emptied database, for comparison. Latencies are measured by the client.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binary, ensureBinary } from "./lib.ts";

const RESULTS = Number(process.env.RESULTS ?? 1_000_000);
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const port = Number(process.env.BENCH_PORT ?? 4660);
const base = `http://127.0.0.1:${port}`;
const DAY = 24 * 60 * 60 * 1000;

ensureBinary();
const work = mkdtempSync(join(tmpdir(), "cam-guide-retention-bench-"));
const dataDir = join(work, "data");

function start() {
  return Bun.spawn([binary], {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      ADMIN_PASSWORD: "bench-password-123",
      WRITE_LIMIT: "off",
      ANALYTICS: "off",
    },
    stdout: "pipe",
    stderr: "inherit",
  });
}

async function waitUp(): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error("the server did not start within 60 s");
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await Bun.sleep(5);
  }
}

/** Writes the expired results and the fresh ones; answers a fresh quiz result's id. */
function writeResults(): string {
  const db = new Database(join(dataDir, "app.db"));
  const old = Date.now() - 400 * DAY;
  const id = (n: number, kind: string) => `${kind}${n.toString(36).padStart(20, "0")}`;
  const quiz = db.prepare("INSERT INTO quiz_results (id, archetype, answers, created_at) VALUES (?, ?, ?, ?)");
  const earnings = db.prepare(
    "INSERT INTO earnings_results (id, quiz_result_id, tier, estimated_earnings, score, answers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const letters = JSON.stringify(Array(15).fill("A"));
  const numbers = JSON.stringify(Array(15).fill(1));
  db.transaction(() => {
    const half = Math.floor(RESULTS / 2);
    for (let n = 0; n < half; n++) quiz.run(id(n, "q"), "Girl Next Door", letters, old + n);
    for (let n = 0; n < RESULTS - half; n++) {
      const linked = n % 3 === 0 && n < half ? id(n, "q") : null;
      earnings.run(id(n, "e"), linked, "Casual Starter", "$30 – $470 a month", 15, numbers, old + n);
    }
    for (let n = 0; n < 1000; n++) quiz.run(id(n, "fresh"), "Girl Next Door", letters, Date.now());
  })();
  db.close();
  return id(0, "fresh");
}

interface Sample {
  at: number;
  ms: number;
}

/** CLIENTS loops of requests until `until()`; every request's latency. */
async function load(until: () => boolean, fresh: string): Promise<Sample[]> {
  const paths = [`/api/quiz/result/${fresh}`, `/quiz/result?archetype=Girl%20Next%20Door&id=${fresh}`, "/healthz"];
  const samples: Sample[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client; !until(); i++) {
        const begun = performance.now();
        const res = await fetch(`${base}${paths[i % paths.length]}`);
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${paths[i % paths.length]}: ${res.status}`);
        samples.push({ at: begun, ms: performance.now() - begun });
      }
    }),
  );
  return samples;
}

function summary(samples: Sample[]) {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return `${samples.length} requests, median ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, worst ${sorted.at(-1)?.toFixed(1)} ms`;
}

let server = start();
try {
  await waitUp();
  server.kill("SIGTERM");
  await server.exited;
  const inserting = performance.now();
  const fresh = writeResults();
  console.log(
    `wrote ${RESULTS.toLocaleString("en-US")} expired results in ${((performance.now() - inserting) / 1000).toFixed(1)} s`,
  );

  const started = performance.now();
  server = start();
  // The server logs its pass when it is done (stdout); the loads run until then.
  let finished: number | null = null;
  let deletedLine = "";
  const reader = (async () => {
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of server.stdout) {
      text += decoder.decode(chunk);
      const line = /deleted \d+ saved results[^\n]*/.exec(text)?.[0];
      if (line && finished === null) {
        finished = performance.now();
        deletedLine = line;
      }
    }
  })();
  await waitUp();
  const listening = performance.now();
  const during = await load(() => finished !== null, fresh);
  if (finished === null) throw new Error("the pass did not finish");
  const passMs = (finished as number) - listening;
  const after = await load(() => performance.now() > (finished as number) + passMs, fresh);
  console.log(`start to listening: ${((listening - started) / 1000).toFixed(1)} s`);
  console.log(`pass (listening to its log line "${deletedLine}"): ${(passMs / 1000).toFixed(1)} s`);
  console.log(`during the pass: ${summary(during)}`);
  console.log(`after it, as long: ${summary(after)}`);
  server.kill("SIGTERM");
  await server.exited;
  await reader;
} finally {
  server.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
}
