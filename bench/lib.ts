// What the benchmark scripts share: the executable they measure, and wrk.
import { join } from "node:path";

const root = join(import.meta.dir, "..");
/** dist/cam-guide, or BENCH_BINARY (another build to compare with, such as an earlier release's). */
export const binary = process.env.BENCH_BINARY ?? join(root, "dist", "cam-guide");

/** Builds dist/cam-guide unless BENCH_SKIP_BUILD=1 or BENCH_BINARY (and it exists); exits when the build fails. */
export function ensureBinary(): void {
  if ((process.env.BENCH_SKIP_BUILD === "1" || process.env.BENCH_BINARY) && Bun.file(binary).size > 0) return;
  const built = Bun.spawnSync(["bun", "run", "build"], { cwd: root, stdout: "ignore", stderr: "inherit" });
  if (built.exitCode !== 0) process.exit(1);
}

/** Exits with how to install wrk when it is missing. */
export function requireWrk(): void {
  if (Bun.which("wrk")) return;
  console.error("wrk is missing: install it with `apt-get install -y wrk` (Debian).");
  process.exit(1);
}

export interface WrkRun {
  rps: number;
  p99: string;
  requests: number;
  non2xx: number;
}

/** One wrk run (two threads) against `url`, with an optional Lua script (and variables it reads). */
export function runWrk(
  url: string,
  {
    connections,
    duration,
    script,
    env = {},
  }: { connections: string; duration: string; script?: string; env?: Record<string, string> },
): WrkRun {
  const extra = script ? ["-s", script] : [];
  const out = Bun.spawnSync(["wrk", "-t2", `-c${connections}`, `-d${duration}`, "--latency", ...extra, url], {
    env: { ...process.env, ...env },
  }).stdout.toString();
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
    p99: /\s99%\s+(\S+)/.exec(out)?.[1] ?? "?",
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  };
}

/** Starts dist/cam-guide on 127.0.0.1:`port` with `dataDir`, production, its log on stderr. */
export function spawnServer(port: number, dataDir: string, env: Record<string, string> = {}): Bun.Subprocess {
  return Bun.spawn([binary], {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      ADMIN_PASSWORD: "bench-password-123",
      ...env,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
}
