// The server checkpoints its own write-ahead log, against the compiled executable (checkpoints
// every second or two through CAM_GUIDE_TEST_CHECKPOINT_SECONDS, every 30 s on a real site):
// app.db holds what was written within the interval, so a log lost after kill -9 loses at most
// that and never resets the site; the server's checkpoints, a seed, admin commands and
// backups beside it, thousands of writes and kill -9 at any moment never trip the watch or
// lose an acknowledged write; and an older copy of the site written over app.db while it runs
// (equal size or larger, its time set back or not, in place or as a new file) is seen: /healthz
// 503, writes 503, at SIGTERM the log is not folded into the copy, and the restart refuses.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBuilt, pool } from "#tests/support/binary.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import {
  acknowledged,
  expectRefused,
  fileHash,
  fileTimes,
  nextCheckpoint,
  overwrite,
  PASSWORD,
  postQuiz,
  run,
  serve,
  stop,
  stopAll,
  until,
} from "#tests/support/site-files.ts";

beforeAll(() => ensureBuilt(), 180_000);
afterAll(stopAll);

/** Checkpoints every `seconds` (a test seam; 30 s otherwise). */
const every = (seconds: number) => ({ CAM_GUIDE_TEST_CHECKPOINT_SECONDS: String(seconds) });

const fresh = (label: string) => join(scratchDir(label), "data");

/** The quiz results' ids in the database file `file` (read after the server stopped cleanly). */
function storedResults(file: string): Set<string> {
  const sqlite = new Database(file, { readonly: true });
  try {
    return new Set((sqlite.query("SELECT id FROM quiz_results").all() as { id: string }[]).map((row) => row.id));
  } finally {
    sqlite.close();
  }
}

async function signIn(url: string, password = PASSWORD): Promise<number> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username: "admin", password }),
  });
  return res.status;
}

describe("the server checkpoints its own log", () => {
  test("within the interval app.db holds what was written and the log is emptied; a young site killed and its log lost keeps all of it, seeds nothing and makes no new admin", async () => {
    const outcomes = await pool(2, 2, async (i) => {
      const lost = i === 0 ? ["app.db-wal"] : ["app.db-wal", "app.db-shm"];
      const dir = fresh("checkpoints-young");
      const server = await serve(dir, every(1));
      const startSize = statSync(join(dir, "app.db")).size;
      const ids = await acknowledged(server.url, 40);
      await nextCheckpoint(dir);
      const grown = statSync(join(dir, "app.db")).size;
      await stop(server, "SIGKILL");
      for (const name of lost) rmSync(join(dir, name));
      // Another password in the environment: an admin made again would take it.
      const again = await serve(dir, { ADMIN_PASSWORD: "another-password-456" });
      let found = 0;
      for (const id of ids) if ((await fetch(`${again.url}/api/quiz/result/${id}`)).status === 200) found++;
      const passwords = [await signIn(again.url), await signIn(again.url, "another-password-456")];
      await stop(again);
      const output = `${await new Response(again.proc.stdout).text()}${await new Response(again.proc.stderr).text()}`;
      return { lost: lost.join(" and "), startSize, grown, found, ids: ids.length, passwords, output };
    });
    for (const o of outcomes) {
      const { lost } = o;
      expect({ lost, grew: o.grown > o.startSize }).toEqual({ lost, grew: true });
      expect({ lost, found: o.found }).toEqual({ lost, found: o.ids });
      expect({ lost, passwords: o.passwords }).toEqual({ lost, passwords: [200, 401] });
      expect({ lost, output: o.output }).not.toEqual({
        lost,
        output: expect.stringMatching(/Admin account created|Seed: added/),
      });
    }
  }, 45_000);

  test("a seed, both admin resets and backups beside the server, while it writes and checkpoints: the watch is never tripped", async () => {
    const dir = fresh("checkpoints-beside");
    const server = await serve(dir, every(1));
    let writing = true;
    const statuses: number[] = [];
    const writer = (async () => {
      while (writing) statuses.push((await postQuiz(server.url)).status);
    })();
    const target = join(dir, "..", "beside.tar");
    const commands = [["seed"], ["admin", "reset-password"], ["admin", "reset-2fa"], ["backup", target], ["seed"]];
    const results = [];
    const checkpoints = new Set([fileTimes(join(dir, "app.db"))]);
    for (const args of commands) {
      results.push({ args: args.join(" "), code: (await run(dir, args)).code });
      checkpoints.add(fileTimes(join(dir, "app.db")));
    }
    // One more checkpoint of the server's own, after the last command.
    const before = fileTimes(join(dir, "app.db"));
    await until("a checkpoint", () => fileTimes(join(dir, "app.db")) !== before);
    writing = false;
    await writer;
    const health = await fetch(`${server.url}/healthz`);
    expect(results).toEqual(commands.map((args) => ({ args: args.join(" "), code: 0 })));
    expect({ health: health.status, body: await health.text() }).toEqual({ health: 200, body: '{"status":"ok"}' });
    expect(statuses.length).toBeGreaterThan(20);
    // The server checkpointed while the commands ran.
    expect(checkpoints.size).toBeGreaterThan(1);
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    expect(await stop(server)).toBe(0);
    expect(existsSync(join(dir, "app.db-changed"))).toBe(false);
  }, 60_000);

  test("2,500 writes or more, through at least two of the server's checkpoints: /healthz 200 throughout, the file grows and the log is folded in", async () => {
    const dir = fresh("checkpoints-growth");
    const server = await serve(dir, every(1));
    const db = join(dir, "app.db");
    const start = statSync(db).size;
    const times = new Set([fileTimes(db)]);
    const deadline = Date.now() + 30_000;
    let written = 0;
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while ((written < 2500 || times.size < 3) && Date.now() < deadline) {
          const res = await postQuiz(server.url);
          written++;
          times.add(fileTimes(db));
          if (res.status !== 201) failures.push(`write ${res.status}`);
          if (written % 250 === 0) {
            const health = await fetch(`${server.url}/healthz`);
            if (health.status !== 200) failures.push(`healthz ${health.status} ${await health.text()}`);
          }
        }
      }),
    );
    expect(failures).toEqual([]);
    // The server's own checkpoints wrote the file while it ran, twice at least.
    expect(times.size).toBeGreaterThanOrEqual(3);
    await nextCheckpoint(dir);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(statSync(db).size).toBeGreaterThan(start);
    expect(await stop(server)).toBe(0);
    expect(storedResults(db).size).toBe(written);
  }, 60_000);

  test("kill -9 at random moments, during writes and checkpoints: every acknowledged write is there after the restart", async () => {
    const dir = fresh("checkpoints-kill");
    const acked: string[] = [];
    for (let round = 0; round < 3; round++) {
      const server = await serve(dir, every(1));
      const killAt = Date.now() + 300 + Math.floor(Math.random() * 1200);
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          while (Date.now() < killAt) {
            try {
              const res = await postQuiz(server.url);
              if (res.status === 201) acked.push(((await res.json()) as { id: string }).id);
            } catch {
              // cut off by the kill
            }
          }
        }),
      ).then(() => stop(server, "SIGKILL"));
    }
    const last = await serve(dir);
    expect((await fetch(`${last.url}/healthz`)).status).toBe(200);
    expect(await stop(last)).toBe(0);
    const stored = storedResults(join(dir, "app.db"));
    expect(acked.length).toBeGreaterThan(50);
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
  }, 60_000);
});

describe("an older copy of the site written over app.db while the server runs", () => {
  type Put = (db: string, old: Buffer) => void;
  const pad = (old: Buffer, size: number) => Buffer.concat([old, Buffer.alloc(Math.max(0, size - old.length))]);
  /** `touch -r`: the time set back to what it was, to the nanosecond. */
  const keepingTime =
    (put: Put): Put =>
    (db, old) => {
      Bun.spawnSync(["touch", "-r", db, `${db}.time`]);
      put(db, old);
      Bun.spawnSync(["touch", "-r", `${db}.time`, db]);
      rmSync(`${db}.time`);
    };
  const catEqual: Put = (db, old) => writeFileSync(db, pad(old, statSync(db).size));
  const catLarger: Put = (db, old) => writeFileSync(db, pad(old, statSync(db).size + 8192));
  const CASES: [string, Put][] = [
    ["cat old.db > app.db, the same size", catEqual],
    ["the same, its time set back (touch -r)", keepingTime(catEqual)],
    ["cat old.db > app.db, larger", catLarger],
    ["the same, its time set back (touch -r)", keepingTime(catLarger)],
    [
      "its pages written in place, the rest kept (dd conv=notrunc), time set back",
      keepingTime((db, old) => overwrite(db, old)),
    ],
    [
      "cp -p old.db app.db (its own time)",
      (db, old) => {
        writeFileSync(`${db}.old`, old);
        expect(Bun.spawnSync(["cp", "-p", `${db}.old`, db]).exitCode).toBe(0);
        rmSync(`${db}.old`);
      },
    ],
    [
      "mv old.db app.db (another file)",
      (db, old) => {
        writeFileSync(`${db}.old`, old);
        renameSync(`${db}.old`, db);
      },
    ],
  ];

  let site = "";
  let old: Buffer = Buffer.alloc(0);
  beforeAll(async () => {
    site = fresh("older-copy-site");
    const first = await serve(site);
    await acknowledged(first.url, 5);
    expect(await stop(first)).toBe(0);
    // The copy an operator kept: the site as it was then.
    old = readFileSync(join(site, "app.db"));
  }, 30_000);

  test("each: /healthz 503 and writes 503; at SIGTERM the copy stays as written and the log as it was; the restart refuses", async () => {
    const outcomes = await pool(CASES.length, CASES.length, async (i) => {
      const [label, put] = CASES[i]!;
      const dir = fresh("older-copy");
      cpSync(site, dir, { recursive: true });
      const db = join(dir, "app.db");
      const server = await serve(dir, every(2));
      // Rows deleted on purpose later would come back from the copy: rows written after it
      // and folded into app.db by a checkpoint, then more that only the log holds.
      await acknowledged(server.url, 12);
      await nextCheckpoint(dir);
      await acknowledged(server.url, 6);
      const logBefore = statSync(`${db}-wal`).size;
      put(db, old);
      const written = fileHash(db);
      const health = await fetch(`${server.url}/healthz`);
      const error = ((await health.json()) as { error?: string }).error ?? "";
      const quiz = await postQuiz(server.url);
      const log = fileHash(`${db}-wal`);
      // Past the next checkpoint's time: none may happen.
      await Bun.sleep(2200);
      const code = await stop(server);
      const after = { db: fileHash(db), log: fileHash(`${db}-wal`) };
      const note = existsSync(join(dir, "app.db-changed"));
      const before = [db, `${db}-wal`, `${db}-shm`].map(fileHash);
      const restart = await run(dir);
      const afterRestart = [db, `${db}-wal`, `${db}-shm`].map(fileHash);
      return {
        label,
        logBefore,
        health: health.status,
        error,
        quiz: { status: quiz.status, retry: quiz.headers.get("retry-after") },
        code,
        kept: { db: after.db === written, log: after.log === log },
        note,
        restart,
        unchanged: JSON.stringify(afterRestart) === JSON.stringify(before),
      };
    });
    for (const o of outcomes) {
      const { label } = o;
      expect({ label, logHeldFrames: o.logBefore > 0 }).toEqual({ label, logHeldFrames: true });
      expect({ label, health: o.health }).toEqual({ label, health: 503 });
      expect({ label, error: o.error }).toEqual({
        label,
        error: expect.stringMatching(/written by another program|replaced by another file|shrank/),
      });
      expect({ label, quiz: o.quiz }).toEqual({ label, quiz: { status: 503, retry: "60" } });
      expect({ label, code: o.code, kept: o.kept, note: o.note }).toEqual({
        label,
        code: 0,
        kept: { db: true, log: true },
        note: true,
      });
      expectRefused(o.restart, label, "changed by another program");
      expect({ label, unchanged: o.unchanged }).toEqual({ label, unchanged: true });
    }
  }, 90_000);
});
