import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { scratchDir } from "#tests/support/scratch.ts";
import { descriptorShortage } from "./descriptors.ts";

// Running out of descriptors for real: a child process under `ulimit -n 64` opens files until
// the system refuses, and reports what the storage monitor made of it.
const CHILD = `
import { openSync, closeSync } from "node:fs";
import { StorageHealth } from "#server/lib/storage-health.ts";
import { reserveDescriptor } from "#server/lib/descriptors.ts";
import { memoryLogger } from "#server/logger.ts";
const logger = memoryLogger();
reserveDescriptor();
const health = new StorageHealth({ dir: process.env.DIR, databaseFile: null, logger });
const held = [];
try { for (;;) held.push(openSync("/dev/null", "r")); } catch (error) { if (error.code !== "EMFILE") throw error; }
const during = { check: health.check(), settled: await health.settled(), problem: health.descriptorProblem() };
for (const fd of held) closeSync(fd);
const after = { settled: await health.settled(), problem: health.descriptorProblem() };
console.log(JSON.stringify({ during, after, log: logger.lines }));
`;

describe("running out of file descriptors", () => {
  test("is its own state: named with the limit and the count, never a storage fault; it passes", async () => {
    const child = Bun.spawnSync(["sh", "-c", 'ulimit -n 64 && exec "$0" -e "$1"', process.execPath, CHILD], {
      cwd: join(import.meta.dir, "..", "..", ".."),
      env: { ...process.env, DIR: scratchDir("descriptors") },
    });
    expect(child.stderr.toString()).toBe("");
    const { during, after, log } = JSON.parse(child.stdout.toString());
    // Writes to the open database still work: the storage is not blamed and writes are not refused.
    expect(during.check).toEqual({ ok: true });
    expect(during.settled).toEqual({ ok: true });
    expect(during.problem).toBe("the server has run out of file descriptors (limit 64, in use 64)");
    expect(after).toEqual({ settled: { ok: true }, problem: null });
    const text = log.join("\n");
    expect(text).toContain("run out of file descriptors (limit 64, in use 64): raise the limit (ulimit -n");
    expect(text).toContain("LimitNOFILE=");
    expect(text).toContain("file descriptors are available again");
    expect(text).not.toContain("data cannot be kept");
  });

  test("EMFILE and ENFILE are recognised through wrapped errors; other codes are not", () => {
    const emfile = Object.assign(new Error("EMFILE"), { code: "EMFILE" });
    expect(descriptorShortage(emfile)).toBe("EMFILE");
    expect(descriptorShortage(new Error("query failed", { cause: { code: "ENFILE" } }))).toBe("ENFILE");
    expect(descriptorShortage(Object.assign(new Error("EIO"), { code: "EIO" }))).toBeNull();
    expect(descriptorShortage(null)).toBeNull();
  });
});
