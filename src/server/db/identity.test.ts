import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { writeLogOnlyCopy } from "#tests/support/log-only-database.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { until } from "#tests/support/site-files.ts";
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

describe("a file with the site's ids: its tables must be there, in the file or its log", () => {
  /** A file as `sqlite3` makes it by hand: the ids and nothing else. */
  function idsOnly(id: number): string {
    return foreign(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${id};`);
  }

  test("the ids and no tables, in a folder that held the site: refused, the lost log named", () => {
    const file = idsOnly(4242);
    expect(recogniseDatabaseFile(file, [4242])).toMatchObject({
      ok: false,
      problem: expect.stringContaining(
        "app.db-wal, which holds what was written since the last checkpoint, may be missing",
      ),
    });
    // Only a file a first start is creating (no marker yet) may be that empty.
    expect(recogniseDatabaseFile(file, [], { siteHeld: false })).toEqual({ ok: true, id: 4242 });
    expect(recogniseDatabaseFile(file, [], { siteHeld: true })).toMatchObject({ ok: false });
  });

  test("everything in the log, the file one page: recognised with its log, refused without it", () => {
    const { file: source, id } = ours();
    const file = join(scratchDir("log-only"), "app.db");
    writeLogOnlyCopy(source, file);
    expect(statSync(file).size).toBe(4096);
    const files = [file, `${file}-wal`, `${file}-shm`];
    const before = files.map(hash);
    expect(recogniseDatabaseFile(file, [id])).toEqual({ ok: true, id });
    expect(files.map(hash)).toEqual(before);
    rmSync(`${file}-wal`);
    expect(recogniseDatabaseFile(file, [id])).toMatchObject({
      ok: false,
      problem: expect.stringContaining("may be missing"),
    });
    rmSync(`${file}-shm`);
    expect(recogniseDatabaseFile(file, [id])).toMatchObject({
      ok: false,
      problem: expect.stringContaining("may be missing"),
    });
    expect(existsSync(`${file}-wal`) || existsSync(`${file}-shm`)).toBe(false);
  });

  test("an older release's database whose tables are only in its log: recognised", () => {
    const source = older();
    const file = join(scratchDir("log-only"), "app.db");
    writeLogOnlyCopy(source, file);
    expect(recogniseDatabaseFile(file, [])).toEqual({ ok: true, id: null });
  });

  test.each([
    ["page 2", 1],
    ["a page in the middle", 20],
    ["the last pages", -3],
  ])("%s zeroed inside: refused as damaged, and nothing is made beside it", (_, at) => {
    const { file, id } = ours();
    const pages = statSync(file).size / 4096;
    writeHead(file, Buffer.alloc(3 * 4096), (at < 0 ? pages + at : at) * 4096);
    const before = hash(file);
    expect(recogniseDatabaseFile(file, [id])).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/is damaged|cannot be read/),
    });
    expect(hash(file)).toBe(before);
    expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]);
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
  test("its own checkpoints, recorded, are fine; shrinking, a new header or another id is seen, and stays seen", () => {
    const { file, id } = ours();
    const handle = openDatabase(file);
    const watch = watchDatabaseFile(file);
    handle.sqlite.run("CREATE TABLE grow (x)");
    for (let i = 0; i < 300; i++) handle.sqlite.run("INSERT INTO grow VALUES (?)", ["y".repeat(500)]);
    expect(watch.problem()).toBeNull();
    expect(handle.checkpoint()).toEqual({ complete: true, frames: 0, folded: 0 });
    watch.record();
    expect(watch.problem()).toBeNull();
    writeHead(file, int32(id + 1), 60);
    expect(watch.problem()).toContain("another database");
    writeHead(file, int32(id), 60);
    watch.record();
    expect(watch.problem()).toContain("another database");
    watch.close();
    handle.close({ checkpoint: false });
  });

  test("no connection checkpoints by itself: a thousand commits leave the file as it was", () => {
    const { file } = ours();
    const handle = openDatabase(file);
    const watch = watchDatabaseFile(file);
    const before = hash(file);
    handle.sqlite.run("CREATE TABLE grow (x)");
    for (let i = 0; i < 1500; i++) handle.sqlite.run("INSERT INTO grow VALUES (?)", ["z".repeat(3000)]);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(4 * 1024 * 1024);
    expect(hash(file)).toBe(before);
    expect(watch.problem()).toBeNull();
    watch.close();
    handle.close();
  });

  test("a checkpoint the watch was not told of is a write by another program", () => {
    const { file } = ours();
    const handle = openDatabase(file);
    const watch = watchDatabaseFile(file);
    handle.sqlite.run("CREATE TABLE grow (x)");
    handle.sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
    expect(watch.problem()).toContain("written by another program");
    watch.close();
    handle.close();
  });

  test.each([
    ["emptied", (f: string) => truncateSync(f, 0), "shrank"],
    ["cut to a page", (f: string) => truncateSync(f, 4096), "shrank"],
    ["its first bytes overwritten", (f: string) => writeHead(f, Buffer.from("garbage garbage!")), "header"],
    ["another program's id", (f: string) => writeHead(f, int32(99), 68), "another database"],
    ["the same bytes written again", (f: string) => writeFileSync(f, readFileSync(f)), "modification time"],
    ["one byte past the header changed", (f: string) => writeHead(f, Buffer.from([1]), 5000), "modification time"],
    ["grown by a page", (f: string) => writeHead(f, Buffer.alloc(4096), statSync(f).size), "size"],
    [
      "written, then its modification time set back (touch -r)",
      (f: string) => {
        // touch sets the time to the nanosecond, as the attack did.
        Bun.spawnSync(["touch", "-r", f, `${f}.time`]);
        writeHead(f, Buffer.from([1]), 5000);
        Bun.spawnSync(["touch", "-r", `${f}.time`, f]);
      },
      "the time was set back",
    ],
  ])("%s: seen", (_, damage, problem) => {
    const { file } = ours();
    const watch = watchDatabaseFile(file);
    expect(watch.problem()).toBeNull();
    damage(file);
    expect(watch.problem()).toContain(problem);
    watch.close();
  });

  /** Writes one byte at `at` in `file` and sets its times back as they were, as touch -r does. */
  function writeWithTimeSetBack(file: string, at: number): void {
    Bun.spawnSync(["touch", "-r", file, `${file}.time`]);
    writeHead(file, Buffer.from([0xa5]), at);
    Bun.spawnSync(["touch", "-r", `${file}.time`, file]);
  }

  /** A database of ours holding `rows` rows of 900 bytes, folded into its file, still open. */
  function filled(rows: number) {
    const { file } = ours();
    const handle = openDatabase(file);
    handle.sqlite.run("CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT)");
    const insert = handle.sqlite.prepare("INSERT INTO filler (body) VALUES (?)");
    handle.sqlite.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run("x".repeat(900));
    })();
    handle.checkpoint();
    return { file, handle, insert };
  }

  test("its own checkpoints, noted beforehand, have only what they wrote hashed again: a new mode after is not a write, a byte written with the time set back is", () => {
    const { file, handle, insert } = filled(4000);
    const watch = watchDatabaseFile(file);
    // Rows changed all over the file, and rows added at its end, in three checkpoints.
    const update = handle.sqlite.prepare("UPDATE filler SET body = ? WHERE id = ?");
    for (let round = 1; round <= 3; round++) {
      for (let i = 0; i < 200; i++) update.run(`${round}-${i}`.padEnd(900, "y"), 1 + ((i * 7919 * round) % 4000));
      for (let i = 0; i < 100; i++) insert.run("z".repeat(900));
      const before = statSync(file).size;
      watch.beforeCheckpoint();
      expect(handle.checkpoint()?.complete).toBe(true);
      watch.record();
      expect(statSync(file).size).toBeGreaterThan(before);
      chmodSync(file, round % 2 ? 0o640 : 0o600);
      expect(watch.problem()).toBeNull();
    }
    // A byte in the middle of the file, which no checkpoint wrote, with the time set back.
    writeWithTimeSetBack(file, Math.floor(statSync(file).size / 2) + 123);
    expect(watch.problem()).toContain("the time was set back");
    watch.close();
    handle.close({ checkpoint: false });
  });

  test("a file larger than what is hashed at once is hashed in the background; caught up, a byte written with the time set back is seen", async () => {
    const { file, handle } = filled(3000);
    handle.close();
    const watch = watchDatabaseFile(file, { hashedAtStart: 0 });
    expect(watch.hashed()).toBe(false);
    await until("the background hashing", () => watch.hashed());
    writeWithTimeSetBack(file, statSync(file).size - 100);
    expect(watch.problem()).toContain("the time was set back");
    watch.close();
  });

  test("a new mode, a hard link, a move away and back or the access time restored is not a write", () => {
    const { file } = ours();
    const watch = watchDatabaseFile(file);
    chmodSync(file, 0o640);
    expect(watch.problem()).toBeNull();
    linkSync(file, `${file}.link`);
    expect(watch.problem()).toBeNull();
    renameSync(file, `${file}.aside`);
    renameSync(`${file}.aside`, file);
    expect(watch.problem()).toBeNull();
    // As tar --atime-preserve does after reading it.
    Bun.spawnSync(["touch", "-a", "-d", "2001-01-01", file]);
    expect(watch.problem()).toBeNull();
    watch.close();
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
