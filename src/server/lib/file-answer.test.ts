import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { memoryLogger } from "#server/logger.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { fileAnswer } from "./file-answer.ts";

const HEADERS = { "content-type": "application/octet-stream" };
let dir: string;
const small = new Uint8Array(1000).map((_, i) => i % 251);
const large = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 7) % 253);

beforeAll(() => {
  dir = scratchDir("file-answer");
  writeFileSync(join(dir, "small.bin"), small);
  writeFileSync(join(dir, "large.bin"), large);
  writeFileSync(join(dir, "empty.bin"), "");
  mkdirSync(join(dir, "folder"));
  symlinkSync(join(dir, "small.bin"), join(dir, "link.bin"));
});

const ask = (name: string, range?: string, logger = memoryLogger()) =>
  fileAnswer(join(dir, name), new Request("http://x/f", range ? { headers: { range } } : {}), HEADERS, logger);
const open = () => readdirSync("/proc/self/fd").length;

describe("a file from disk, opened before the answer is made", () => {
  test("a small file whole, with its length; a range of it as 206", async () => {
    const whole = (await ask("small.bin"))!;
    expect([whole.status, whole.headers.get("content-type")]).toEqual([200, "application/octet-stream"]);
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(small);
    const part = (await ask("small.bin", "bytes=10-19"))!;
    expect([part.status, part.headers.get("content-range")]).toEqual([206, "bytes 10-19/1000"]);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(small.slice(10, 20));
    expect((await ask("small.bin", "bytes=2000-"))!.status).toBe(416);
  });

  test("a large file streams as the client reads it, whole or in a range, and is closed after", async () => {
    const before = open();
    const whole = (await ask("large.bin"))!;
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(large);
    const part = (await ask("large.bin", "bytes=1000000-"))!;
    expect(part.headers.get("content-range")).toBe(`bytes 1000000-${large.length - 1}/${large.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(large.slice(1_000_000));
    expect(open()).toBe(before);
  });

  test("a client that goes away mid-file closes it", async () => {
    const before = open();
    const reader = (await ask("large.bin"))!.body!.getReader();
    await reader.read();
    expect(open()).toBe(before + 1);
    await reader.cancel();
    expect(open()).toBe(before);
  });

  test("not there, a folder or a symbolic link: null (the caller's 404)", async () => {
    for (const name of ["missing.bin", "folder", "link.bin", "small.bin/inside"]) expect(await ask(name)).toBeNull();
    expect((await ask("empty.bin"))!.status).toBe(200);
  });

  test("any other failure to open it: a 503 to retry, logged, never a 500", async () => {
    const logger = memoryLogger();
    const res = (await fileAnswer(join(dir, "x".repeat(5000)), new Request("http://x/f"), HEADERS, logger))!;
    expect([res.status, res.headers.get("retry-after"), res.headers.get("cache-control")]).toEqual([
      503,
      "60",
      "no-store",
    ]);
    expect(await res.text()).toBe("This file cannot be read just now. Please try again in a minute.\n");
    expect(logger.lines.join("\n")).toContain("could not open a file to send");
  });
});

// Out of descriptors for real: a child under `ulimit -n 64` opens files until refused, then asks.
const CHILD = `
import { openSync, closeSync } from "node:fs";
import { fileAnswer } from "#server/lib/file-answer.ts";
import { memoryLogger } from "#server/logger.ts";
const held = [];
try { for (;;) held.push(openSync("/dev/null", "r")); } catch (error) { if (error.code !== "EMFILE") throw error; }
const res = await fileAnswer(process.env.FILE, new Request("http://x/f"), {}, memoryLogger());
const during = { status: res.status, retry: res.headers.get("retry-after"), text: await res.text() };
for (const fd of held) closeSync(fd);
const after = (await fileAnswer(process.env.FILE, new Request("http://x/f"), {}, memoryLogger())).status;
console.log(JSON.stringify({ during, after }));
`;

test("out of file descriptors: a 503 saying so, to retry; once they return, the file", () => {
  const child = Bun.spawnSync(["sh", "-c", 'ulimit -n 64 && exec "$0" -e "$1"', process.execPath, CHILD], {
    cwd: join(import.meta.dir, "..", "..", ".."),
    env: { ...process.env, FILE: join(dir, "small.bin") },
  });
  expect(child.stderr.toString()).toBe("");
  expect(JSON.parse(child.stdout.toString())).toEqual({
    during: {
      status: 503,
      retry: "60",
      text: "The server has too many connections and files open to send this file now. Please try again in a minute.\n",
    },
    after: 200,
  });
});
