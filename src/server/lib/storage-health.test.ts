import { afterEach, describe, expect, test } from "bun:test";
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statfsSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { type DatabaseHandle, openDatabase } from "#server/db/client.ts";
import { memoryLogger } from "#server/logger.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { fileSizeLimit, removeStaleProbes, StorageHealth, storageFault } from "./storage-health.ts";

/** Overwrites the first bytes of `file` in place (the same inode). */
function writeHead(file: string, text: string): void {
  const fd = openSync(file, "r+");
  writeSync(fd, text, 0);
  closeSync(fd);
}

// Real files in a scratch folder, a real SQLite database in WAL mode, the real disk.

let open: DatabaseHandle | null = null;
afterEach(() => {
  open?.close();
  open = null;
});

function site() {
  const dir = scratchDir("storage");
  const file = join(dir, "app.db");
  open = openDatabase(file);
  open.sqlite.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1);");
  const logger = memoryLogger();
  return { dir, file, logger, health: new StorageHealth({ dir, databaseFile: file, logger }) };
}

describe("the database files opened at start", () => {
  test("in place and a disk with room: ok, and the probe leaves nothing behind", async () => {
    const { dir, health } = site();
    expect(health.check()).toEqual({ ok: true });
    expect(health.recheck()).toEqual({ ok: true });
    expect(await health.settled()).toEqual({ ok: true });
    expect(readdirSync(dir).sort()).toEqual(["app.db", "app.db-shm", "app.db-wal"]);
  });

  test.each([
    ["app.db deleted", (f: string) => rmSync(f), /app\.db is missing/],
    [
      "app.db and its side files deleted",
      (f: string) => {
        for (const suffix of ["", "-wal", "-shm"]) rmSync(f + suffix);
      },
      /missing/,
    ],
    ["app.db moved away", (f: string) => renameSync(f, `${f}.old`), /app\.db is missing/],
    ["the write-ahead log deleted", (f: string) => rmSync(`${f}-wal`), /app\.db-wal is missing/],
    [
      "app.db replaced by a copy of itself",
      (f: string) => {
        copyFileSync(f, `${f}.copy`);
        renameSync(`${f}.copy`, f);
      },
      /app\.db was replaced/,
    ],
    [
      "app.db replaced by an empty file",
      (f: string) => {
        rmSync(f);
        writeFileSync(f, "");
      },
      /app\.db was replaced/,
    ],
  ])("%s: 503 naming the file, logged once", (_, change, reason) => {
    const { file, health, logger } = site();
    change(file);
    for (let i = 0; i < 3; i++) {
      // A copy: Bun's toMatchObject writes the matchers into the object it checks.
      expect({ ...health.check() }).toMatchObject({ ok: false, status: 503, reason: expect.stringMatching(reason) });
    }
    expect(logger.lines.filter((l) => l.includes("cannot be kept"))).toHaveLength(1);
  });

  test.each([
    ["emptied in place (: > app.db)", (f: string) => truncateSync(f, 0), /app\.db shrank from \d+ to 0 bytes/],
    ["its header overwritten", (f: string) => writeHead(f, "garbage garbage garbage"), /no longer starts with SQLite/],
  ])("%s: 503 naming it, for writes and for the database file's own state, until a restart", (_, change, reason) => {
    const { file, health } = site();
    change(file);
    for (const state of [health.check(), health.databaseFileState()])
      expect({ ...state }).toMatchObject({ ok: false, status: 503, reason: expect.stringMatching(reason) });
  });

  test("a write probe left by a process that is gone is removed at start; a live one's is not; stop() leaves none", async () => {
    const { dir, health } = site();
    writeFileSync(join(dir, ".write-probe-999999999"), "");
    writeFileSync(join(dir, `.write-probe-${process.ppid}`), "");
    expect(removeStaleProbes(dir)).toBe(1);
    expect(readdirSync(dir).filter((name) => name.startsWith(".write-probe"))).toEqual([
      `.write-probe-${process.ppid}`,
    ]);
    rmSync(join(dir, `.write-probe-${process.ppid}`));
    health.recheck();
    await health.stop();
    health.check();
    expect(readdirSync(dir).filter((name) => name.startsWith(".write-probe"))).toEqual([]);
  });

  test("a process that exits in the middle of a write probe (a refused start) leaves no probe file", () => {
    const { dir } = site();
    // The probe's file is on the disk and its removal (a promise) can no longer run: the exit comes first.
    const script = `
      const { existsSync } = require("node:fs");
      const { StorageHealth } = await import(process.argv[1]);
      const file = process.argv[2] + "/.write-probe-" + process.pid;
      new StorageHealth({ dir: process.argv[2], databaseFile: null }).recheck();
      while (!existsSync(file)) {}
      console.log("probing");
      process.exit(1);
    `;
    const child = Bun.spawnSync([process.execPath, "-e", script, join(import.meta.dir, "storage-health.ts"), dir]);
    expect(child.stdout.toString().trim()).toBe("probing");
    expect(child.exitCode).toBe(1);
    expect(readdirSync(dir).filter((name) => name.startsWith(".write-probe"))).toEqual([]);
  });

  test("moved away and back (the same file): ok again, and the recovery is logged", () => {
    const { file, health, logger } = site();
    renameSync(file, `${file}.aside`);
    expect(health.check().ok).toBe(false);
    renameSync(`${file}.aside`, file);
    expect(health.check()).toEqual({ ok: true });
    expect(logger.lines.some((l) => l.includes("changes are accepted"))).toBe(true);
  });

  test("app.db written by another program: told once, and never for a side file or a move away and back", () => {
    const { file, dir } = site();
    const told: string[] = [];
    const health = new StorageHealth({ dir, databaseFile: file, onDatabaseChanged: (reason) => told.push(reason) });
    renameSync(`${file}-wal`, `${file}-wal.aside`);
    renameSync(file, `${file}.aside`);
    expect(health.check()).toMatchObject({ ok: false, reason: expect.stringContaining("missing") });
    renameSync(`${file}.aside`, file);
    renameSync(`${file}-wal.aside`, `${file}-wal`);
    expect(health.check()).toEqual({ ok: true });
    expect(told).toEqual([]);
    writeHead(file, "SQLite format 3\0");
    expect(health.check()).toMatchObject({ ok: false, reason: expect.stringContaining("modification time") });
    expect(health.check().ok).toBe(false);
    expect(told).toEqual([expect.stringContaining("written by another program")]);
  });

  test("after this server's own checkpoint, recorded, the file is the database still", () => {
    const { file, dir } = site();
    const health = new StorageHealth({ dir, databaseFile: file });
    open!.sqlite.exec("INSERT INTO t SELECT x + 1 FROM t");
    expect(open!.checkpoint()?.complete).toBe(true);
    health.checkpointed();
    expect(health.databaseFileState()).toEqual({ ok: true });
  });
});

describe("the disk under the data", () => {
  const free = (dir: string) => {
    const { bavail, bsize } = statfsSync(dir);
    return Number(bavail) * Number(bsize);
  };

  test("less free space than the reserve: 507, the disk is full", () => {
    const dir = scratchDir("storage");
    const health = new StorageHealth({ dir, databaseFile: null, reserveBytes: free(dir) * 2 });
    expect({ ...health.check() }).toMatchObject({
      ok: false,
      status: 507,
      reason: expect.stringMatching(/disk .* is full/),
    });
  });

  test("room for a declared size: refused when it would not fit, allowed when it does", () => {
    const dir = scratchDir("storage");
    const health = new StorageHealth({ dir, databaseFile: null });
    expect(health.roomFor(1024)).toEqual({ ok: true });
    expect({ ...health.roomFor(free(dir) * 2) }).toMatchObject({
      ok: false,
      status: 507,
      reason: expect.stringMatching(/free, not enough for/),
    });
  });

  test("a data folder that disappeared: 503, it cannot be examined", () => {
    const dir = scratchDir("storage");
    const health = new StorageHealth({ dir, databaseFile: null });
    rmSync(dir, { recursive: true });
    expect({ ...health.check() }).toMatchObject({ ok: false, status: 503 });
  });

  test("a write the disk refuses: 503 once the background probe has answered, ok again after", async () => {
    const dir = scratchDir("storage");
    const health = new StorageHealth({ dir, databaseFile: null, probeEveryMs: 0 });
    expect(await health.settled()).toEqual({ ok: true });
    // The probe's own file name taken by a folder: the write fails (EISDIR) as on a broken disk.
    const blocker = join(dir, `.write-probe-${process.pid}`);
    mkdirSync(blocker);
    expect({ ...(await health.settled()) }).toMatchObject({
      ok: false,
      status: 503,
      reason: expect.stringMatching(/cannot be written \(EISDIR\)/),
    });
    expect(health.check().ok).toBe(false);
    rmSync(blocker, { recursive: true });
    expect(await health.settled()).toEqual({ ok: true });
    expect(readdirSync(dir)).toEqual([]);
  });

  test("checking never waits on the disk: the write probe runs in the background, at most once per interval", async () => {
    const dir = scratchDir("storage");
    const health = new StorageHealth({ dir, databaseFile: null, probeEveryMs: 60_000 });
    await health.settled();
    mkdirSync(join(dir, `.write-probe-${process.pid}`));
    for (let i = 0; i < 100; i++) expect(health.check()).toEqual({ ok: true });
    // recheck (after a failed write) starts a probe at once.
    health.recheck();
    expect({ ...(await health.settled()) }).toMatchObject({ ok: false, status: 503 });
  });

  test("the process's file size limit is read from the kernel (ulimit -f in a child process)", () => {
    expect(fileSizeLimit()).toBe(Number.POSITIVE_INFINITY);
    const child = Bun.spawnSync([
      "sh",
      "-c",
      `ulimit -f 100 && exec "$0" -e 'const { fileSizeLimit } = await import(process.argv[1]); console.log(fileSizeLimit())' "$1"`,
      process.execPath,
      join(import.meta.dir, "storage-health.ts"),
    ]);
    expect(child.stdout.toString().trim()).toBe(String(100 * 512));
  });
});

describe("which errors are storage faults", () => {
  const os = (code: string, syscall = "write") => Object.assign(new Error(code), { code, syscall });
  const sqlite = (code: string) => Object.assign(new Error(code), { code, errno: 1 });
  test.each([
    ["SQLITE_FULL", "full", () => sqlite("SQLITE_FULL")],
    ["SQLITE_IOERR_WRITE", "broken", () => sqlite("SQLITE_IOERR_WRITE")],
    ["SQLITE_IOERR_FSYNC", "broken", () => sqlite("SQLITE_IOERR_FSYNC")],
    ["SQLITE_CANTOPEN", "broken", () => sqlite("SQLITE_CANTOPEN")],
    ["SQLITE_READONLY_DBMOVED", "broken", () => sqlite("SQLITE_READONLY_DBMOVED")],
    ["SQLITE_NOTADB", "broken", () => sqlite("SQLITE_NOTADB")],
    [
      "SQLITE_FULL wrapped twice",
      "full",
      () => new Error("a", { cause: new Error("b", { cause: sqlite("SQLITE_FULL") }) }),
    ],
    ["ENOSPC", "full", () => os("ENOSPC")],
    ["EDQUOT", "full", () => os("EDQUOT")],
    ["EFBIG", "full", () => os("EFBIG")],
    ["EIO", "broken", () => os("EIO", "fsync")],
    ["EROFS", "broken", () => os("EROFS", "open")],
    ["SQLITE_CONSTRAINT_UNIQUE", null, () => sqlite("SQLITE_CONSTRAINT_UNIQUE")],
    ["SQLITE_BUSY", null, () => sqlite("SQLITE_BUSY")],
    ["an HttpError", null, () => new HttpError(422, "no")],
    ["a plain error", null, () => new Error("boom")],
    ["ENOENT that is not from a file call", null, () => Object.assign(new Error("x"), { code: "ENOENT" })],
    ["a string", null, () => "ENOSPC"],
    ["null", null, () => null],
  ] as [string, string | null, () => unknown][])("%s -> %p", (_, expected, error) =>
    expect(storageFault(error())).toBe(expected as never),
  );
});
