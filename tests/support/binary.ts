// Runs the shipped executable (dist/cam-guide) for tests that need a real process.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { ensureCurrent } from "./built.ts";
import { PORT_TAKEN, testPort } from "./ports.ts";
import { TEST_RUNTIME_ENV } from "./runtime-tuning.ts";

const root = join(import.meta.dir, "..", "..");
export const BINARY = join(root, "dist", "cam-guide");

/** Builds dist/cam-guide when it is missing or older than the sources (once for every file that asks). */
export function ensureBuilt(): void {
  ensureCurrent("executable");
}

/** The admin password startServer passes (ADMIN_PASSWORD): the one a first start gives the admin. */
export const SERVER_ADMIN_PASSWORD = "durable-password-123";

/** How long a stopped server may take to finish its requests and close its database before it is killed. */
const STOP_DEADLINE_MS = 10_000;

export interface Running {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  url: string;
  port: number;
}

export interface StartOptions {
  /** Wait until /healthz answers 200 (default), or only until it answers at all (a server on a full disk answers 503). */
  healthy?: boolean;
  /** Start under a file size limit (RLIMIT_FSIZE, the shell's `ulimit -f`), in bytes, rounded down to 512. */
  fileSizeLimit?: number;
  /** Start under a limit on open files and connections (RLIMIT_NOFILE, the shell's `ulimit -n`, soft and hard). */
  openFileLimit?: number;
  /** What to run instead of the executable (the journeys' E2E_SOURCE=1 runs the source). */
  command?: string[];
}

export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  { healthy = true, fileSizeLimit, openFileLimit, command: program = [BINARY] }: StartOptions = {},
): Promise<Running> {
  const limits = [
    ...(fileSizeLimit === undefined ? [] : [`ulimit -f ${Math.floor(fileSizeLimit / 512)}`]),
    ...(openFileLimit === undefined ? [] : [`ulimit -n ${openFileLimit}`]),
  ];
  const command = limits.length === 0 ? program : ["sh", "-c", `${limits.join(" && ")} && exec "$0" "$@"`, ...program];
  // Another test process may take the port between its draw and the server's bind: draw again.
  for (let attempt = 1; ; attempt++) {
    const port = testPort();
    const proc = Bun.spawn(command, {
      env: {
        ...TEST_RUNTIME_ENV,
        PATH: process.env.PATH ?? "",
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        ADMIN_PASSWORD: SERVER_ADMIN_PASSWORD,
        ...env,
      },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntilUp(url, proc, healthy);
      return { proc, url, port };
    } catch (error) {
      proc.kill("SIGKILL");
      if (attempt < 5 && error instanceof Error && PORT_TAKEN.test(error.message)) continue;
      throw error;
    }
  }
}

/** SIGTERM, and SIGKILL if the server has not stopped within its deadline; answers once it has exited. */
export async function stopServer(server: Pick<Running, "proc">): Promise<void> {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  server.proc.kill("SIGTERM");
  const timer = setTimeout(() => server.proc.kill("SIGKILL"), STOP_DEADLINE_MS);
  try {
    await server.proc.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Polls /healthz until it answers 200 (or anything, unless `healthy`); fails if the process exits first or 15 s pass. */
export async function waitUntilUp(
  url: string,
  proc: Bun.Subprocess<"ignore" | "pipe" | "inherit", "pipe", "pipe">,
  healthy = true,
): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null)
      throw new Error(`server exited early with ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
    try {
      const res = await fetch(`${url}/healthz`);
      // Another test's server may hold the port ours was given (ours then exits, refused):
      // an answer counts only when the listening socket is this process's own.
      if ((res.ok || !healthy) && listensOn(proc.pid, Number(new URL(url).port))) return;
    } catch {
      // not listening yet
    }
    await Bun.sleep(25);
  }
  throw new Error("the server did not answer /healthz within 15 s");
}

/**
 * Whether process `pid` holds the socket listening on `port` (Linux: the socket's inode in
 * /proc/net/tcp among the process's open files). True where /proc cannot tell.
 */
export function listensOn(pid: number, port: number): boolean {
  const inodes = new Set<string>();
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  let read = 0;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    read++;
    for (const line of text.split("\n").slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      if (local?.endsWith(hexPort) && state === "0A" && inode) inodes.add(inode);
    }
  }
  if (read === 0) return true;
  // A process that has exited has no open files to read: not the one listening.
  try {
    const fds = `/proc/${pid}/fd`;
    return readdirSync(fds).some((fd) => {
      try {
        return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(join(fds, fd)))?.[1] ?? "");
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** Runs `count` tasks with at most `concurrency` in flight. */
export async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}
