import { afterEach, describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { memoryLogger } from "#server/logger.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { type Checkpoints, scheduleCheckpoints } from "./checkpoints.ts";
import { type DatabaseHandle, openDatabase } from "./client.ts";

// A real database file in WAL mode and the real timer, with short intervals.

let open: { handle: DatabaseHandle; checkpoints?: Checkpoints } | null = null;
afterEach(() => {
  open?.checkpoints?.stop();
  open?.handle.close();
  open = null;
});

function database() {
  const file = join(scratchDir("checkpoints"), "app.db");
  const handle = openDatabase(file);
  handle.sqlite.run("CREATE TABLE t (x)");
  handle.checkpoint();
  open = { handle };
  const write = (rows = 1) => {
    for (let i = 0; i < rows; i++) handle.sqlite.run("INSERT INTO t VALUES (?)", ["x".repeat(3000)]);
  };
  const logSize = () => statSync(`${file}-wal`).size;
  /** Starts the server's checkpoints on this file; the answer counts how often the monitor was told. */
  const schedule = (options: { everyMs: number; logBytes?: number; mayWrite: () => boolean }) => {
    let told = 0;
    open!.checkpoints = scheduleCheckpoints({ database: handle, file, ...options, written: () => told++ });
    return () => told;
  };
  return { file, handle, write, logSize, schedule };
}

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("did not happen in time");
    await Bun.sleep(10);
  }
}

describe("the server's checkpoints", () => {
  test("the log is folded in and emptied once the interval has passed, and the monitor is told each time", async () => {
    const { write, logSize, schedule } = database();
    const told = schedule({ everyMs: 100, mayWrite: () => true });
    write(10);
    expect(logSize()).toBeGreaterThan(0);
    await until(() => logSize() === 0);
    expect(told()).toBe(1);
    // Nothing new in the log: nothing to do, however long it waits.
    await Bun.sleep(300);
    expect(told()).toBe(1);
    write();
    await until(() => told() === 2);
  });

  test("a log that grows past the size is folded in at once, before the interval", async () => {
    const { write, logSize, schedule } = database();
    const told = schedule({ everyMs: 60_000, logBytes: 256 * 1024, mayWrite: () => true });
    write(5);
    await Bun.sleep(1200);
    expect(told()).toBe(0);
    write(100);
    await until(() => told() === 1, 3000);
    expect(logSize()).toBe(0);
  });

  test("never while the file is not ours: nothing written, the monitor not told", async () => {
    const { file, write, logSize, schedule } = database();
    const before = statSync(file, { bigint: true }).mtimeNs;
    const told = schedule({ everyMs: 50, mayWrite: () => false });
    write(10);
    const size = logSize();
    await Bun.sleep(1200);
    expect({ told: told(), log: logSize(), file: statSync(file, { bigint: true }).mtimeNs }).toEqual({
      told: 0,
      log: size,
      file: before,
    });
    expect(open!.checkpoints!.run()).toBeNull();
  });

  test("a reader in another connection: folded as far as it can without waiting, emptied once it is gone", () => {
    const { file, handle, write, logSize } = database();
    const checkpoints = scheduleCheckpoints({ database: handle, file, mayWrite: () => true, written: () => {} });
    open!.checkpoints = checkpoints;
    write(5);
    const reader = openDatabase(file);
    reader.sqlite.run("BEGIN");
    reader.sqlite.query("SELECT count(*) FROM t").get();
    write(5);
    const started = performance.now();
    const partial = checkpoints.run();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(partial).toMatchObject({ complete: false });
    expect(logSize()).toBeGreaterThan(0);
    reader.sqlite.run("COMMIT");
    reader.close();
    expect(checkpoints.run()).toEqual({ complete: true, frames: 0, folded: 0 });
    expect(logSize()).toBe(0);
  });

  test("inside an open transaction: not run, nothing told", () => {
    const { file, handle } = database();
    let told = 0;
    const checkpoints = scheduleCheckpoints({ database: handle, file, mayWrite: () => true, written: () => told++ });
    open!.checkpoints = checkpoints;
    handle.sqlite.run("BEGIN");
    expect(checkpoints.run()).toBeNull();
    handle.sqlite.run("COMMIT");
    expect(told).toBe(0);
  });

  test("a failed checkpoint is logged once, and the monitor is told (part of the file may be written)", () => {
    const logger = memoryLogger();
    let told = 0;
    const failing = {
      checkpoint(): never {
        throw new Error("database or disk is full");
      },
    };
    const { file } = database();
    const checkpoints = scheduleCheckpoints({
      database: failing,
      file,
      mayWrite: () => true,
      written: () => told++,
      logger,
    });
    open!.checkpoints = checkpoints;
    expect(checkpoints.run()).toBeNull();
    expect(checkpoints.run()).toBeNull();
    expect(told).toBe(2);
    expect(logger.lines.filter((line) => line.includes("checkpoint failed"))).toHaveLength(1);
  });
});
