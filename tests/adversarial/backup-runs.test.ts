// Automatic backup runs against the shipped executable (dist/cam-guide), attacked as faults
// would: the server killed with kill -9 during "Back up now" and restarted at once (with
// the same or another BACKUP_DIR, with a schedule due every second), the backup process
// itself killed with or without a server watching, both killed, a damaged lock file. A run
// is owned by the process doing it (a lock in DATA_DIR it holds for its life) and its
// record follows the file: never two runs at once, never a good backup recorded failed, a
// dead run recorded failed with a reason, and no temporary file the next run leaves behind.
//
// A backup process is held mid-run with SIGSTOP (its locks stay held, as they do while it
// works) so the test decides when it goes on: no slow-down seam in the product, and real
// data (uploads of some megabytes) for it to copy and check.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { BackupOverview, BackupRun } from "#shared/features/backups/contract.ts";
import { BINARY, ensureBuilt, type Running, startServer } from "#tests/support/binary.ts";
import { scratchDir } from "#tests/support/scratch.ts";

setDefaultTimeout(60_000);

const PASSWORD = "durable-password-123";
const MB = 1024 * 1024;
/** Uploads the backups copy: enough bytes that a run takes a moment, not a minute. */
const UPLOADS = Array.from({ length: 6 }, (_, i) => `${String(i).repeat(22)}.mp4`);
const DOT_NAME = /^\./;
const PROCESS_GONE = "The backup process stopped before it finished, so no backup was written.";

// ---------------------------------------------------------------------------------------
// Processes

interface Server extends Running {
  /** What the server printed so far (both streams). */
  log(): string;
  cookie: string;
}

const started: Server[] = [];
const held = new Set<number>();

afterAll(async () => {
  for (const pid of held) signal(pid, "SIGKILL");
  for (const server of started) server.proc.kill("SIGKILL");
  await Promise.all(started.map((server) => server.proc.exited));
});

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** Reads a stream to its end into `into`, so a chatty process never blocks on a full pipe. */
function drain(stream: ReadableStream<Uint8Array>, into: string[]): void {
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) into.push(decoder.decode(chunk, { stream: true }));
  })();
}

async function serve(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  const running = await startServer(dataDir, env);
  const out: string[] = [];
  drain(running.proc.stdout, out);
  drain(running.proc.stderr, out);
  const signIn = await fetch(`${running.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: running.url },
    body: JSON.stringify({ username: "admin", password: PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const server = { ...running, log: () => out.join(""), cookie: signIn.headers.get("set-cookie")!.split(";")[0]! };
  started.push(server);
  return server;
}

async function kill9(server: Server): Promise<void> {
  server.proc.kill("SIGKILL");
  await server.proc.exited;
}

async function stop(server: Server): Promise<void> {
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
}

/** A thread's state letter from /proc (R, S, T, Z...), or null when it is gone; the main thread's by default. */
function state(pid: number, group = pid): string | null {
  try {
    const stat = readFileSync(`/proc/${group}/task/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return null;
  }
}

/**
 * Whether any thread of the process still runs: its main thread turns zombie first, while the
 * others may still hold its files (and so its locks) for a moment.
 */
const alive = (pid: number) => {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return false;
  }
  return threads.some((tid) => {
    const now = state(Number(tid), pid);
    return now !== null && now !== "Z" && now !== "X";
  });
};

/** Every live `cam-guide backup-auto` working on `dataDir`, whoever its parent is now. */
function backupProcesses(dataDir: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const command = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (!command.includes("backup-auto")) continue;
      const env = readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
      if (env.includes(`DATA_DIR=${dataDir}`) && alive(Number(name))) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/**
 * The backup processes on `dataDir` at work: with a file in the backup folder open (a process
 * that is exiting may hold a deleted one a moment longer; it has done its work).
 */
function working(dataDir: string): number[] {
  return backupProcesses(dataDir).filter((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
          return target.startsWith(join(dataDir, "backups/")) && !target.endsWith(" (deleted)");
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

/** Asks `check` until it answers a value (not undefined), or fails after `ms`. */
async function until<T>(check: () => T | undefined | Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s`);
    await Bun.sleep(20);
  }
}

// ---------------------------------------------------------------------------------------
// The site

let template = "";

beforeAll(async () => {
  ensureBuilt();
  // One site made by the executable, copied for each case (a copy is faster than a first start).
  template = scratchDir("backup-runs-template");
  const first = await serve(template);
  await stop(first);
  mkdirSync(join(template, "uploads"), { recursive: true, mode: 0o700 });
  for (const name of UPLOADS) writeFileSync(join(template, "uploads", name), randomBytes(4 * MB), { mode: 0o600 });
});

function freshSite(): string {
  const dir = scratchDir("backup-runs");
  cpSync(template, dir, { recursive: true });
  return dir;
}

const api = (server: Server, path: string, init: RequestInit = {}) =>
  fetch(`${server.url}/api/admin${path}`, {
    ...init,
    headers: { cookie: server.cookie, origin: server.url, ...init.headers },
  });

const overview = async (server: Server) => (await (await api(server, "/backups")).json()) as BackupOverview;
const backUpNow = (server: Server) => api(server, "/backups/run", { method: "POST" });

/** "Back up now", answered 202 with the run its process recorded; and that process, found and held. */
async function startHeldRun(server: Server, dataDir: string): Promise<{ run: BackupRun; pid: number }> {
  const res = await backUpNow(server);
  expect(res.status).toBe(202);
  const run = (await res.json()) as BackupRun;
  expect(run).toMatchObject({ status: "running", trigger: "manual" });
  const [pid] = await until(() => {
    const found = backupProcesses(dataDir);
    return found.length > 0 ? found : undefined;
  }, "the backup process showing");
  signal(pid!, "SIGSTOP");
  held.add(pid!);
  return { run, pid: pid! };
}

function goOn(pid: number): void {
  signal(pid, "SIGCONT");
}

async function gone(pid: number): Promise<void> {
  await until(() => (alive(pid) ? undefined : true), "the backup process ending");
  held.delete(pid);
}

const utc = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`;

async function expectBusy(res: Response, run: BackupRun): Promise<void> {
  expect(res.status).toBe(409);
  expect(((await res.json()) as { error: string }).error).toBe(
    `A backup is already running (started at ${utc(run.startedAt)}); wait for it to finish, then try again.`,
  );
}

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** The backup restores into an empty DATA_DIR with `cam-guide restore`, every upload byte for byte. */
async function expectRestorable(dataDir: string, file: string): Promise<void> {
  const target = join(scratchDir("restored"), "data");
  const proc = Bun.spawn([BINARY, "restore", file], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: target },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  for (const name of UPLOADS) expect(sha(join(target, "uploads", name))).toBe(sha(join(dataDir, "uploads", name)));
}

/** What is left in a backup folder besides finished backups. */
const leftovers = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((n) => DOT_NAME.test(n)) : []);

// ---------------------------------------------------------------------------------------

describe("kill -9 of the server during 'Back up now'", () => {
  test("the backup process finishes; restarted servers refuse a second run (other BACKUP_DIR too), the schedule skips, and the run shows succeeded with its file", async () => {
    const dataDir = freshSite();
    const first = await serve(dataDir);
    const { run, pid } = await startHeldRun(first, dataDir);
    await kill9(first);
    expect(alive(pid)).toBe(true);

    // Restarted at once, with another BACKUP_DIR: the lock is DATA_DIR's, so still one run.
    const elsewhere = await serve(dataDir, { BACKUP_DIR: scratchDir("other-backups") });
    expect((await overview(elsewhere)).running).toMatchObject({ id: run.id, status: "running" });
    await expectBusy(await backUpNow(elsewhere), run);
    await stop(elsewhere);

    // Restarted again with a schedule due every second: each time comes, finds the run, is skipped.
    const again = await serve(dataDir, { BACKUP_CRON: "* * * * * *" });
    const skipped = `scheduled backup skipped: A backup is already running (started at ${utc(run.startedAt)})`;
    await until(() => (again.log().split(skipped).length > 2 ? true : undefined), "two skipped schedule times");
    const presses = await Promise.all(Array.from({ length: 6 }, () => backUpNow(again)));
    for (const res of presses) await expectBusy(res, run);
    const meanwhile = await overview(again);
    expect(meanwhile.runs.map((r) => [r.id, r.status])).toEqual([[run.id, "running"]]);
    expect(backupProcesses(dataDir)).toEqual([pid]);

    goOn(pid);
    await gone(pid);
    const after = await until(async () => {
      const now = await overview(again);
      const ours = now.runs.find((r) => r.id === run.id)!;
      return ours.status === "running" ? undefined : { now, ours };
    }, "the run's end showing");
    expect(after.ours).toMatchObject({ status: "ok", error: null });
    const file = join(dataDir, "backups", after.ours.file!);
    expect(after.ours.size).toBe(statSync(file).size);
    expect(after.now.files.find((f) => f.name === after.ours.file)).toMatchObject({ kind: "manual" });
    // Once the run is over, the schedule runs again.
    await until(async () => {
      const runs = (await overview(again)).runs;
      return runs.some((r) => r.trigger === "schedule") ? true : undefined;
    }, "a scheduled run after the held one");
    await stop(again);
    await expectRestorable(dataDir, file);
    expect(leftovers(join(dataDir, "backups"))).toEqual([]);
  });

  test("a backup process that finishes while no server runs is shown succeeded at the next start", async () => {
    const dataDir = freshSite();
    const first = await serve(dataDir);
    const { run, pid } = await startHeldRun(first, dataDir);
    await kill9(first);
    goOn(pid);
    await gone(pid);
    const next = await serve(dataDir, { BACKUP_CRON: "30 3 * * *" });
    const { runs, files } = await overview(next);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ id: run.id, status: "ok", error: null });
    expect(files.map((f) => [f.name, f.size])).toEqual([[runs[0]!.file!, runs[0]!.size!]]);
    const health = (await (await fetch(`${next.url}/healthz`)).json()) as {
      details: { backup: { status: string; result: string } };
    };
    expect(health.details.backup).toMatchObject({ status: "ok", result: "ok" });
    await stop(next);
  });

  test("restart races: the server killed at any moment after the press, restarted at once and pressed again, never runs two at once", async () => {
    const dataDir = freshSite();
    // A run at work has a file in the backup folder open; a process that found the lock
    // taken (or has not asked for it yet) has none.
    let most = 0;
    let sampled = 0;
    const sampling = setInterval(() => {
      const now = working(dataDir).length;
      sampled += now;
      most = Math.max(most, now);
    }, 5);
    let last: Server | null = null;
    try {
      // When the server dies (ms after the press, or once the press was answered: the orphan
      // has recorded its run), and when its orphan goes on: before the restarted server is
      // pressed, among the presses, or after them.
      const cases = [
        [0, "before"],
        [40, "among"],
        [250, "after"],
        ["answered", "among"],
      ] as const;
      for (const [delay, release] of cases) {
        const server = await serve(dataDir);
        const press = backUpNow(server).catch(() => null);
        if (delay === "answered") await press;
        else await Bun.sleep(delay);
        await kill9(server);
        const owned = (await press)?.status === 202;
        const orphans = backupProcesses(dataDir);
        for (const pid of orphans) signal(pid, "SIGSTOP");
        // A run the press started goes on without its server, unless it had already ended:
        // a fresh site backs up in a few hundred milliseconds on a quiet machine.
        if (owned) expect(orphans.length).toBeLessThanOrEqual(1);
        const holding = owned && orphans.length === 1;
        const goOnAll = () => {
          for (const pid of orphans) goOn(pid);
        };
        // An orphan stopped in the middle of writing the log's index holds SQLite's lock on it:
        // the restarted server's first read waits for it (and gives up after about 10 s). A
        // server that is not up within 3 s is waiting for that orphan, which then goes on at
        // once: the presses below meet a run that went on before them.
        let released: "before" | "among" | "after" = release;
        const waiting =
          release === "before"
            ? null
            : setTimeout(() => {
                released = "before";
                goOnAll();
              }, 3_000);
        const next = await serve(dataDir).finally(() => clearTimeout(waiting ?? undefined));
        if (release === "before") goOnAll();
        const answers = await Promise.all(
          Array.from({ length: 5 }, async (_, i) => {
            if (i === 2 && released === "among") goOnAll();
            return (await backUpNow(next)).status;
          }),
        );
        // At most one press starts a run; while an orphan that recorded its run is held, none.
        expect(answers.filter((s) => s === 202).length).toBeLessThanOrEqual(holding && released === "after" ? 0 : 1);
        expect(answers.every((s) => s === 202 || s === 409)).toBe(true);
        goOnAll();
        for (const pid of orphans) await gone(pid);
        await until(async () => ((await overview(next)).running ? undefined : true), "every run ending");
        if (release === cases.at(-1)![1] && delay === cases.at(-1)![0]) last = next;
        else await stop(next);
      }
    } finally {
      clearInterval(sampling);
    }
    expect(most).toBe(1);
    expect(sampled).toBeGreaterThan(0);
    // Every run ended; those that succeeded ran one after the other, each file whole.
    const { runs, files } = await overview(last!);
    await stop(last!);
    expect(runs.filter((r) => r.status === "running")).toEqual([]);
    const ok = runs.filter((r) => r.status === "ok").sort((a, b) => a.id - b.id);
    expect(ok.length).toBeGreaterThan(0);
    for (let i = 1; i < ok.length; i++)
      expect(Date.parse(ok[i]!.startedAt)).toBeGreaterThanOrEqual(Date.parse(ok[i - 1]!.finishedAt!));
    for (const run of ok) expect(files.find((f) => f.name === run.file)?.size).toBe(run.size!);
    for (const run of runs.filter((r) => r.status === "failed")) expect(run.error).toBeTruthy();
    expect(leftovers(join(dataDir, "backups"))).toEqual([]);
  });
});

describe("kill -9 of the backup process", () => {
  test("mid-run under its server: recorded failed with the signal; the next run removes its leftovers and succeeds", async () => {
    const dataDir = freshSite();
    const server = await serve(dataDir);
    const folder = join(dataDir, "backups");
    const res = await backUpNow(server);
    expect(res.status).toBe(202);
    const run = (await res.json()) as BackupRun;
    // Killed once it has begun writing the archive.
    const pid = await until(() => {
      const [found] = backupProcesses(dataDir);
      return found !== undefined && leftovers(folder).length > 0 ? found : undefined;
    }, "the backup process writing");
    signal(pid, "SIGKILL");
    const failed = await until(async () => {
      const ours = (await overview(server)).runs.find((r) => r.id === run.id)!;
      return ours.status === "running" ? undefined : ours;
    }, "the run's end showing");
    expect(failed).toMatchObject({ status: "failed", file: null, size: null });
    expect(failed.error).toMatch(/^The backup process stopped before it finished \(signal SIGKILL/);
    expect(leftovers(folder).length).toBeGreaterThan(0);

    const next = await backUpNow(server);
    expect(next.status).toBe(202);
    const done = await until(async () => {
      const now = await overview(server);
      return now.running ? undefined : now;
    }, "the next run ending");
    expect(done.runs[0]).toMatchObject({ status: "ok", trigger: "manual" });
    expect(readdirSync(folder)).toEqual([done.runs[0]!.file!]);

    // A hand-run backup-auto while a run goes: "busy", nothing recorded.
    const { pid: ownPid } = await startHeldRun(server, dataDir);
    const hand = Bun.spawn([BINARY, "backup-auto", "manual", "3"], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await new Response(hand.stdout).text()).toBe('{"busy":true}\n');
    expect(await hand.exited).toBe(1);
    goOn(ownPid);
    await gone(ownPid);
    const runs = (await overview(server)).runs;
    expect(runs.map((r) => r.status)).toEqual(["ok", "ok", "failed"]);
    await stop(server);
  });

  test("killed while held and its server dead: failed at the next start; killed under a restarted server: noticed without a request", async () => {
    const dataDir = freshSite();
    // Both dead before the next start.
    const first = await serve(dataDir);
    const { run: lost, pid } = await startHeldRun(first, dataDir);
    await kill9(first);
    signal(pid, "SIGKILL");
    await gone(pid);
    const second = await serve(dataDir);
    expect((await overview(second)).runs).toEqual([
      expect.objectContaining({ id: lost.id, status: "failed", error: PROCESS_GONE, file: null }),
    ]);
    // The orphan of a server killed, killed itself while the restarted server runs.
    const { run, pid: orphan } = await startHeldRun(second, dataDir);
    await kill9(second);
    const third = await serve(dataDir, { BACKUP_CRON: "30 3 * * *" });
    expect((await overview(third)).running?.id).toBe(run.id);
    signal(orphan, "SIGKILL");
    await gone(orphan);
    // The last run before it failed too, so only a failure that ended after this run began
    // counts. A process whose main thread is gone may still hold its files (and the lock)
    // until its other threads end, so the server notices a moment later, by itself.
    await until(async () => {
      const health = (await (await fetch(`${third.url}/healthz`)).json()) as {
        details: { backup: { result: string; at: string | null } };
      };
      const { result, at } = health.details.backup;
      return result === "failed" && at !== null && at >= run.startedAt ? true : undefined;
    }, "the orphan's death noticed");
    const { runs } = await overview(third);
    expect(runs[0]).toMatchObject({ id: run.id, status: "failed", error: PROCESS_GONE });
    // The next run removes what the killed ones left and succeeds.
    expect((await backUpNow(third)).status).toBe(202);
    const done = await until(async () => {
      const now = await overview(third);
      return now.running ? undefined : now;
    }, "the next run ending");
    expect(done.runs[0]).toMatchObject({ status: "ok" });
    expect(readdirSync(join(dataDir, "backups"))).toEqual([done.runs[0]!.file!]);
    await stop(third);
  });

  test("SIGTERM to the server stops its run, which records why and leaves nothing", async () => {
    const dataDir = freshSite();
    const server = await serve(dataDir);
    const { run, pid } = await startHeldRun(server, dataDir);
    server.proc.kill("SIGTERM");
    goOn(pid);
    expect(await server.proc.exited).toBe(0);
    await gone(pid);
    const next = await serve(dataDir);
    const [ended] = (await overview(next)).runs;
    expect(ended).toMatchObject({ id: run.id, status: "failed" });
    expect(ended!.error).toBeTruthy();
    expect(leftovers(join(dataDir, "backups"))).toEqual([]);
    await stop(next);
  });
});

describe("the run lock file", () => {
  test("damaged or not a file: the run is recorded failed with a reason (never a 5xx), and works again once removed", async () => {
    const dataDir = freshSite();
    const lockFile = join(dataDir, "cam-guide-backup.lock");
    const server = await serve(dataDir);
    for (const damage of [() => writeFileSync(lockFile, "x".repeat(4096)), () => mkdirSync(lockFile)]) {
      rmSync(lockFile, { recursive: true, force: true });
      damage();
      const res = await backUpNow(server);
      expect(res.status).toBe(202);
      const now = await until(async () => {
        const view = await overview(server);
        return view.running ? undefined : view;
      }, "the refused run recorded");
      expect(now.runs[0]).toMatchObject({ status: "failed" });
      expect(now.runs[0]!.error).toContain(lockFile);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    }
    rmSync(lockFile, { recursive: true, force: true });
    expect((await backUpNow(server)).status).toBe(202);
    const done = await until(async () => {
      const view = await overview(server);
      return view.running ? undefined : view;
    }, "the run ending");
    expect(done.runs[0]).toMatchObject({ status: "ok" });
    expect(statSync(lockFile).mode & 0o777).toBe(0o600);
    await stop(server);
  });
});
