import { constants, Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { writeLogOnlyCopy } from "#tests/support/log-only-database.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { applyMigrations, openDatabase } from "./client.ts";
import { type Inspection, inspectDatabaseFile, integrityProblem, noteCleanStop, UNSTEADY } from "./file-view.ts";
import { settleIdentity } from "./identity.ts";

// Real files: the checks every command makes before it opens app.db, read without SQLite
// opening the file, its log or its index.

function migrated(): string {
  const file = join(scratchDir("view"), "app.db");
  const handle = openDatabase(file);
  applyMigrations(handle);
  settleIdentity(handle);
  handle.close();
  return file;
}

const snapshot = (dir: string) =>
  readdirSync(dir)
    .sort()
    .map((name) => `${name} ${Bun.hash(readFileSync(join(dir, name)))}`);

describe("a database read through the view", () => {
  test("the file alone, and the file with its log laid over it, read the same; nothing is made or changed", () => {
    const file = migrated();
    expect(inspectDatabaseFile(file)).toEqual({ history: true, damage: null, migrations: null, pending: null });
    const copy = join(scratchDir("view"), "app.db");
    writeLogOnlyCopy(file, copy);
    const before = snapshot(join(copy, ".."));
    expect(inspectDatabaseFile(copy)).toEqual({ history: true, damage: null, migrations: null, pending: null });
    expect(snapshot(join(copy, ".."))).toEqual(before);
  });

  test("a migration this build does not know, recorded only in the log, is seen", () => {
    const file = migrated();
    const handle = openDatabase(file);
    handle.sqlite.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('later', 99999999999999)");
    const copy = join(scratchDir("view"), "app.db");
    writeLogOnlyCopy(file, copy);
    handle.close({ checkpoint: false });
    expect(inspectDatabaseFile(copy).migrations).toContain("newer cam-guide");
    expect(existsSync(`${copy}-wal`)).toBe(true);
  });

  test("checked under a process that writes and checkpoints all the time: never a false alarm", async () => {
    const file = migrated();
    // The writer goes on until the reader has looked ten times (a busy machine makes each look
    // slower, so a fixed time could leave too few to mean anything). A look under churn waits
    // up to 3 s for the file to stand still, so ten take at most about half a minute.
    const stop = join(scratchDir("churn"), "stop");
    const script = `
      const { existsSync } = require("node:fs");
      const { Database } = require("bun:sqlite");
      const db = new Database(${JSON.stringify(file)});
      db.run("PRAGMA journal_mode = WAL"); db.run("PRAGMA wal_autocheckpoint = 0");
      db.run("CREATE TABLE churn (x)");
      console.log("ready");
      for (let i = 0; !existsSync(${JSON.stringify(stop)}); i++) {
        // A checkpoint every few tens of milliseconds: the server makes one every 30 s.
        Bun.sleepSync(1);
        db.run("INSERT INTO churn VALUES (?)", ["x".repeat(2000)]);
        if (i % 20 === 0) db.run("DELETE FROM churn WHERE rowid % 3 = 0");
        if (i % 25 === 0) db.run(i % 50 === 0 ? "PRAGMA wal_checkpoint(TRUNCATE)" : "PRAGMA wal_checkpoint(PASSIVE)");
      }
      db.close();`;
    const writer = Bun.spawn(["bun", "-e", script], { stdout: "pipe", stderr: "inherit" });
    const reader = writer.stdout.getReader();
    await reader.read();
    const seen: unknown[] = [];
    try {
      while (seen.length < 10 && writer.exitCode === null) {
        seen.push(inspectDatabaseFile(file));
        await Bun.sleep(5);
      }
    } finally {
      writeFileSync(stop, "");
      await writer.exited;
    }
    expect(writer.exitCode).toBe(0);
    expect(seen).toHaveLength(10);
    // Sound, or (on a machine too busy for any read to stand still for 3 s) unchecked: never damaged.
    const sound = JSON.stringify({ history: true, damage: null, migrations: null, pending: null });
    expect(seen.filter((s) => JSON.stringify(s) !== sound && (s as Inspection).damage !== UNSTEADY)).toEqual([]);
  }, 60_000);
});

/** Breaks the first page of one table (its page type), as a failing disk might: the file still opens. */
function damageTable(file: string, name = "quiz_results"): void {
  // Read as an immutable file: no log or index is made beside it.
  const sqlite = new Database(`file:${file}?immutable=1`, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI);
  const { rootpage } = sqlite.query("SELECT rootpage FROM sqlite_master WHERE name = ?").get(name) as {
    rootpage: number;
  };
  const { page_size } = sqlite.query("PRAGMA page_size").get() as { page_size: number };
  sqlite.close();
  const fd = openSync(file, "r+");
  writeSync(fd, new Uint8Array([0]), 0, 1, (rootpage - 1) * page_size);
  closeSync(fd);
}

// What the check says of the broken page: SQLite reports it as damage, or fails to read it.
const DAMAGED = /^(is damaged \(|cannot be read \(database disk image is malformed\))/;

describe("the whole-file check at start", () => {
  test("a damaged file is refused with what SQLite found", () => {
    const file = migrated();
    damageTable(file);
    expect(inspectDatabaseFile(file).damage).toMatch(DAMAGED);
  });

  test("a file in the state a server's clean stop noted is not read page by page again", () => {
    const file = migrated();
    noteCleanStop(file);
    // The note, written for the file as it was, taken over for the file damaged since: only
    // someone who can write DATA_DIR can do that. The note is trusted, so the damage goes unseen.
    const note = readFileSync(`${file}.clean-stop`, "utf8");
    damageTable(file);
    const [ino, , , , ...rest] = note.split(" ");
    const stat = statSync(file, { bigint: true });
    writeFileSync(`${file}.clean-stop`, [ino, stat.size, stat.mtimeNs, stat.ctimeNs, ...rest].join(" "));
    expect(inspectDatabaseFile(file).damage).toBeNull();
  });

  test("a file that is damaged when the server stops gets no note: the next start checks it", () => {
    const file = migrated();
    expect(noteCleanStop(file)).toBe(true);
    damageTable(file);
    // As a server that started on the note (sparing the check), served and stopped again would.
    expect(noteCleanStop(file)).toBe(false);
    expect(existsSync(`${file}.clean-stop`)).toBe(false);
    expect(inspectDatabaseFile(file).damage).toMatch(DAMAGED);
  });

  test("any change to the file after the note makes the next start check every page", () => {
    const file = migrated();
    noteCleanStop(file);
    damageTable(file);
    expect(inspectDatabaseFile(file).damage).toMatch(DAMAGED);
    // Its times put back as they were: the change time still moved.
    const other = migrated();
    noteCleanStop(other);
    const before = Bun.file(other).lastModified / 1000;
    damageTable(other);
    utimesSync(other, before, before);
    expect(inspectDatabaseFile(other).damage).toMatch(DAMAGED);
  });
});

describe("what SQLite's checks say, as a sentence", () => {
  test("ok is no problem; problems are counted after the first two", () => {
    expect(integrityProblem([{ quick_check: "ok" }])).toBeNull();
    expect(integrityProblem([{ quick_check: "*** in database main ***\nPage 5: never used" }])).toBe(
      "is damaged (Page 5: never used)",
    );
    expect(integrityProblem(["a", "b", "c", "d"].map((line) => ({ integrity_check: line })))).toBe(
      "is damaged (a; b; 2 more problems)",
    );
  });
});
