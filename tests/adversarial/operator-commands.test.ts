// Operator commands against the shipped executable (dist/cam-guide): backup, restore,
// admin reset-password, the DATA_DIR lock and file permissions. Every refusal must exit
// non-zero with one clear line and leave DATA_DIR (and the backup's folder) exactly as it
// was; nothing may be written outside DATA_DIR; secrets stay private.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { BINARY, ensureBuilt, pool } from "#tests/support/binary.ts";
import { testPort } from "#tests/support/ports.ts";
import { rebuildTable, replaced, withClause } from "#tests/support/schema-variants.ts";
import { scratchDir } from "#tests/support/scratch.ts";

const PASSWORD = "first-password-123";
const UPLOAD = "AAAAAAAAAAAAAAAAAAAAAA.png";
const STACK_TRACE = /\n\s+at |^error: |Bun v\d/m;

// ---------------------------------------------------------------------------------------
// Running the executable

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command of the executable; `wrap` runs it through sh first (umask, ulimit). */
async function cli(
  args: string[],
  env: Record<string, string>,
  { cwd, shell }: { cwd?: string; shell?: string } = {},
): Promise<Result> {
  const command = shell ? ["sh", "-c", `${shell}; exec "$0" "$@"`, BINARY, ...args] : [BINARY, ...args];
  const proc = Bun.spawn(command, {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** Exit 1, one line on stderr holding every fragment, no stack trace. */
function expectRefused(result: Result, ...fragments: string[]) {
  const line = result.stderr.trim();
  expect({ code: result.code, line }).toMatchObject({ code: 1 });
  expect(line).not.toContain("\n");
  for (const fragment of fragments) expect(line).toContain(fragment);
  expect(result.stderr).not.toMatch(STACK_TRACE);
}

interface Server {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  url: string;
}

/**
 * Starts a server; resolves once it says it listens and /healthz answers, or with its exit
 * when it refuses to start. Its own "listening" line is awaited, not just an answer on the
 * port: another program may hold that port.
 */
async function serve(dir: string, env: Record<string, string> = {}, shell?: string): Promise<Server | Result> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const port = testPort();
    const envs = { PATH: process.env.PATH ?? "", DATA_DIR: dir, PORT: String(port), HOST: "127.0.0.1", ...env };
    const command = shell ? ["sh", "-c", `${shell}; exec "$0" "$@"`, BINARY] : [BINARY];
    const proc = Bun.spawn(command, { env: envs, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const url = `http://127.0.0.1:${port}`;
    let stdout = "";
    const reader = proc.stdout.getReader();
    const listening = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return false;
        stdout += new TextDecoder().decode(value);
        if (stdout.includes(`listening on ${url}`)) return true;
      }
    })();
    const outcome = await Promise.race([listening, Bun.sleep(20_000).then(() => "timeout" as const)]);
    if (outcome === "timeout") {
      proc.kill("SIGKILL");
      throw new Error("the server did not start within 20 s");
    }
    if (outcome) {
      reader.releaseLock();
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      return { proc, url };
    }
    const result = { code: await proc.exited, stdout, stderr: await new Response(proc.stderr).text() };
    if (!result.stderr.includes("already in use")) return result;
  }
  throw new Error("no free port");
}

/** The exit of a server that had to refuse to start; one that started anyway is stopped, and the test fails. */
async function refused(server: Server | Result): Promise<Result> {
  if (!("code" in server)) {
    await stop(server, "SIGKILL");
    throw new Error("the server started where it had to refuse");
  }
  return server;
}

function started(server: Server | Result): Server {
  if ("code" in server) throw new Error(`the server refused to start: ${server.stderr}`);
  return server;
}

async function stop(server: Server, signal: "SIGTERM" | "SIGKILL" = "SIGTERM") {
  server.proc.kill(signal);
  await server.proc.exited;
}

async function login(url: string, username: string, password: string) {
  return fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username, password }),
  });
}

/**
 * Holds DATA_DIR's lock the way another cam-guide process would, from a process of its own
 * (a process that closes any descriptor of a file loses its POSIX locks on it, so the test
 * process, which reads every file to compare folders, cannot hold it itself).
 */
async function holdLock(dir: string, sql: "BEGIN" | "BEGIN EXCLUSIVE") {
  const script = join(scratchDir("holder"), "hold.ts");
  writeFileSync(
    script,
    `import { Database } from "bun:sqlite";
const db = new Database(process.argv[2]);
db.run("PRAGMA journal_mode = MEMORY");
db.run(process.argv[3]);
db.query("SELECT count(*) FROM sqlite_master").get();
console.log("holding");
await new Response(Bun.stdin.stream()).text();
// Used after the wait, so the connection (and its lock) is not collected while waiting.
db.close();
`,
  );
  const proc = Bun.spawn(["bun", script, join(dir, "cam-guide.lock"), sql], { stdin: "pipe", stdout: "pipe" });
  const { value } = await proc.stdout.getReader().read();
  expect(new TextDecoder().decode(value)).toContain("holding");
  return async () => {
    proc.stdin.end();
    await proc.exited;
  };
}

// ---------------------------------------------------------------------------------------
// What a folder holds: names, kinds, modes and contents

function tree(dir: string, skip: (name: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string, rel: string) => {
    for (const name of readdirSync(path).sort()) {
      if (skip(name)) continue;
      const full = join(path, name);
      const key = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(full);
      const mode = (stat.mode & 0o7777).toString(8);
      if (stat.isSymbolicLink()) out[key] = `link ${readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        out[key] = `dir ${mode}`;
        walk(full, key);
      } else if (stat.isFile())
        out[key] = `file ${mode} ${createHash("sha256").update(readFileSync(full)).digest("hex")}`;
      else out[key] = `other ${mode}`;
    }
  };
  walk(dir, "");
  return out;
}

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every file and folder under `dir` (links not followed) with its mode, for permission checks. */
function modes(dir: string): Record<string, number> {
  const out: Record<string, number> = { ".": mode(dir) };
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: false }) as string[]) {
    const stat = lstatSync(join(dir, entry));
    if (!stat.isSymbolicLink()) out[entry] = stat.mode & 0o777;
  }
  return out;
}

function expectPrivate(dir: string) {
  const loose = Object.entries(modes(dir)).filter(([path, m]) => {
    const isDir = lstatSync(join(dir, path)).isDirectory();
    return m !== (isDir ? 0o700 : 0o600);
  });
  expect(loose.map(([path, m]) => `${path} ${m.toString(8)}`)).toEqual([]);
}

// ---------------------------------------------------------------------------------------
// A small tar writer that can write what cam-guide never would

interface Spec {
  name: string | Uint8Array;
  data?: string | Uint8Array;
  type?: string;
  linkname?: string;
  /** The raw size field (12 bytes), instead of the data's real size. */
  size?: string | Uint8Array;
  prefix?: string;
  magic?: string;
  badChecksum?: boolean;
}

const bytes = (data: string | Uint8Array | undefined) =>
  typeof data === "string" ? new TextEncoder().encode(data) : (data ?? new Uint8Array());

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function entry(spec: Spec): Uint8Array {
  const data = bytes(spec.data);
  const h = new Uint8Array(512);
  const put = (value: string | Uint8Array, offset: number, length = 512) =>
    h.set(bytes(value).subarray(0, length), offset);
  put(spec.name, 0, 100);
  put("0000600\0", 100);
  put("0000000\0", 108);
  put("0000000\0", 116);
  put(spec.size ?? `${data.length.toString(8).padStart(11, "0")}\0`, 124, 12);
  put("00000000000\0", 136);
  put("        ", 148);
  put(spec.type ?? "0", 156);
  put(spec.linkname ?? "", 157, 100);
  put(spec.magic ?? "ustar\0", 257, 6);
  put("00", 263);
  if (spec.prefix) put(spec.prefix, 345, 155);
  const sum = h.reduce((a, b) => a + b, 0) + (spec.badChecksum ? 1 : 0);
  put(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return concat([h, data, new Uint8Array((512 - (data.length % 512)) % 512)]);
}

const END = new Uint8Array(1024);
const tar = (...specs: Spec[]) => concat([...specs.map(entry), END]);

/** The entries of a tar file cam-guide wrote, for tests that look inside a backup. */
function entries(archive: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (let at = 0; at + 512 <= archive.length; ) {
    const h = archive.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    const name = new TextDecoder().decode(h.subarray(0, 100)).replace(/\0.*$/s, "");
    const size = Number.parseInt(new TextDecoder().decode(h.subarray(124, 136)).replace(/\0.*$/s, ""), 8);
    out.set(name, archive.slice(at + 512, at + 512 + size));
    at += 512 + size + ((512 - (size % 512)) % 512);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Shared fixtures: one served DATA_DIR, a good backup of it, a restored copy to clone

let live: Server;
let liveDir = "";
let goodTar: Uint8Array = new Uint8Array();
let goodDb: Uint8Array = new Uint8Array();
let goodSecret = "";
let base = "";
let cookie = "";
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

/** A fresh copy of the restored base DATA_DIR, under a folder of its own (returned as `root`). */
function copyOfBase(label: string): { root: string; data: string } {
  const root = scratchDir(label);
  const data = join(root, "data");
  cpSync(base, data, { recursive: true });
  return { root, data };
}

/** The good database with `change` (SQL, or a function of the connection) made to it, as bytes. */
function dbVariant(change: string | ((db: Database) => void)): Uint8Array {
  const file = join(scratchDir("variant"), "app.db");
  writeFileSync(file, goodDb);
  const db = new Database(file);
  db.run("PRAGMA foreign_keys = OFF");
  if (typeof change === "string") db.exec(change);
  else change(db);
  db.close();
  return readFileSync(file);
}

beforeAll(async () => {
  ensureBuilt();
  liveDir = join(scratchDir("live"), "data");
  // umask 000: whatever the operator's umask, DATA_DIR must come out private.
  live = started(await serve(liveDir, { ADMIN_PASSWORD: PASSWORD }, "umask 000"));
  cookie = (await login(live.url, "admin", PASSWORD)).headers.get("set-cookie")!.split(";")[0]!;
  const form = new FormData();
  form.append("file", new File([PNG], "dot.png", { type: "image/png" }));
  const uploaded = await fetch(`${live.url}/api/upload`, {
    method: "POST",
    body: form,
    headers: { cookie, origin: live.url },
  });
  expect(uploaded.status).toBeLessThan(300);
  for (let i = 0; i < 5; i++)
    await fetch(`${live.url}/api/quiz/result`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ archetype: "Girl Next Door", answers: Array(15).fill("A") }),
    });
  // A visit counted: today's salt is in the live database (a backup must not carry it).
  await fetch(`${live.url}/`, {
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36" },
  });
  const archive = join(scratchDir("good"), "good.tar");
  const made = await cli(["backup", archive], { DATA_DIR: liveDir });
  expect(made.stderr).toBe("");
  goodTar = Uint8Array.from(readFileSync(archive));
  const inside = entries(goodTar);
  goodDb = inside.get("app.db")!;
  goodSecret = new TextDecoder().decode(inside.get("jwt-secret")!);
  // The base every restore case clones: the good backup restored into a fresh DATA_DIR,
  // plus a known upload name.
  base = join(scratchDir("base"), "data");
  const restored = await cli(["restore", archive], { DATA_DIR: base });
  expect(restored.code).toBe(0);
  writeFileSync(join(base, "uploads", UPLOAD), PNG, { mode: 0o600 });
}, 120_000);

afterAll(async () => {
  if (live && live.proc.exitCode === null) await stop(live);
});

// ---------------------------------------------------------------------------------------

describe("a backup holds no visit-count salt", () => {
  test("the live database has today's salt; the backup's copy has none, in its rows or its bytes", async () => {
    const salts = (file: string) =>
      (
        new Database(file, { readonly: true }).query("SELECT salt FROM analytics_salts").all() as { salt: string }[]
      ).map((row) => row.salt);
    // The count is written within a second; the salt as soon as the visit is counted.
    let live: string[] = [];
    for (let i = 0; i < 50 && live.length === 0; i++) {
      live = salts(join(liveDir, "app.db"));
      if (live.length === 0) await Bun.sleep(100);
    }
    expect(live).toHaveLength(1);
    const copy = join(scratchDir("salt"), "app.db");
    writeFileSync(copy, goodDb);
    expect(salts(copy)).toEqual([]);
    expect(Buffer.from(goodDb).includes(Buffer.from(live[0]!))).toBe(false);
  });
});

describe("restore refuses hostile or broken archives and changes nothing", () => {
  const secret = () => ({ name: "jwt-secret", data: goodSecret });
  const db = () => ({ name: "app.db", data: goodDb });
  const upload = (name = `uploads/${UPLOAD}`) => ({ name, data: PNG });
  const cut = (archive: Uint8Array, length: number) => archive.subarray(0, length);

  // [label, archive, what the one-line message must say]
  const cases: () => [string, Uint8Array, string][] = () => [
    // Names that leave DATA_DIR or are not what a backup holds
    ["a ../ traversal", tar(db(), { name: "../escaped.txt", data: "x" }), "climbs out of DATA_DIR"],
    ["a deep traversal under uploads/", tar(db(), { name: "uploads/../../escaped.txt", data: "x" }), "climbs out"],
    ["an absolute path", tar(db(), { name: "/tmp/cam-guide-escaped.txt", data: "x" }), "absolute path"],
    ["a traversal hidden in the name prefix", tar({ name: "app.db", prefix: "../..", data: goodDb }), "climbs out"],
    ["./app.db", tar({ name: "./app.db", data: goodDb }), "never holds"],
    ["an unknown extra file", tar(db(), secret(), { name: "notes.txt", data: "hello" }), "never holds"],
    ["an upload with a name the server never makes", tar(db(), upload("uploads/evil.html")), "never holds"],
    ["an upload in a sub-folder", tar(db(), upload(`uploads/sub/${UPLOAD}`)), "never holds"],
    ["a name with a newline", tar(db(), { name: "app.db\nRestored 9 files", data: "x" }), "never holds"],
    ["a name with bytes after its end", tar({ name: "app.db\0/../../x", data: goodDb }), "bytes after its end"],
    ["a name that is not UTF-8", tar(db(), { name: new Uint8Array([0x75, 0xff, 0xfe]), data: "x" }), "not valid text"],
    // Entries that are not plain files
    ["a symbolic link as app.db", tar({ name: "app.db", type: "2", linkname: "/etc/passwd" }), "symbolic link"],
    [
      "a symbolic link as an upload",
      tar(db(), { name: `uploads/${UPLOAD}`, type: "2", linkname: "/etc" }),
      "symbolic link",
    ],
    ["a hard link", tar(db(), { name: `uploads/${UPLOAD}`, type: "1", linkname: "app.db" }), "hard link"],
    ["a character device", tar(db(), { name: "jwt-secret", type: "3" }), "character device"],
    ["a block device", tar(db(), { name: "jwt-secret", type: "4" }), "block device"],
    ["a folder entry", tar(db(), { name: "uploads/", type: "5" }), "a folder"],
    ["a named pipe", tar(db(), { name: "jwt-secret", type: "6" }), "named pipe"],
    ["a pax extended header", tar({ name: "PaxHeader", type: "x", data: "30 path=../../etc/x\n" }, db()), "pax"],
    ["a GNU long-name header", tar({ name: "././@LongLink", type: "L", data: "../../etc/x" }, db()), "long-name"],
    // Damaged or cut-off archives
    ["a size field far beyond the file", tar({ name: "app.db", size: "77777777777\0", data: goodDb }), "cut short"],
    [
      "a base-256 size field",
      tar({ name: "app.db", size: new Uint8Array([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0]) }),
      "not a plain number",
    ],
    ["a wrong header checksum", tar({ ...db(), badChecksum: true }), "checksum"],
    ["a backup cut in half", cut(goodTar, Math.floor(goodTar.length / 2)), "cut short"],
    ["a backup cut inside a header", cut(goodTar, 512 * Math.ceil(goodDb.length / 512) + 512 + 100), "cut short"],
    ["a backup without its end marker", cut(goodTar, goodTar.length - 1024), "cut short"],
    ["a backup with half an end marker", cut(goodTar, goodTar.length - 512), "cut short"],
    ["data after the end marker", concat([goodTar, new TextEncoder().encode("tail")]), "after its end marker"],
    ["an empty file", new Uint8Array(), "empty"],
    ["a text file", new TextEncoder().encode("not a backup\n".repeat(100)), "not a tar archive"],
    ["a gzip-compressed backup", Bun.gzipSync(Uint8Array.from(goodTar)), "compressed"],
    ["only an end marker", END, "no database"],
    ["no database, only the secret", tar(secret()), "no database"],
    // Repeated entries
    ["app.db twice", tar(db(), secret(), db()), "twice"],
    ["an upload twice", tar(db(), upload(), upload()), "twice"],
    ["jwt-secret twice", tar(db(), secret(), secret()), "twice"],
    // The secret
    ["a short session secret", tar(db(), { name: "jwt-secret", data: "short" }), "shorter than 32"],
    [
      "a huge session secret",
      tar(db(), { name: "jwt-secret", data: "x".repeat(5000) }),
      "more than cam-guide ever stores",
    ],
    // Databases that must not replace the live one
    ["an empty app.db", tar({ name: "app.db", data: "" }), "empty (0 bytes)"],
    [
      "an app.db that is not SQLite",
      tar({ name: "app.db", data: "hello, I am text".repeat(64) }),
      "not a SQLite database",
    ],
    ["a damaged database", tar({ name: "app.db", data: damaged() }), "database in the backup"],
    ["a database cut short", tar({ name: "app.db", data: goodDb.subarray(0, 8192) }), "database in the backup"],
    ["a SQLite database with no tables", tar({ name: "app.db", data: emptySqlite() }), "not a cam-guide database"],
    ["another program's database", tar({ name: "app.db", data: foreignSqlite() }), "not a cam-guide database"],
    ["a database from a newer cam-guide", tar({ name: "app.db", data: newer() }), "made by a newer cam-guide"],
    [
      "a database with a foreign migration",
      tar({ name: "app.db", data: dbVariant("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('abc', 1)") }),
      "no cam-guide release made",
    ],
    [
      "a database whose migration was altered",
      tar({ name: "app.db", data: dbVariant("UPDATE __drizzle_migrations SET hash = 'x'") }),
      "no cam-guide release made",
    ],
    [
      "a database with an empty migration history",
      tar({ name: "app.db", data: dbVariant("DELETE FROM __drizzle_migrations") }),
      "no migration history",
    ],
    [
      "a database without its migration table",
      tar({ name: "app.db", data: dbVariant("DROP TABLE __drizzle_migrations") }),
      "no migration history",
    ],
    [
      "a database missing a table",
      tar({ name: "app.db", data: dbVariant("DROP TABLE blog_posts") }),
      "missing cam-guide tables (blog_posts)",
    ],
    [
      "a database missing a column",
      tar({ name: "app.db", data: dbVariant("ALTER TABLE blog_posts DROP COLUMN meta_keywords") }),
      "columns differ",
    ],
    [
      "a database with an extra column",
      tar({ name: "app.db", data: dbVariant("ALTER TABLE blog_posts ADD COLUMN spare TEXT") }),
      "columns differ",
    ],
    [
      "a database with a trigger that deletes every post on a visitor's write",
      tar({
        name: "app.db",
        data: dbVariant("CREATE TRIGGER evil AFTER INSERT ON quiz_results BEGIN DELETE FROM blog_posts; END"),
      }),
      "trigger cam-guide never creates (evil)",
    ],
    [
      "a database with a table of its own",
      tar({ name: "app.db", data: dbVariant("CREATE TABLE extra (x)") }),
      "table cam-guide never creates (extra)",
    ],
    [
      "a database with a view of its own",
      tar({ name: "app.db", data: dbVariant("CREATE VIEW posts_view AS SELECT * FROM blog_posts") }),
      "view cam-guide never creates (posts_view)",
    ],
    [
      "a database whose post date is text",
      tar({ name: "app.db", data: dbVariant("UPDATE blog_posts SET created_at = 'notadate'") }),
      "a row in blog_posts (id 1) whose created_at is not a time",
    ],
    [
      "a database whose post title is bytes",
      tar({ name: "app.db", data: dbVariant("UPDATE blog_posts SET title = x'00ff'") }),
      "title is not text",
    ],
    [
      "a database whose brand name is bytes",
      tar({ name: "app.db", data: dbVariant("UPDATE site_settings SET brand_name = x'ff00'") }),
      "brand_name is not text",
    ],
    [
      "a database with dangling references",
      tar({
        name: "app.db",
        data: dbVariant(
          "INSERT INTO earnings_results (id, quiz_result_id, tier, estimated_earnings, score, answers) VALUES ('dangling', 'no-such-result', 'x', 'x', 1, '[]')",
        ),
      }),
      "database in the backup",
    ],
  ];

  function damaged(): Uint8Array {
    const copy = new Uint8Array(goodDb);
    copy.fill(0xa5, 4096 + 100, 4096 * 4);
    return copy;
  }
  function emptySqlite(): Uint8Array {
    const file = join(scratchDir("empty-db"), "empty.db");
    const db = new Database(file);
    db.run("PRAGMA user_version = 7");
    db.close();
    return readFileSync(file);
  }
  function foreignSqlite(): Uint8Array {
    const file = join(scratchDir("foreign-db"), "foreign.db");
    const db = new Database(file);
    db.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    db.run("INSERT INTO notes (body) VALUES ('mine')");
    db.close();
    return readFileSync(file);
  }
  function newer(): Uint8Array {
    return dbVariant(
      `INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('${"f".repeat(64)}', 4102444800000); CREATE TABLE future_feature (id INTEGER)`,
    );
  }

  test("each refused with one clear line, exit 1, DATA_DIR unchanged, nothing written outside it", async () => {
    const table = cases();
    expect(table.length).toBeGreaterThanOrEqual(50);
    const outcomes = await pool(table.length, 4, async (i) => {
      const [label, archive] = table[i]!;
      const { root, data } = copyOfBase("hostile");
      const file = join(root, "hostile.tar");
      writeFileSync(file, archive);
      const before = tree(root);
      const result = await cli(["restore", file], { DATA_DIR: data });
      return { label, result, unchanged: JSON.stringify(tree(root)) === JSON.stringify(before) };
    });
    for (const [i, { label, result, unchanged }] of outcomes.entries()) {
      const expected = table[i]![2];
      expect({ label, unchanged }).toEqual({ label, unchanged: true });
      expect({ label, code: result.code }).toEqual({ label, code: 1 });
      expect({ label, line: result.stderr.trim() }).toEqual({ label, line: expect.stringContaining(expected) });
      expectRefused(result, "Restore failed:", "Nothing in DATA_DIR was changed.");
    }
    expect(existsSync("/tmp/cam-guide-escaped.txt")).toBe(false);
  }, 120_000);

  test("sources that are not backup files: missing, a folder, a device, a pipe", async () => {
    const { root, data } = copyOfBase("sources");
    const fifo = join(root, "pipe");
    Bun.spawnSync(["mkfifo", fifo]);
    const before = tree(data);
    // One after the other: two restores on one DATA_DIR at once would refuse each other.
    const results: Result[] = [];
    for (const args of [[join(root, "missing.tar")], [root], ["/dev/zero"], [fifo], [], ["a.tar", "b.tar"]])
      results.push(await cli(["restore", ...args], { DATA_DIR: data }));
    expectRefused(results[0]!, "does not exist");
    expectRefused(results[1]!, "is a folder");
    expectRefused(results[2]!, "not a plain file");
    expectRefused(results[3]!, "not a plain file");
    expectRefused(results[4]!, "Usage: cam-guide restore <file>");
    expectRefused(results[5]!, "Usage: cam-guide restore <file>");
    expect(tree(data)).toEqual(before);
  }, 30_000);

  test("DATA_DIR/uploads replaced by a link or a file where an upload goes: refused before anything moves", async () => {
    const linked = copyOfBase("uploads-link");
    const outside = join(linked.root, "outside");
    mkdirSync(outside);
    rmSync(join(linked.data, "uploads"), { recursive: true });
    symlinkSync(outside, join(linked.data, "uploads"));
    const folder = copyOfBase("upload-folder");
    const uploaded = readdirSync(join(base, "uploads")).find((name) => name !== UPLOAD)!;
    rmSync(join(folder.data, "uploads", uploaded));
    mkdirSync(join(folder.data, "uploads", uploaded));
    for (const { root } of [linked, folder]) writeFileSync(join(root, "good.tar"), goodTar);
    const before = [tree(linked.root), tree(folder.root)];
    const [viaLink, overFolder] = await Promise.all(
      [linked, folder].map(({ root, data }) => cli(["restore", join(root, "good.tar")], { DATA_DIR: data })),
    );
    expectRefused(viaLink!, "uploads is not a folder");
    expectRefused(overFolder!, "is a folder where the backup has a file");
    expect([tree(linked.root), tree(folder.root)]).toEqual(before);
    expect(readdirSync(outside)).toEqual([]);
  });

  test("a refused restore into a DATA_DIR that did not exist leaves no folder behind", async () => {
    const root = scratchDir("no-data-dir");
    writeFileSync(join(root, "bad.tar"), tar({ name: "../x", data: "x" }));
    const result = await cli(["restore", join(root, "bad.tar")], { DATA_DIR: join(root, "data") });
    expectRefused(result, "climbs out");
    expect(readdirSync(root)).toEqual(["bad.tar"]);
  });

  test("a disk that fills during a restore leaves DATA_DIR as it was", async () => {
    const { root, data } = copyOfBase("full-restore");
    const file = join(root, "good.tar");
    writeFileSync(file, goodTar);
    const before = tree(data);
    // A file-size limit (ulimit -f, 512-byte blocks) makes writes fail like a full disk.
    const result = await cli(["restore", file], { DATA_DIR: data }, { shell: "ulimit -f 64" });
    expectRefused(result, "not enough space");
    expect(tree(data)).toEqual(before);
  });
});

describe("restore compares the whole shape of the backup's database with this release's", () => {
  const rebuilt = (table: string, change: (sql: string) => string) => (db: Database) => rebuildTable(db, table, change);
  // [label, change, what the one-line message must name]; null: the backup restores.
  const variants: [string, string | ((db: Database) => void), string | null][] = [
    [
      "a CHECK constraint added to quiz_results (every submission would fail)",
      // Rows saved so far pass it; every later one fails.
      (db) => rebuildTable(db, "quiz_results", withClause(`CONSTRAINT quiz_guard CHECK (created_at < ${Date.now()})`)),
      "table quiz_results whose definition differs",
    ],
    [
      "an index redefined (the same name on other columns)",
      "DROP INDEX blog_posts_slug_unique; CREATE UNIQUE INDEX blog_posts_slug_unique ON blog_posts (slug, published)",
      "index blog_posts_slug_unique defined differently",
    ],
    [
      "an extra index on quiz_results",
      "CREATE INDEX results_by_archetype ON quiz_results (archetype)",
      "index cam-guide never creates (results_by_archetype)",
    ],
    ["a dropped index", "DROP INDEX links_slug_unique", "missing cam-guide's index links_slug_unique"],
    [
      "a changed default",
      rebuilt("quiz_results", replaced("DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER))", "DEFAULT 0")),
      "column created_at has the default 0",
    ],
    [
      "a changed NOT NULL",
      rebuilt("earnings_results", replaced("`quiz_result_id` text,", "`quiz_result_id` text NOT NULL,")),
      "column quiz_result_id refuses NULL",
    ],
    [
      "an added trigger that refuses every submission",
      "CREATE TRIGGER no_results BEFORE INSERT ON quiz_results BEGIN SELECT RAISE(ABORT, 'no'); END",
      "trigger cam-guide never creates (no_results)",
    ],
    ["an added view", "CREATE VIEW archetypes AS SELECT archetype FROM quiz_results", "view cam-guide never creates"],
    [
      "a changed column type",
      rebuilt("quiz_results", replaced("`answers` text NOT NULL", "`answers` integer NOT NULL")),
      "column answers is INTEGER, not TEXT",
    ],
    [
      "a renamed constraint",
      rebuilt("site_settings", replaced('"site_settings_single_row"', '"only_one_row"')),
      "table site_settings whose definition differs",
    ],
    [
      "an extra column",
      "ALTER TABLE quiz_results ADD COLUMN tracking TEXT NOT NULL DEFAULT 'x'",
      "column tracking cam-guide never creates",
    ],
    [
      "a changed foreign key",
      rebuilt("earnings_results", replaced("ON DELETE set null", "ON DELETE cascade")),
      "table earnings_results whose foreign keys differ",
    ],
    ["nothing changed: the backup restores", "SELECT 1", null],
  ];

  test("each refused with a line naming what differs, nothing changed; the server then starts on the old data and takes a quiz result", async () => {
    const outcomes = await pool(variants.length, 4, async (i) => {
      const [label, change] = variants[i]!;
      const { root, data } = copyOfBase("shape");
      const file = join(root, "shape.tar");
      writeFileSync(file, tar({ name: "app.db", data: dbVariant(change) }, { name: "jwt-secret", data: goodSecret }));
      const before = tree(data);
      const result = await cli(["restore", file], { DATA_DIR: data });
      const unchanged = JSON.stringify(tree(data)) === JSON.stringify(before);
      const server = started(await serve(data, { ADMIN_PASSWORD: PASSWORD }));
      const quiz = await fetch(`${server.url}/api/quiz/result`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ archetype: "Girl Next Door", answers: Array(15).fill("A") }),
      });
      await stop(server);
      return { label, result, unchanged, quiz: quiz.status };
    });
    for (const [i, { label, result, unchanged, quiz }] of outcomes.entries()) {
      const expected = variants[i]![2];
      expect({ label, quiz }).toEqual({ label, quiz: 201 });
      if (expected === null) {
        expect({ label, code: result.code }).toEqual({ label, code: 0 });
        continue;
      }
      expect({ label, unchanged }).toEqual({ label, unchanged: true });
      expectRefused(result, "Restore failed: The database in the backup", expected, "Nothing in DATA_DIR was changed.");
    }
  }, 120_000);
});

describe("restore accepts a real backup, keeps the old data and stays private", () => {
  test("into a fresh DATA_DIR under umask 000: files 0600, folders 0700", async () => {
    const root = scratchDir("fresh");
    const file = join(root, "good.tar");
    writeFileSync(file, goodTar);
    const data = join(root, "data");
    const result = await cli(["restore", file], { DATA_DIR: data }, { shell: "umask 000" });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Restored 3 files");
    expect(readFileSync(join(data, "jwt-secret"), "utf8")).toBe(goodSecret);
    expect(readdirSync(join(data, "uploads"))).toHaveLength(1);
    expectPrivate(data);
  });

  test.skipIf(process.getuid?.() !== 0)(
    "run as root into a DATA_DIR another user owns: every restored file stays that user's",
    async () => {
      const root = scratchDir("owned");
      const data = join(root, "data");
      mkdirSync(data);
      chownSync(data, 65534, 65534);
      writeFileSync(join(root, "good.tar"), goodTar);
      expect((await cli(["restore", join(root, "good.tar")], { DATA_DIR: data })).code).toBe(0);
      const owners = (readdirSync(data, { recursive: true }) as string[]).map(
        (path) => `${path} ${lstatSync(join(data, path)).uid}`,
      );
      expect(owners.length).toBeGreaterThanOrEqual(4);
      expect(owners.filter((line) => !line.endsWith(" 65534"))).toEqual([]);
    },
  );

  test("over a DATA_DIR whose server was killed: the old database is kept with the commits only its log held", async () => {
    const { root, data } = copyOfBase("killed");
    const server = started(await serve(data, { ADMIN_PASSWORD: PASSWORD }));
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${server.url}/api/quiz/result`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ archetype: "Girl Next Door", answers: Array(15).fill("A") }),
      });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    await stop(server, "SIGKILL");
    expect(statSync(join(data, "app.db-wal")).size).toBeGreaterThan(0);
    const file = join(root, "good.tar");
    writeFileSync(file, goodTar);
    const result = await cli(["restore", file], { DATA_DIR: data });
    expect(result.code).toBe(0);
    const kept = readdirSync(data).find((name) => /^app\.db\.before-restore-[^-]+.*Z$/.test(name))!;
    expect(result.stdout).toContain(kept);
    const old = new Database(join(data, kept), { readonly: true });
    const found = old
      .query(`SELECT count(*) AS n FROM quiz_results WHERE id IN (${ids.map(() => "?").join(",")})`)
      .get(...ids) as { n: number };
    old.close();
    expect(found.n).toBe(ids.length);
    // The restored database is the backup's: none of those results.
    const now = new Database(join(data, "app.db"), { readonly: true });
    expect((now.query("SELECT count(*) AS n FROM quiz_results WHERE id = ?").get(ids[0]!) as { n: number }).n).toBe(0);
    now.close();
    expectPrivate(data);
  }, 60_000);
});

describe("backup refuses targets that could touch DATA_DIR", () => {
  test("inside DATA_DIR by any path, a link, a folder, a device, a missing folder: refused, nothing written", async () => {
    const { root, data } = copyOfBase("targets");
    symlinkSync(data, join(root, "alias"));
    symlinkSync(join(data, "app.db"), join(root, "db-link"));
    writeFileSync(join(root, "elsewhere.txt"), "mine");
    symlinkSync(join(root, "elsewhere.txt"), join(root, "file-link"));
    symlinkSync(join(root, "nowhere"), join(root, "dangling"));
    mkdirSync(join(root, "a-folder"));
    writeFileSync(join(root, "a-file"), "mine");
    linkSync(join(data, "app.db"), join(root, "db-hardlink"));
    symlinkSync(data, join(root, "data-alias"));
    const env = { DATA_DIR: data };
    const cases: [string, string[], Record<string, string>, string][] = [
      ["a relative path into DATA_DIR", ["backup", "data/new.tar"], env, "inside DATA_DIR"],
      ["the live database by ../", ["backup", "./data/../data/app.db"], env, "inside DATA_DIR"],
      ["the live database", ["backup", join(data, "app.db")], env, "inside DATA_DIR"],
      ["the write-ahead log", ["backup", join(data, "app.db-wal")], env, "inside DATA_DIR"],
      ["the session secret", ["backup", join(data, "jwt-secret")], env, "inside DATA_DIR"],
      ["an upload being archived", ["backup", join(data, "uploads", UPLOAD)], env, "inside DATA_DIR"],
      ["the lock file", ["backup", join(data, "cam-guide.lock")], env, "inside DATA_DIR"],
      ["DATA_DIR itself", ["backup", data], env, "inside DATA_DIR"],
      ["DATA_DIR with a slash", ["backup", `${data}/`], env, "names a folder"],
      ["the uploads folder", ["backup", join(data, "uploads")], env, "inside DATA_DIR"],
      ["through a linked folder", ["backup", join(root, "alias", "new.tar")], env, "inside DATA_DIR"],
      ["a link to the live database", ["backup", join(root, "db-link")], env, "inside DATA_DIR"],
      ["up and down again", ["backup", "data/uploads/../../data/x.tar"], env, "inside DATA_DIR"],
      ["a link to a file elsewhere", ["backup", join(root, "file-link")], env, "symbolic link"],
      ["a dangling link", ["backup", join(root, "dangling")], env, "symbolic link"],
      ["a folder", ["backup", join(root, "a-folder")], env, "is a folder"],
      ["a missing folder", ["backup", join(root, "missing", "x.tar")], env, "does not exist"],
      ["a file as the folder", ["backup", join(root, "a-file", "x.tar")], env, "is not a folder"],
      ["a hard link to the live database", ["backup", join(root, "db-hardlink")], env, "hard link"],
      [
        "DATA_DIR named through a link",
        ["backup", join(data, "x.tar")],
        { DATA_DIR: join(root, "data-alias") },
        "inside DATA_DIR",
      ],
      ["a device", ["backup", "/dev/null"], env, "not a plain file"],
      ["a relative DATA_DIR", ["backup", "./data/x.tar"], { DATA_DIR: "data" }, "inside DATA_DIR"],
      [
        "a missing DATA_DIR",
        ["backup", join(root, "x.tar")],
        { DATA_DIR: join(root, "no-such-dir") },
        "does not exist",
      ],
      [
        "a DATA_DIR without a database",
        ["backup", join(root, "x.tar")],
        { DATA_DIR: join(root, "a-folder") },
        "No database",
      ],
      ["no file named", ["backup"], env, "Usage: cam-guide backup <file>"],
      ["an option, not a file", ["backup", "--help"], env, "Usage: cam-guide backup <file>"],
    ];
    const before = tree(root);
    const results = await pool(cases.length, 4, (i) => cli(cases[i]![1], cases[i]![2], { cwd: root }));
    for (const [i, result] of results.entries()) {
      const [label, , , expected] = cases[i]!;
      expect({ label, code: result.code, line: result.stderr.trim() }).toEqual({
        label,
        code: 1,
        line: expect.stringContaining(expected),
      });
      expectRefused(result);
    }
    expect(tree(root)).toEqual(before);
    expect(readFileSync(join(root, "elsewhere.txt"), "utf8")).toBe("mine");
  }, 60_000);
});

describe("backup writes whole files or nothing", () => {
  test("a good backup under umask 000 replaces the old file atomically, mode 0600, no temporary file left", async () => {
    const { root, data } = copyOfBase("good-backup");
    const out = join(root, "out");
    mkdirSync(out);
    writeFileSync(join(out, "site.tar"), "the previous backup");
    chmodSync(join(out, "site.tar"), 0o644);
    const result = await cli(["backup", join(out, "site.tar")], { DATA_DIR: data }, { shell: "umask 000" });
    expect(result.code).toBe(0);
    expect(readdirSync(out)).toEqual(["site.tar"]);
    expect(mode(join(out, "site.tar"))).toBe(0o600);
    expect([...entries(readFileSync(join(out, "site.tar"))).keys()]).toEqual([
      "app.db",
      "jwt-secret",
      ...readdirSync(join(data, "uploads"))
        .sort()
        .map((name) => `uploads/${name}`),
    ]);
  });

  test("links and pipes planted in uploads are not followed or read", async () => {
    const { root, data } = copyOfBase("planted");
    const secretOutside = join(root, "outside-secret.txt");
    writeFileSync(secretOutside, "operator's private file");
    symlinkSync(secretOutside, join(data, "uploads", "BBBBBBBBBBBBBBBBBBBBBB.png"));
    Bun.spawnSync(["mkfifo", join(data, "uploads", "CCCCCCCCCCCCCCCCCCCCCC.png")]);
    const result = await cli(["backup", join(root, "b.tar")], { DATA_DIR: data });
    expect(result.code).toBe(0);
    const names = [...entries(readFileSync(join(root, "b.tar"))).keys()];
    expect(names).toContain(`uploads/${UPLOAD}`);
    expect(names.some((name) => name.includes("BBBB") || name.includes("CCCC"))).toBe(false);
  }, 20_000);

  test("a disk that fills during the snapshot or the archive: exit 1, the old backup untouched, nothing left", async () => {
    const { root, data } = copyOfBase("full-backup");
    // A 1 MB upload, so that a limit between the database's size and the archive's fails while writing the archive.
    writeFileSync(join(data, "uploads", "DDDDDDDDDDDDDDDDDDDDDD.mp4"), new Uint8Array(1024 * 1024).fill(7));
    const out = join(root, "out");
    mkdirSync(out);
    writeFileSync(join(out, "site.tar"), "the previous backup");
    const before = tree(root);
    const dbBlocks = Math.ceil(goodDb.length / 512);
    const [snapshot, archive] = await Promise.all([
      cli(["backup", join(out, "site.tar")], { DATA_DIR: data }, { shell: `ulimit -f ${Math.floor(dbBlocks / 2)}` }),
      cli(["backup", join(out, "site.tar")], { DATA_DIR: data }, { shell: `ulimit -f ${dbBlocks + 400}` }),
    ]);
    // SQLite reports a file-size limit as an I/O error (a full disk as "disk is full").
    expectRefused(snapshot, "Backup failed:", "No backup was written.");
    expectRefused(archive, "Backup failed:", "not enough space", "No backup was written.");
    expect(tree(root)).toEqual(before);
  }, 30_000);

  test("a folder it may not write in: exit 1, nothing left", async () => {
    const outer = mkdtempSync(join(tmpdir(), "cam-guide-perm-"));
    try {
      chmodSync(outer, 0o755);
      const data = join(outer, "data");
      cpSync(base, data, { recursive: true });
      const out = join(outer, "out");
      mkdirSync(out);
      let result: Result;
      if (process.getuid?.() === 0) {
        // root writes anywhere: run the backup as nobody, who may read DATA_DIR but not write in out/.
        Bun.spawnSync(["chown", "-R", "65534:65534", data]);
        chownSync(out, 0, 0);
        chmodSync(out, 0o755);
        const proc = Bun.spawn(
          ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", BINARY, "backup", join(out, "x.tar")],
          { env: { PATH: process.env.PATH ?? "", DATA_DIR: data }, stdout: "pipe", stderr: "pipe" },
        );
        result = {
          code: await proc.exited,
          stdout: await new Response(proc.stdout).text(),
          stderr: await new Response(proc.stderr).text(),
        };
      } else {
        chmodSync(out, 0o555);
        result = await cli(["backup", join(out, "x.tar")], { DATA_DIR: data });
      }
      expectRefused(result, "Backup failed:", "Not allowed to write");
      expect(readdirSync(out)).toEqual([]);
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  }, 20_000);

  test("interrupted by SIGTERM or killed outright: no backup, the old one untouched; a kill -9's leftovers go with the next backup", async () => {
    const { root, data } = copyOfBase("interrupted");
    const out = join(root, "out");
    mkdirSync(out);
    writeFileSync(join(out, "site.tar"), "the previous backup");
    // A connection holding the database exclusively makes the backup wait for it (5 s at most).
    const holder = new Database(join(data, "app.db"));
    holder.run("PRAGMA locking_mode = EXCLUSIVE");
    holder.run("BEGIN EXCLUSIVE");
    const startBackup = () =>
      Bun.spawn([BINARY, "backup", join(out, "site.tar")], {
        env: { PATH: process.env.PATH ?? "", DATA_DIR: data },
        stdout: "pipe",
        stderr: "pipe",
      });
    const waitForTemp = async () => {
      const deadline = Date.now() + 10_000;
      while (!readdirSync(out).some((name) => name.startsWith(".cam-guide-backup-"))) {
        if (Date.now() > deadline) throw new Error("the backup never started writing");
        await Bun.sleep(10);
      }
    };
    try {
      const terminated = startBackup();
      await waitForTemp();
      terminated.kill("SIGTERM");
      expect(await terminated.exited).toBe(1);
      expect(await new Response(terminated.stderr).text()).toContain(
        "Backup interrupted (SIGTERM); nothing was written.",
      );
      expect(readdirSync(out)).toEqual(["site.tar"]);

      const killed = startBackup();
      await waitForTemp();
      killed.kill("SIGKILL");
      await killed.exited;
      expect(readdirSync(out).length).toBe(2);
    } finally {
      holder.run("ROLLBACK");
      holder.close();
    }
    expect(readFileSync(join(out, "site.tar"), "utf8")).toBe("the previous backup");
    const next = await cli(["backup", join(out, "site.tar")], { DATA_DIR: data });
    expect(next.code).toBe(0);
    expect(readdirSync(out)).toEqual(["site.tar"]);
    expect(entries(readFileSync(join(out, "site.tar"))).has("app.db")).toBe(true);
  }, 40_000);
});

describe("one server per DATA_DIR, no restore while it serves", () => {
  test("a second server on the same DATA_DIR is refused; the first keeps serving", async () => {
    expectRefused(await refused(await serve(liveDir)), "Another cam-guide server is using DATA_DIR");
    expect((await fetch(`${live.url}/healthz`)).status).toBe(200);
  }, 30_000);

  test("restore while serving is refused and changes nothing", async () => {
    const file = join(scratchDir("while-serving"), "good.tar");
    writeFileSync(file, goodTar);
    // The running server's own files that change by themselves: the database's log and the
    // disk check's probe, written and removed once a second.
    const sideFiles = (name: string) =>
      name.endsWith("-wal") || name.endsWith("-shm") || basename(name).startsWith(".write-probe-");
    const before = tree(liveDir, sideFiles);
    const result = await cli(["restore", file], { DATA_DIR: liveDir });
    expectRefused(result, "A cam-guide server is using DATA_DIR", "stop it first");
    expect(tree(liveDir, sideFiles)).toEqual(before);
    expect((await fetch(`${live.url}/api/auth/me`, { headers: { cookie } })).status).toBe(200);
  });

  test("seed and backup run beside the server", async () => {
    const [seeded, backedUp] = await Promise.all([
      cli(["seed"], { DATA_DIR: liveDir }),
      cli(["backup", join(scratchDir("beside"), "b.tar")], { DATA_DIR: liveDir }),
    ]);
    expect(seeded.code).toBe(0);
    expect(backedUp.code).toBe(0);
  });

  test("while a restore holds DATA_DIR, every other command and a server are refused", async () => {
    const { data } = copyOfBase("restoring");
    // The lock a restore takes.
    const release = await holdLock(data, "BEGIN EXCLUSIVE");
    try {
      const before = tree(data);
      const [server, seeded, reset, backedUp, restored] = await Promise.all([
        serve(data),
        cli(["seed"], { DATA_DIR: data }),
        cli(["admin", "reset-password"], { DATA_DIR: data }),
        cli(["backup", join(scratchDir("during"), "b.tar")], { DATA_DIR: data }),
        cli(["restore", "/dev/null"], { DATA_DIR: data }),
      ]);
      for (const result of [await refused(server), seeded, reset, backedUp])
        expectRefused(result, "A restore is running");
      expectRefused(restored, "Restore failed:");
      expect(tree(data)).toEqual(before);
    } finally {
      await release();
    }
  }, 30_000);

  test("while another command reads DATA_DIR, a restore waits its turn (refused, nothing changed)", async () => {
    const { root, data } = copyOfBase("reading");
    const file = join(root, "good.tar");
    writeFileSync(file, goodTar);
    // The lock a backup, seed or password reset takes.
    const release = await holdLock(data, "BEGIN");
    try {
      const before = tree(data);
      expectRefused(await cli(["restore", file], { DATA_DIR: data }), "Another cam-guide command");
      expect(tree(data)).toEqual(before);
    } finally {
      await release();
    }
  });
});

describe("admin reset-password", () => {
  test("with another ADMIN_USERNAME while serving: resets the one admin, and a cookie from before gets 401", async () => {
    const before = await fetch(`${live.url}/api/admin/blog/posts`, { headers: { cookie } });
    expect(before.status).toBe(200);
    const result = await cli(["admin", "reset-password"], {
      DATA_DIR: liveDir,
      ADMIN_USERNAME: "someone-else",
      ADMIN_PASSWORD: "second-password-456",
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Password for the admin "admin" set from ADMIN_PASSWORD.');
    expect(result.stdout).toContain("Every existing session has been signed out.");
    expect(result.stdout).toContain('Sign in as "admin"');
    expect((await fetch(`${live.url}/api/admin/blog/posts`, { headers: { cookie } })).status).toBe(401);
    expect(await (await fetch(`${live.url}/api/auth/me`, { headers: { cookie } })).json()).toMatchObject({
      isAdmin: false,
    });
    const [oldPassword, otherName, newPassword] = await Promise.all([
      login(live.url, "admin", PASSWORD),
      login(live.url, "someone-else", "second-password-456"),
      login(live.url, "admin", "second-password-456"),
    ]);
    expect([oldPassword.status, otherName.status, newPassword.status]).toEqual([401, 401, 200]);
    const db = new Database(join(liveDir, "app.db"), { readonly: true });
    expect(db.query("SELECT username FROM admin_users").all()).toEqual([{ username: "admin" }]);
    db.close();
  }, 30_000);

  test("a generated password is printed and is the one stored", async () => {
    const { data } = copyOfBase("generated");
    const result = await cli(["admin", "reset-password"], { DATA_DIR: data });
    expect(result.code).toBe(0);
    const password = /New password for the admin "admin": (\S+)/.exec(result.stdout)![1]!;
    const db = new Database(join(data, "app.db"), { readonly: true });
    const row = db.query("SELECT password_hash AS hash FROM admin_users").get() as { hash: string };
    db.close();
    expect(await Bun.password.verify(password, row.hash)).toBe(true);
  });

  test("several admins left by an older release: one is kept (ADMIN_USERNAME's, else the first), the others removed", async () => {
    const legacyHash = await Bun.password.hash("legacy-password-1", {
      algorithm: "argon2id",
      memoryCost: 19456,
      timeCost: 2,
    });
    const setUp = () => {
      const { data } = copyOfBase("two-admins");
      const db = new Database(join(data, "app.db"));
      db.run("INSERT INTO admin_users (username, password_hash) VALUES ('legacy', ?)", [legacyHash]);
      db.close();
      return data;
    };
    const [first, named] = [setUp(), setUp()];
    const [keptFirst, keptNamed] = await Promise.all([
      cli(["admin", "reset-password"], { DATA_DIR: first, ADMIN_PASSWORD: "third-password-789" }),
      cli(["admin", "reset-password"], {
        DATA_DIR: named,
        ADMIN_USERNAME: "legacy",
        ADMIN_PASSWORD: "third-password-789",
      }),
    ]);
    expect(keptFirst.code).toBe(0);
    expect(keptFirst.stdout).toContain('Removed 1 extra admin account(s) an older cam-guide had created: "legacy".');
    expect(keptNamed.code).toBe(0);
    expect(keptNamed.stdout).toContain('Password for the admin "legacy"');
    expect(keptNamed.stdout).toContain('"admin"');
    for (const [data, name] of [
      [first, "admin"],
      [named, "legacy"],
    ] as const) {
      const db = new Database(join(data, "app.db"), { readonly: true });
      const rows = db.query("SELECT username, password_hash AS hash FROM admin_users").all() as {
        username: string;
        hash: string;
      }[];
      db.close();
      expect(rows.map((row) => row.username)).toEqual([name]);
      expect(await Bun.password.verify("third-password-789", rows[0]!.hash)).toBe(true);
    }
  }, 30_000);

  test("no admin yet, no database, a newer database: refused, nothing created or changed", async () => {
    const root = scratchDir("no-admin");
    const seededDir = join(root, "seeded");
    expect((await cli(["seed"], { DATA_DIR: seededDir })).code).toBe(0);
    const newerDir = copyOfBase("newer").data;
    const db = new Database(join(newerDir, "app.db"));
    db.run(`INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('${"e".repeat(64)}', 4102444800000)`);
    db.close();
    const before = { seeded: tree(seededDir), newer: tree(newerDir) };
    const [noAdmin, noDatabase, newer, noAdmin2fa, noDatabase2fa] = await Promise.all([
      cli(["admin", "reset-password"], { DATA_DIR: seededDir }),
      cli(["admin", "reset-password"], { DATA_DIR: join(root, "typo") }),
      cli(["admin", "reset-password"], { DATA_DIR: newerDir }),
      cli(["admin", "reset-2fa"], { DATA_DIR: seededDir }),
      cli(["admin", "reset-2fa"], { DATA_DIR: join(root, "typo") }),
    ]);
    expectRefused(noAdmin, "There is no admin account yet", "Nothing was changed.");
    expectRefused(noDatabase, "No database at", "is DATA_DIR right?");
    expectRefused(noAdmin2fa, "There is no admin account yet", "Nothing was changed.");
    expectRefused(noDatabase2fa, "No database at", "is DATA_DIR right?");
    expectRefused(newer, "made by a newer cam-guide");
    expect(existsSync(join(root, "typo"))).toBe(false);
    expect({ seeded: tree(seededDir), newer: tree(newerDir) }).toEqual(before);
  }, 30_000);
});

describe("DATA_DIR is private and the server refuses what it cannot use", () => {
  test("a port in use is refused before anything is made: no database, no admin, no secret", async () => {
    const busy = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const dir = join(scratchDir("busy-port"), "data");
      const result = await cli([], { DATA_DIR: dir, PORT: String(busy.port), HOST: "127.0.0.1" });
      expectRefused(result, `Port ${busy.port} is already in use`);
      const left = existsSync(dir) ? readdirSync(dir) : [];
      expect(left.filter((name) => name !== "cam-guide.lock")).toEqual([]);
    } finally {
      busy.stop(true);
    }
  });

  test("a server started under umask 000 keeps DATA_DIR 0700 and every file 0600 (database, log, secret, lock, uploads)", () => {
    const names = readdirSync(liveDir);
    for (const name of ["app.db", "app.db-wal", "app.db-shm", "jwt-secret", "cam-guide.lock", "uploads"])
      expect(names).toContain(name);
    expect(readdirSync(join(liveDir, "uploads"))).toHaveLength(1);
    expectPrivate(liveDir);
  });

  test("a newer database, a short secret, a DATA_DIR that is a file: the server refuses to start", async () => {
    const newerDir = copyOfBase("newer-serve").data;
    const db = new Database(join(newerDir, "app.db"));
    db.run(`INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('${"d".repeat(64)}', 4102444800000)`);
    db.close();
    const shortDir = copyOfBase("short-secret").data;
    writeFileSync(join(shortDir, "jwt-secret"), "too-short");
    const fileDir = join(scratchDir("file-data"), "data");
    writeFileSync(fileDir, "not a folder");
    const before = tree(dirname(newerDir));
    const [newer, short, file] = await Promise.all(
      [serve(newerDir), serve(shortDir), serve(fileDir)].map(async (server) => refused(await server)),
    );
    expectRefused(newer!, "made by a newer cam-guide");
    expectRefused(short!, "jwt-secret", "shorter than 32 characters");
    expectRefused(file!, "is not a folder");
    expect(tree(dirname(newerDir))).toEqual(before);
  }, 30_000);

  test("after kill -9 the lock is gone: a new server starts, keeps the data and tightens a loosened DATA_DIR", async () => {
    await stop(live, "SIGKILL");
    chmodSync(liveDir, 0o755);
    for (const name of ["app.db", "jwt-secret", "cam-guide.lock"]) chmodSync(join(liveDir, name), 0o644);
    chmodSync(join(liveDir, "uploads"), 0o755);
    for (const name of readdirSync(join(liveDir, "uploads"))) chmodSync(join(liveDir, "uploads", name), 0o644);
    const again = started(await serve(liveDir));
    try {
      expectPrivate(liveDir);
      expect((await login(again.url, "admin", "second-password-456")).status).toBe(200);
      // And once it has stopped, a restore goes through.
    } finally {
      await stop(again);
    }
    const file = join(scratchDir("after-kill"), "good.tar");
    writeFileSync(file, goodTar);
    expect((await cli(["restore", file], { DATA_DIR: liveDir })).code).toBe(0);
  }, 60_000);
});
