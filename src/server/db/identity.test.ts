import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { scratchDir } from "#tests/support/scratch.ts";
import { applyMigrations, openDatabase } from "./client.ts";
import { APPLICATION_ID, recogniseDatabaseFile, settleIdentity, watchDatabaseFile } from "./identity.ts";

// Real files: each judged as the server judges app.db before SQLite may open it.

const hash = (path: string) => new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");

/** A cam-guide database made by this release, closed (its log folded in), and its id. */
function ours(): { file: string; id: number } {
  const file = join(scratchDir("identity"), "app.db");
  const handle = openDatabase(file);
  applyMigrations(handle);
  const id = settleIdentity(handle);
  handle.close();
  return { file, id };
}

/** A database an older release made: the migrations, no identity in its header. */
function older(): string {
  const file = join(scratchDir("identity"), "app.db");
  const sqlite = new Database(file);
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.close();
  const handle = openDatabase(file);
  applyMigrations(handle);
  handle.close();
  return file;
}

function foreign(sql: string): string {
  const file = join(scratchDir("identity"), "app.db");
  const sqlite = new Database(file);
  sqlite.exec(sql);
  sqlite.close();
  return file;
}

describe("app.db judged by its bytes", () => {
  test("this release's database: recognised with its id, also by a folder that lists it", () => {
    const { file, id } = ours();
    expect(id).toBeGreaterThan(0);
    expect(recogniseDatabaseFile(file, [])).toEqual({ ok: true, id });
    expect(recogniseDatabaseFile(file, [1, id])).toEqual({ ok: true, id });
  });

  test("an older release's database: recognised by its migration history, until the folder lists ids", () => {
    const file = older();
    expect(recogniseDatabaseFile(file, [])).toEqual({ ok: true, id: null });
    expect(recogniseDatabaseFile(file, [5])).toMatchObject({
      ok: false,
      problem: expect.stringContaining("never held"),
    });
  });

  test.each([
    ["empty", (f: string) => writeFileSync(f, ""), "is empty (0 bytes)"],
    ["text", (f: string) => writeFileSync(f, "hello\n".repeat(2000)), "not a SQLite database"],
    ["50 bytes of the header", (f: string) => truncateSync(f, 50), "not a SQLite database"],
    ["the header overwritten", (f: string) => writeHead(f, Buffer.alloc(16, 0xa5)), "not a SQLite database"],
    ["an impossible page size", (f: string) => writeHead(f, Buffer.from([0, 3]), 16), "impossible page size"],
    ["cut to one page", (f: string) => truncateSync(f, 4096), "is cut short (its header counts"],
    ["cut in the middle of a page", (f: string) => truncateSync(f, 4096 * 3 + 100), "whole number"],
    ["another site's id", (f: string) => writeHead(f, int32(12345), 60), "another cam-guide site's database"],
    ["another program's id", (f: string) => writeHead(f, int32(7), 68), "belongs to another program"],
  ])("%s: refused", (_, damage, problem) => {
    const { file, id } = ours();
    damage(file);
    expect(recogniseDatabaseFile(file, [id])).toMatchObject({ ok: false, problem: expect.stringContaining(problem) });
  });

  test.each([
    ["no tables", "PRAGMA user_version = 3", "no cam-guide migration history"],
    ["another program's tables", "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')", "no cam-guide"],
    ["an empty migration table", "CREATE TABLE __drizzle_migrations (id, hash, created_at)", "no cam-guide"],
  ])("a SQLite database with %s: refused", (_, sql, problem) => {
    expect(recogniseDatabaseFile(foreign(sql), [])).toMatchObject({
      ok: false,
      problem: expect.stringContaining(problem),
    });
  });

  test("a folder or a pipe in place of app.db: refused", () => {
    const dir = scratchDir("identity");
    mkdirSync(join(dir, "app.db"));
    expect(recogniseDatabaseFile(join(dir, "app.db"), [])).toMatchObject({
      ok: false,
      problem: "is a folder, not a database file",
    });
    Bun.spawnSync(["mkfifo", join(dir, "pipe")]);
    expect(recogniseDatabaseFile(join(dir, "pipe"), [])).toMatchObject({
      ok: false,
      problem: expect.stringContaining("not a plain file"),
    });
  });

  test("judging reads only: the file, its log and index stay byte for byte", () => {
    const { file } = ours();
    const live = new Database(file);
    live.run("PRAGMA wal_autocheckpoint = 0");
    live.run("CREATE TABLE more (x)");
    const files = [file, `${file}-wal`, `${file}-shm`];
    const before = files.map(hash);
    truncateSync(file, 4096);
    const cut = files.map(hash);
    expect(recogniseDatabaseFile(file, []).ok).toBe(false);
    expect(files.map(hash)).toEqual(cut);
    expect(cut.slice(1)).toEqual(before.slice(1));
    live.close();
  });
});

describe("a checkpoint cut short by a crash (page 1 written, the file not yet extended)", () => {
  /** The files as a crash mid-checkpoint leaves them, copied out while the log is intact. */
  function crashState(cutTo: (grownPages: number, oldPages: number) => number) {
    const { file, id } = ours();
    const sqlite = new Database(file);
    sqlite.run("PRAGMA wal_autocheckpoint = 0");
    sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const oldSize = statSync(file).size;
    sqlite.run("CREATE TABLE filler (x)");
    for (let i = 0; i < 200; i++) sqlite.run("INSERT INTO filler VALUES (?)", ["x".repeat(1000)]);
    // Everything folded into the file, the log left in place (a passive checkpoint does not reset it).
    sqlite.run("PRAGMA wal_checkpoint(PASSIVE)");
    const copy = join(scratchDir("crash"), "app.db");
    copyFileSync(file, copy);
    copyFileSync(`${file}-wal`, `${copy}-wal`);
    sqlite.close();
    truncateSync(copy, cutTo(statSync(copy).size / 4096, oldSize / 4096) * 4096);
    return { copy, id };
  }

  test("every missing page is in the committed log: recognised (SQLite completes it)", () => {
    const { copy, id } = crashState((_, old) => old);
    expect(recogniseDatabaseFile(copy, [id])).toEqual({ ok: true, id });
  });

  test("pages the log does not hold are gone: refused", () => {
    const { copy, id } = crashState(() => 1);
    expect(recogniseDatabaseFile(copy, [id])).toMatchObject({ ok: false });
  });

  test("the same cut with a damaged log (one byte of a frame changed): refused", () => {
    const { copy, id } = crashState((_, old) => old);
    const log = readFileSync(`${copy}-wal`);
    log[32 + 24 + 100] = log[32 + 24 + 100]! ^ 0xff;
    writeFileSync(`${copy}-wal`, log);
    expect(recogniseDatabaseFile(copy, [id])).toMatchObject({ ok: false });
  });
});

describe("the running server's watch on the file", () => {
  test("growth and checkpoints are fine; shrinking, a new header or another id is seen, and stays seen", () => {
    const { file, id } = ours();
    const handle = openDatabase(file);
    const watch = watchDatabaseFile(file, id);
    handle.sqlite.run("CREATE TABLE grow (x)");
    for (let i = 0; i < 300; i++) handle.sqlite.run("INSERT INTO grow VALUES (?)", ["y".repeat(500)]);
    handle.sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
    expect(watch.problem()).toBeNull();
    writeHead(file, int32(id + 1), 60);
    expect(watch.problem()).toContain("another database");
    writeHead(file, int32(id), 60);
    expect(watch.problem()).toContain("another database");
    watch.close();
    handle.close({ checkpoint: false });
  });

  test.each([
    ["emptied", (f: string) => truncateSync(f, 0), "shrank"],
    ["cut to a page", (f: string) => truncateSync(f, 4096), "shrank"],
    ["its first bytes overwritten", (f: string) => writeHead(f, Buffer.from("garbage garbage!")), "header"],
    ["another program's id", (f: string) => writeHead(f, int32(99), 68), "another database"],
  ])("%s: seen", (_, damage, problem) => {
    const { file, id } = ours();
    const watch = watchDatabaseFile(file, id);
    expect(watch.problem()).toBeNull();
    damage(file);
    expect(watch.problem()).toContain(problem);
    watch.close();
  });

  test("an older release's database given its id at start: the new header is still this database", () => {
    const file = older();
    const watch = watchDatabaseFile(file);
    const handle = openDatabase(file);
    const id = settleIdentity(handle);
    const watchAfter = watchDatabaseFile(file, id);
    expect(readFileSync(file).readInt32BE(68)).toBe(APPLICATION_ID);
    expect(watchAfter.problem()).toBeNull();
    expect(watch.problem()).toContain("another database");
    for (const w of [watch, watchAfter]) w.close();
    handle.close();
  });
});

function int32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
}

/** Overwrites bytes of `file` in place (the same inode), as `dd conv=notrunc` would. */
function writeHead(file: string, bytes: Buffer, at = 0): void {
  const fd = openSync(file, "r+");
  writeSync(fd, bytes, 0, bytes.length, at);
  closeSync(fd);
}

describe("the server's connection when its file stops being the database", () => {
  test("the write guard refuses every write and commit, reads still run", async () => {
    const { file } = ours();
    const handle = openDatabase(file, { keeper: true });
    const { inTransaction } = await import("./transaction.ts");
    const { siteSettings } = await import("./schema.ts");
    let refuse = false;
    handle.guardWrites(() => {
      if (refuse) throw new Error("refused by the guard");
    });
    refuse = true;
    await expect((async () => await handle.db.delete(siteSettings))()).rejects.toThrow("refused by the guard");
    await expect(inTransaction(handle.db, async (tx) => tx.delete(siteSettings))).rejects.toThrow("refused");
    expect(await handle.db.$count(siteSettings)).toBeGreaterThanOrEqual(0);
    handle.close();
  });

  test("closed without a checkpoint, the log and the emptied file stay as they are; a normal close folds the log in", () => {
    for (const checkpoint of [false, true]) {
      const { file } = ours();
      const handle = openDatabase(file, { keeper: true });
      handle.sqlite.run("CREATE TABLE kept (x)");
      handle.sqlite.run("INSERT INTO kept VALUES (1)");
      if (!checkpoint) truncateSync(file, 0);
      const before = [file, `${file}-wal`].map(hash);
      handle.close({ checkpoint });
      if (checkpoint) expect(existsSync(`${file}-wal`)).toBe(false);
      else expect([file, `${file}-wal`].map(hash)).toEqual(before);
    }
  });
});
