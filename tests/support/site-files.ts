// The executable run on a DATA_DIR whose files a test damages, and what those files hold:
// for the suites that attack app.db, its log and its index (tests/adversarial/database-*.test.ts).
import { expect } from "bun:test";
import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { BINARY, type Running, startServer } from "./binary.ts";
import { PORT_TAKEN, testPort } from "./ports.ts";

export const PASSWORD = "durable-password-123";
const WAYS_OUT = ["cam-guide restore", "cam-guide new-database"];
const DATABASE_FILES = ["app.db", "app.db-wal", "app.db-shm"];
const QUIZ = { archetype: "Girl Next Door", answers: Array(15).fill("A") };

/** Servers a suite started, killed in its afterAll (stopAll) if a test left one running. */
const running = new Set<Running>();

export async function serve(dir: string, env: Record<string, string> = {}): Promise<Running> {
  const server = await startServer(dir, { ADMIN_PASSWORD: PASSWORD, WRITE_LIMIT: "off", ...env });
  running.add(server);
  return server;
}

export async function stop(server: Running, signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<number> {
  running.delete(server);
  server.proc.kill(signal);
  return server.proc.exited;
}

export async function stopAll(): Promise<void> {
  for (const server of [...running]) await stop(server, "SIGKILL");
}

/** Runs the executable to its end (a server that should refuse to start, or a command). */
export async function run(dir: string, args: string[] = [], env: Record<string, string> = {}) {
  // A server tries its port before it touches anything: another test process that took the
  // port between its draw and the bind only means drawing again.
  for (let attempt = 1; ; attempt++) {
    const proc = Bun.spawn([BINARY, ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        DATA_DIR: dir,
        PORT: String(testPort()),
        HOST: "127.0.0.1",
        ADMIN_PASSWORD: PASSWORD,
        ...env,
      },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const timer = setTimeout(() => proc.kill("SIGKILL"), 20_000);
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    clearTimeout(timer);
    if (code === 1 && PORT_TAKEN.test(stderr) && !env.PORT && attempt < 5) continue;
    return { code, stdout, stderr };
  }
}

/** Exit 1 and one line on stderr naming both ways out, no stack trace. */
export function expectRefused(result: { code: number; stderr: string }, label: string, ...fragments: string[]) {
  const line = result.stderr.trim();
  expect({ label, code: result.code }).toEqual({ label, code: 1 });
  expect({ label, lines: line.split("\n").length }).toEqual({ label, lines: 1 });
  for (const fragment of [...WAYS_OUT, ...fragments])
    expect({ label, line }).toEqual({ label, line: expect.stringContaining(fragment) });
  expect(line).not.toMatch(/\n\s+at |Bun v\d/);
}

/** A file's mode and contents (or that it is a folder, or absent). */
export function fileHash(path: string): string {
  try {
    const stat = statSync(path);
    const mode = (stat.mode & 0o777).toString(8);
    if (stat.isDirectory()) return `folder ${mode}`;
    return `${mode} ${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
  } catch {
    return "absent";
  }
}

/** app.db, its log and its index, each as fileHash says. */
export const hashes = (dir: string) => DATABASE_FILES.map((name) => `${name} ${fileHash(join(dir, name))}`);

/** Every entry of DATA_DIR (not inside uploads/), with its mode and contents: what "touching nothing" compares. */
export const everything = (dir: string) =>
  readdirSync(dir)
    .sort()
    .map((name) => `${name} ${fileHash(join(dir, name))}`);

export async function postQuiz(url: string): Promise<Response> {
  return fetch(`${url}/api/quiz/result`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(QUIZ),
  });
}

/** Saves `count` quiz results one after another, each acknowledged (201); answers their ids. */
export async function acknowledged(url: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await postQuiz(url);
    expect(res.status).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

/** Overwrites `bytes` at `at` in `file` in place (the same inode), as `dd conv=notrunc` would. */
export function overwrite(file: string, bytes: Uint8Array, at = 0): void {
  const fd = openSync(file, "r+");
  writeSync(fd, bytes, 0, bytes.length, at);
  closeSync(fd);
}

/** app.db's size and times to the nanosecond: what moves when a checkpoint writes it. */
export function fileTimes(file: string): string {
  const { size, mtimeNs, ctimeNs } = statSync(file, { bigint: true });
  return `${size} ${mtimeNs} ${ctimeNs}`;
}

/** Polls `condition` every 25 ms until it holds; fails with `what` after `ms`. */
export async function until(what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s`);
    await Bun.sleep(25);
  }
}

/**
 * Waits for the server's next checkpoint of DATA_DIR `dir`: app.db written (its times moved)
 * and the log emptied.
 */
export async function nextCheckpoint(dir: string, ms = 10_000): Promise<void> {
  const db = join(dir, "app.db");
  const before = fileTimes(db);
  await until("a checkpoint", () => fileTimes(db) !== before && statSync(`${db}-wal`).size === 0, ms);
}
