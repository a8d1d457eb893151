// `bun run bench`: requests per second of the server-rendered home page against the same
// bytes served from memory by the same executable (the ceiling), measured with wrk.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const binary = join(root, "dist", "cam-guide");
const port = Number(process.env.BENCH_PORT ?? 4610);
const duration = process.env.BENCH_DURATION ?? "10s";
const connections = process.env.BENCH_CONNECTIONS ?? "50";

if (!Bun.which("wrk")) {
  console.error("wrk is missing: install it with `apt-get install -y wrk` (Debian).");
  process.exit(1);
}
if (!existsSync(binary) || process.env.BENCH_REBUILD === "1") {
  const built = Bun.spawnSync(["bun", "run", "build"], { cwd: root, stdout: "inherit", stderr: "inherit" });
  if (built.exitCode !== 0) process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), "cam-guide-bench-"));
const server = Bun.spawn([binary], {
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "production", CAM_GUIDE_BENCH: "1", ADMIN_PASSWORD: "bench-password-123" },
  stdout: "ignore",
  stderr: "inherit",
});
const base = `http://127.0.0.1:${port}`;

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      if (i > 200) throw new Error("server did not start");
    }
    await Bun.sleep(50);
  }

  interface Result {
    name: string;
    rps: number;
    p99: string;
    bytes: number;
  }
  async function measure(name: string, path: string): Promise<Result> {
    const bytes = (await (await fetch(base + path)).arrayBuffer()).byteLength;
    // Warm-up, then the measured run.
    Bun.spawnSync(["wrk", "-t2", `-c${connections}`, "-d2s", base + path]);
    const out = Bun.spawnSync(["wrk", "-t2", `-c${connections}`, `-d${duration}`, "--latency", base + path]).stdout.toString();
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
    const p99 = /\s99%\s+(\S+)/.exec(out)?.[1] ?? "?";
    const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
    if (non2xx) throw new Error(`${name}: ${non2xx} non-2xx answers`);
    return { name, rps, p99, bytes };
  }

  const page = await measure("GET / (rendered per request)", "/");
  const ceiling = await measure("same bytes from memory (ceiling)", "/__bench/ceiling?path=/");
  const rows = [page, ceiling].map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p99} | ${r.bytes} |`);
  console.log(`\nwrk -t2 -c${connections} -d${duration}, ${navigator.hardwareConcurrency} cores shared by server and load generator\n`);
  console.log("| what | requests/s | p99 latency | body bytes |\n| --- | ---: | ---: | ---: |");
  console.log(rows.join("\n"));
  console.log(`\nratio page / ceiling: ${((page.rps / ceiling.rps) * 100).toFixed(1)}%`);
} finally {
  server.kill("SIGTERM");
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
