// A database file that stops being the database, against the compiled executable: app.db
// emptied, cut short, overwritten, replaced on the same inode by another program's or another
// site's database, a text file or a folder; at start (with the write-ahead log present and
// absent) and under a running server. Every time: one line naming the ways out, exit 1, and
// app.db, its log and its index byte for byte as they were; while running, /healthz 503 with
// the reason and every write 503 with Retry-After; after SIGTERM the log is still there, the
// writes acknowledged before the fault can be had back from it, and the restart refuses.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { ensureBuilt, pool } from "#tests/support/binary.ts";
import { writeLogOnlyCopy } from "#tests/support/log-only-database.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import {
  acknowledged,
  everything,
  expectRefused,
  fileHash as hash,
  hashes,
  overwrite,
  PASSWORD,
  postQuiz,
  run as runWith,
  serve,
  stop,
  stopAll,
} from "#tests/support/site-files.ts";

beforeAll(() => ensureBuilt(), 180_000);
afterAll(stopAll);

/** Runs the executable to its end (a server that should refuse to start, or a command). */
const run = (dir: string, ...args: string[]) => runWith(dir, args);

// ---------------------------------------------------------------------------------------------
// Fixtures: a site stopped cleanly (no log), the same after a kill -9 (its log holds writes),
// another site's database, another program's database.

let clean = "";
let cleanResults: string[] = [];
let killed = "";
let otherSite: Uint8Array = new Uint8Array();
let foreign: Uint8Array = new Uint8Array();

beforeAll(async () => {
  clean = join(scratchDir("identity-clean"), "data");
  const first = await serve(clean);
  cleanResults = await acknowledged(first.url, 5);
  expect(await stop(first)).toBe(0);
  killed = join(scratchDir("identity-killed"), "data");
  cpSync(clean, killed, { recursive: true });
  const other = join(scratchDir("identity-other"), "data");
  const [second, third] = await Promise.all([serve(killed), serve(other)]);
  await acknowledged(second.url, 5);
  await stop(second, "SIGKILL");
  expect(statSync(join(killed, "app.db-wal")).size).toBeGreaterThan(0);
  expect(await stop(third)).toBe(0);
  otherSite = readFileSync(join(other, "app.db"));
  const foreignFile = join(scratchDir("identity-foreign"), "notes.db");
  const { Database } = await import("bun:sqlite");
  const db = new Database(foreignFile);
  db.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
  for (let i = 0; i < 50; i++) db.run("INSERT INTO notes (body) VALUES (?)", ["a note ".repeat(50)]);
  db.close();
  foreign = readFileSync(foreignFile);
}, 60_000);

/**
 * Runs one command (none: the server; "backup" writes beside the folder) on a fresh copy of
 * `source` damaged by `damage`: what it answered, and every entry of the folder before and after.
 */
async function commandOnCopy(
  source: string,
  scratch: string,
  label: string,
  damage: (dir: string) => void,
  args: string[],
) {
  const dir = copyOf(source, scratch);
  damage(dir);
  const before = everything(dir);
  const target = join(dir, "..", "backup.tar");
  const result = await run(dir, ...(args[0] === "backup" ? ["backup", target] : args));
  return { label: `${args.join(" ") || "serve"}: ${label}`, args, result, before, after: everything(dir) };
}

function copyOf(source: string, label: string): string {
  const dir = join(scratchDir(label), "data");
  cpSync(source, dir, { recursive: true });
  return dir;
}

type Damage = [label: string, damage: (file: string) => void, reason: RegExp];

const sizeOf = (file: string) => statSync(file).size;

/** What happens to app.db, in place: the same inode unless it says otherwise. */
const DAMAGE: Damage[] = [
  ["emptied (: > app.db)", (f) => truncateSync(f, 0), /empty \(0 bytes\)|shrank/],
  ["cut to one page (truncate -s 4096)", (f) => truncateSync(f, 4096), /cut short|shrank/],
  [
    "cut in the middle, on a page boundary",
    (f) => truncateSync(f, Math.floor(sizeOf(f) / 8192) * 4096),
    /cut short|shrank/,
  ],
  [
    "cut in the middle of a page",
    (f) => truncateSync(f, Math.floor(sizeOf(f) / 2) + 123),
    /cut short|whole number|shrank/,
  ],
  ["its first bytes overwritten with garbage", (f) => overwrite(f, new Uint8Array(64).fill(0xa5)), /SQLite's header/],
  [
    "a text file written over it",
    (f) => writeFileSync(f, "just some notes\n".repeat(40_000)),
    /SQLite's header|not a SQLite/,
  ],
  ["another program's database copied over it", (f) => writeFileSync(f, foreign), /cam-guide|another database|shrank/],
  [
    "another site's database copied over it",
    (f) => writeFileSync(f, otherSite),
    /another cam-guide site|another database|shrank/,
  ],
];

describe("at start: refused, and nothing touched", () => {
  const cases = () => [
    ...DAMAGE.flatMap(([label, damage, reason]) => [
      [`${label}, no log`, clean, damage, reason] as const,
      [`${label}, its log present`, killed, damage, reason] as const,
    ]),
    [
      "a folder in place of app.db",
      clean,
      (f: string) => {
        rmSync(f);
        mkdirSync(f);
      },
      /is a folder/,
    ] as const,
    [
      "another file, readable by everyone, in its place",
      killed,
      (f: string) => {
        rmSync(f);
        writeFileSync(f, "not a database", { mode: 0o644 });
      },
      /not a SQLite database/,
    ] as const,
  ];

  test("the server, for every kind of damage, with and without the log", async () => {
    const table = cases();
    const outcomes = await pool(table.length, 4, async (i) => {
      const [label, source, damage] = table[i]!;
      const dir = copyOf(source, "identity-start");
      damage(join(dir, "app.db"));
      const before = hashes(dir);
      const result = await run(dir);
      return { label, result, before, after: hashes(dir), dir };
    });
    for (const [i, { label, result, before, after, dir }] of outcomes.entries()) {
      expectRefused(result, label, "app.db");
      expect({ label, line: result.stderr }).toEqual({ label, line: expect.stringMatching(table[i]![3]) });
      expect({ label, after }).toEqual({ label, after: before });
      expect({ label, left: readdirSync(dir).filter((n) => n.startsWith(".write-probe")) }).toEqual({
        label,
        left: [],
      });
    }
  }, 60_000);

  test("seed, admin reset-password, admin reset-2fa and backup refuse the same way, touching nothing", async () => {
    const commands = [["seed"], ["admin", "reset-password"], ["admin", "reset-2fa"]];
    const table = DAMAGE.filter((_, i) => i % 2 === 0).flatMap(([label, damage]) =>
      [...commands, ["backup"]].map((args) => ({ label: `${args.join(" ")} on ${label}`, damage, args })),
    );
    const outcomes = await pool(table.length, 4, async (i) => {
      const { label, damage, args } = table[i]!;
      const dir = copyOf(killed, "identity-commands");
      damage(join(dir, "app.db"));
      const before = hashes(dir);
      const target = join(dir, "..", "backup.tar");
      const result = await run(dir, ...(args[0] === "backup" ? ["backup", target] : args));
      return { label, result, before, after: hashes(dir), backupWritten: existsSync(target) };
    });
    for (const { label, result, before, after, backupWritten } of outcomes) {
      if (label.startsWith("backup")) {
        expect({ label, code: result.code, line: result.stderr.trim() }).toEqual({
          label,
          code: 1,
          line: expect.stringMatching(/^Backup failed: The database .* nothing to back up/),
        });
        expect({ label, backupWritten }).toEqual({ label, backupWritten: false });
      } else expectRefused(result, label);
      expect({ label, after }).toEqual({ label, after: before });
    }
  }, 60_000);

  test("a site stopped cleanly, and one killed with its log full of writes, both start (no false alarm)", async () => {
    for (const source of [clean, killed]) {
      const dir = copyOf(source, "identity-healthy");
      writeFileSync(join(dir, ".write-probe-999999999"), "left by a killed server");
      const server = await serve(dir);
      expect((await postQuiz(server.url)).status).toBe(201);
      expect(existsSync(join(dir, ".write-probe-999999999"))).toBe(false);
      expect(await stop(server)).toBe(0);
      expect(readdirSync(dir).filter((name) => name.startsWith(".write-probe"))).toEqual([]);
    }
  }, 30_000);
});

describe("under a running server", () => {
  const cases: Damage[] = [
    ...DAMAGE,
    [
      "deleted and a folder made in its place",
      (f) => {
        rmSync(f);
        mkdirSync(f);
      },
      /replaced|missing/,
    ],
  ];

  test("each: /healthz 503 with the reason, every write 503 with Retry-After; after SIGTERM the log is kept, the restart refuses, and the acknowledged writes come back from the log", async () => {
    const outcomes = await pool(cases.length, 3, async (i) => {
      const [label, damage, reason] = cases[i]!;
      const dir = copyOf(clean, "identity-running");
      // The file the log builds on: the database as the clean stop left it.
      const base = readFileSync(join(dir, "app.db"));
      const server = await serve(dir);
      const ids = await acknowledged(server.url, 8);
      damage(join(dir, "app.db"));
      const damaged = hashes(dir);
      const health = await fetch(`${server.url}/healthz`);
      const healthBody = (await health.json()) as { error?: string };
      const quiz = await postQuiz(server.url);
      const signIn = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ username: "admin", password: PASSWORD }),
      });
      // A second or two of the server's background work (counts, probes) before it stops.
      await Bun.sleep(1200);
      const code = await stop(server);
      const afterStop = hashes(dir);
      const probes = readdirSync(dir).filter((name) => name.startsWith(".write-probe"));
      const restart = await run(dir);
      const afterRestart = hashes(dir);
      const noted = existsSync(join(dir, "app.db-changed"));
      // Recovery: the log put back beside the file it was written on, and the note the server
      // left removed, as it says to do then.
      let recovered = -1;
      if (!label.startsWith("deleted")) {
        writeFileSync(join(dir, "app.db"), base);
        rmSync(join(dir, "app.db-changed"));
        const again = await serve(dir);
        recovered = 0;
        for (const id of ids) if ((await fetch(`${again.url}/api/quiz/result/${id}`)).status === 200) recovered++;
        await stop(again);
      }
      return {
        label,
        reason,
        health: { status: health.status, error: healthBody.error ?? "" },
        quiz: { status: quiz.status, retry: quiz.headers.get("retry-after") },
        signIn: { status: signIn.status, retry: signIn.headers.get("retry-after") },
        code,
        damaged,
        afterStop,
        afterRestart,
        probes,
        restart,
        noted,
        recovered,
        acknowledged: ids.length,
      };
    });
    for (const o of outcomes) {
      const { label } = o;
      expect({ label, health: o.health.status }).toEqual({ label, health: 503 });
      expect({ label, error: o.health.error }).toEqual({ label, error: expect.stringMatching(o.reason) });
      expect({ label, quiz: o.quiz, signIn: o.signIn }).toEqual({
        label,
        quiz: { status: 503, retry: "60" },
        signIn: { status: 503, retry: "60" },
      });
      expect({ label, code: o.code, probes: o.probes, noted: o.noted }).toEqual({
        label,
        code: 0,
        probes: [],
        noted: true,
      });
      // Nothing written after the fault: the file as damaged, the log as it was, both kept.
      expect({ label, files: o.afterStop.slice(0, 2) }).toEqual({ label, files: o.damaged.slice(0, 2) });
      expect({ label, log: o.afterStop[1] }).not.toEqual({ label, log: "app.db-wal absent" });
      if (!label.startsWith("deleted")) {
        expectRefused(o.restart, label);
        expect({ label, files: o.afterRestart }).toEqual({ label, files: o.afterStop });
        expect({ label, recovered: o.recovered }).toEqual({ label, recovered: o.acknowledged });
      }
    }
  }, 90_000);
});

describe("a site's ids without its tables: the write-ahead log lost", () => {
  const COMMANDS = [[], ["seed"], ["admin", "reset-password"], ["admin", "reset-2fa"], ["backup"]];

  /** Each command on a fresh copy of `source` damaged by `damage`: refused, DATA_DIR exactly as it was. */
  async function everyCommandRefuses(label: string, source: string, damage: (dir: string) => void, reason: string) {
    const outcomes = await pool(COMMANDS.length, 5, async (i) => {
      return commandOnCopy(source, "identity-no-tables", label, damage, COMMANDS[i]!);
    });
    for (const { label, args, result, before, after } of outcomes) {
      if (args[0] === "backup") {
        expect({ label, code: result.code }).toEqual({ label, code: 1 });
        expect({ label, line: result.stderr }).toEqual({ label, line: expect.stringContaining(reason) });
      } else expectRefused(result, label, reason, "app.db-wal");
      expect({ label, after }).toEqual({ label, after: before });
    }
  }

  test("a file made by hand with the site's ids and no tables (pragma application_id, user_version): refused by every command", async () => {
    await everyCommandRefuses(
      "a hand-made file",
      clean,
      (dir) => {
        const id = readFileSync(join(dir, "app.db")).readInt32BE(60);
        rmSync(join(dir, "app.db"));
        const sqlite = new Database(join(dir, "app.db"));
        sqlite.run("PRAGMA application_id = 1667329383");
        sqlite.run(`PRAGMA user_version = ${id}`);
        sqlite.close();
      },
      "none of its tables",
    );
  }, 30_000);

  test("a young site's file (one page, everything in its log): starts with the log, refused without it (and without its index)", async () => {
    // As the previous release left a young site: nothing checkpointed yet.
    const young = copyOf(clean, "identity-young");
    writeLogOnlyCopy(join(clean, "app.db"), join(young, "app.db"));
    expect(statSync(join(young, "app.db")).size).toBe(4096);
    for (const [label, lost] of [
      ["the log deleted, its index kept", ["app.db-wal"]],
      ["the log and its index deleted (app.db copied alone)", ["app.db-wal", "app.db-shm"]],
    ] as const)
      await everyCommandRefuses(
        label,
        young,
        (dir) => {
          for (const name of lost) rmSync(join(dir, name));
        },
        "may be missing",
      );
    // With its log the same file is the site, and what the log holds is there.
    const dir = copyOf(young, "identity-young-start");
    const server = await serve(dir);
    for (const id of cleanResults) expect((await fetch(`${server.url}/api/quiz/result/${id}`)).status).toBe(200);
    expect((await postQuiz(server.url)).status).toBe(201);
    expect(await stop(server)).toBe(0);
  }, 60_000);
});

describe("a database damaged inside: every command refuses and leaves DATA_DIR exactly as it was", () => {
  const COMMANDS = [[], ["seed"], ["admin", "reset-password"], ["admin", "reset-2fa"], ["backup"]];
  const zeroed = (at: (pages: number) => number) => (dir: string) => {
    const file = join(dir, "app.db");
    const pages = statSync(file).size / 4096;
    overwrite(file, new Uint8Array(3 * 4096), at(pages) * 4096);
  };
  const DAMAGE: [string, (dir: string) => void][] = [
    ["pages 2 to 4 zeroed", zeroed(() => 1)],
    ["pages in the middle zeroed", zeroed((pages) => Math.floor(pages / 2))],
    ["the last pages zeroed", zeroed((pages) => pages - 3)],
    [
      "pages zeroed, and no lock file (a copied folder)",
      (dir) => {
        zeroed(() => 5)(dir);
        rmSync(join(dir, "cam-guide.lock"));
      },
    ],
  ];

  test("the server, seed, both admin resets and backup: refused with one line, no log, index or lock file made", async () => {
    const table = DAMAGE.flatMap(([label, damage]) => COMMANDS.map((args) => ({ label, damage, args })));
    const outcomes = await pool(table.length, 5, async (i) => {
      const { label, damage, args } = table[i]!;
      return commandOnCopy(clean, "identity-damaged", label, damage, args);
    });
    for (const { label, args, result, before, after } of outcomes) {
      if (args[0] === "backup")
        expect({ label, code: result.code, line: result.stderr }).toEqual({
          label,
          code: 1,
          line: expect.stringMatching(/^Backup failed: The database .* is damaged .*nothing to back up/),
        });
      else expectRefused(result, label, "is damaged");
      expect({ label, after }).toEqual({ label, after: before });
    }
  }, 60_000);

  test("a backup that succeeds, with no server running, leaves DATA_DIR as it was too", async () => {
    const dir = copyOf(clean, "identity-backup-clean");
    const before = everything(dir);
    const result = await run(dir, "backup", join(dir, "..", "good.tar"));
    expect(result.code).toBe(0);
    expect(everything(dir)).toEqual(before);
  }, 30_000);
});

describe("a page SQLite finds malformed while the server runs", () => {
  /**
   * The note a clean stop writes, forged for the file as it is now (which needs write access to
   * DATA_DIR): its inode, size and times, and no log. A start that finds it skips the
   * whole-file check, as a damage coming later from the disk would.
   */
  function forgeCleanStop(file: string): void {
    const { ino, size, mtimeNs, ctimeNs } = statSync(file, { bigint: true });
    const log = `${file}-wal`;
    const logState = existsSync(log) ? statSync(log, { bigint: true }) : null;
    const logHead = logState ? readFileSync(log).subarray(0, 32).toString("hex") : "";
    const parts = [
      ino,
      size,
      mtimeNs,
      ctimeNs,
      logState?.ino ?? "",
      logHead,
      logState?.size ?? "",
      logState?.mtimeNs ?? "",
    ];
    writeFileSync(`${file}.clean-stop`, parts.join(" "));
  }

  test("a damage the start did not check: the first read that meets it answers 503, then /healthz says why, every write is refused, and the stop writes no clean-stop note", async () => {
    const dir = copyOf(clean, "identity-malformed");
    const file = join(dir, "app.db");
    // The posts' first page, which the settings' reads (and /healthz's query) never touch.
    const sqlite = new Database(file, { readonly: true });
    const { rootpage } = sqlite.query("SELECT rootpage FROM sqlite_master WHERE name = 'blog_posts'").get() as {
      rootpage: number;
    };
    const { page_size } = sqlite.query("PRAGMA page_size").get() as { page_size: number };
    sqlite.close();
    overwrite(file, new Uint8Array(64).fill(0xff), (rootpage - 1) * page_size);
    forgeCleanStop(file);
    const server = await serve(dir);
    const before = await fetch(`${server.url}/healthz`);
    expect(before.status).toBe(200);
    const posts = await fetch(`${server.url}/api/blog/posts`);
    expect(posts.status).toBe(503);
    expect(await posts.text()).not.toContain("SQLITE");
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { error: string }).error).toBe(
      "The database file is damaged (SQLite found part of it malformed): stop the site and restore the last good backup.",
    );
    const quiz = await postQuiz(server.url);
    expect(quiz.status).toBe(503);
    expect(((await quiz.json()) as { error: string }).error).toStartWith(
      "Nothing was saved: the database file is damaged",
    );
    expect(await stop(server)).toBe(0);
    expect(existsSync(`${file}.clean-stop`)).toBe(false);
  }, 30_000);
});

describe("the ways out", () => {
  test("new-database keeps the unrecognised file and its log aside, says so, and the new site starts", async () => {
    const dir = copyOf(killed, "identity-new");
    truncateSync(join(dir, "app.db"), 0);
    const [db, log] = [hash(join(dir, "app.db")), hash(join(dir, "app.db-wal"))];
    const result = await run(dir, "new-database");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("kept, not deleted");
    const aside = readdirSync(dir).find((name) => /^app\.db\.unrecognised-[^-]+.*Z$/.test(name))!;
    expect(result.stdout).toContain(aside);
    expect(hash(join(dir, aside))).toBe(db);
    expect(hash(join(dir, `${aside}-wal`))).toBe(log);
    expect((await run(dir, "new-database")).code).toBe(1);
    const server = await serve(dir);
    expect((await postQuiz(server.url)).status).toBe(201);
    await stop(server);
  }, 30_000);

  test("new-database on a folder in place of app.db moves the folder aside", async () => {
    const dir = copyOf(clean, "identity-new-folder");
    rmSync(join(dir, "app.db"));
    mkdirSync(join(dir, "app.db"));
    writeFileSync(join(dir, "app.db", "inside.txt"), "kept");
    const result = await run(dir, "new-database");
    expect(result.code).toBe(0);
    const aside = readdirSync(dir).find((name) => name.startsWith("app.db.unrecognised-"))!;
    expect(readFileSync(join(dir, aside, "inside.txt"), "utf8")).toBe("kept");
    expect(statSync(join(dir, "app.db")).isFile()).toBe(true);
  }, 30_000);

  test("restore over an unrecognised file keeps it (with its log) and brings the backup's data back", async () => {
    const source = copyOf(clean, "identity-restore-source");
    const archive = join(scratchDir("identity-archive"), "good.tar");
    expect((await run(source, "backup", archive)).code).toBe(0);
    const dir = copyOf(killed, "identity-restore");
    overwrite(join(dir, "app.db"), new Uint8Array(100));
    const [db, log] = [hash(join(dir, "app.db")), hash(join(dir, "app.db-wal"))];
    const result = await run(dir, "restore", archive);
    expect(result.code).toBe(0);
    const kept = readdirSync(dir).find((name) => /^app\.db\.before-restore-[^-]+.*Z$/.test(name))!;
    expect(hash(join(dir, kept))).toBe(db);
    expect(hash(join(dir, `${kept}-wal`))).toBe(log);
    const server = await serve(dir);
    expect((await postQuiz(server.url)).status).toBe(201);
    await stop(server);
  }, 30_000);
});
