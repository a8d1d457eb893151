// Values a database holds that the admin could never have saved, against the shipped
// executable (dist/cam-guide). The same edits, made with SQL as an attacker with sqlite3 would
// (shape untouched, values changed), are tried two ways:
// - in a backup's database: `cam-guide restore` refuses it with one line naming the table, the
//   row and the column, exits 1 and changes nothing in DATA_DIR;
// - in a live DATA_DIR's database, the server stopped and started again: it starts, logs the
//   value it reads in its place, and answers every page and admin read without a 5xx or a
//   stack trace. The attacker's own cases then get their closer look.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { cpSync, lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { replacementDatabaseProblem } from "#server/db/snapshot.ts";
import { BINARY, ensureBuilt, pool, type Running, startServer } from "#tests/support/binary.ts";
import { testImage, uploadForm } from "#tests/support/images.ts";
import { scratchDir } from "#tests/support/scratch.ts";

const PASSWORD = "durable-password-123";
const STACK_TRACE = /\n\s+at |^error: |Bun v\d|SyntaxError|TypeError|RangeError/m;
const QUIZ = { archetype: "Girl Next Door", answers: Array(15).fill("A") };
const EARNINGS = {
  tier: "Casual Starter",
  estimatedEarnings: "$30 – $470 a month",
  score: 15,
  answers: Array(15).fill(1),
};
const QUIET = { LINK_CHECK_INTERVAL: "off", PUBLIC_URL: "https://guide.example.com" };

// ---------------------------------------------------------------------------------------
// The executable, a tar writer and folders compared byte for byte

async function cli(args: string[], env: Record<string, string>) {
  const proc = Bun.spawn([BINARY, ...args], {
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

/** A plain ustar archive of files, as `cam-guide backup` writes one. */
function tar(files: [name: string, data: Uint8Array][]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, data] of files) {
    const header = new Uint8Array(512);
    const put = (text: string, at: number) => header.set(new TextEncoder().encode(text), at);
    put(name, 0);
    put("0000600\0", 100);
    put("0000000\0", 108);
    put("0000000\0", 116);
    put(`${data.length.toString(8).padStart(11, "0")}\0`, 124);
    put("00000000000\0", 136);
    put("        ", 148);
    put("0", 156);
    put("ustar\0", 257);
    put("00", 263);
    put(
      `${header
        .reduce((a, b) => a + b, 0)
        .toString(8)
        .padStart(6, "0")}\0 `,
      148,
    );
    parts.push(header, data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  parts.push(new Uint8Array(1024));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Every file under `dir` with its mode and a hash of its bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of (readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const stat = lstatSync(join(dir, entry));
    out[entry] = stat.isFile()
      ? `${(stat.mode & 0o777).toString(8)} ${createHash("sha256")
          .update(readFileSync(join(dir, entry)))
          .digest("hex")}`
      : `${stat.isDirectory() ? "dir" : "other"} ${(stat.mode & 0o777).toString(8)}`;
  }
  return out;
}

/** Runs SQL on a database file as sqlite3 would, with foreign keys and CHECK constraints off. */
function edit(file: string, sql: string) {
  const db = new Database(file);
  db.run("PRAGMA foreign_keys = OFF");
  db.run("PRAGMA ignore_check_constraints = ON");
  db.exec(sql);
  db.close();
}

// ---------------------------------------------------------------------------------------
// One real site, backed up; its restored copy is the base every case starts from

let base = "";
let goodSecret = new Uint8Array();
const ids = { quiz: "", earnings: "", media: 0, post: "", upload: "" };

async function admin(url: string) {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username: "admin", password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
  return (path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { cookie, origin: url, ...(init.headers ?? {}) } });
}

const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** Servers started and not yet stopped: a failing test leaves none behind. */
const running = new Set<Running>();

async function serve(data: string, env: Record<string, string> = {}): Promise<Running> {
  const server = await startServer(data, { ...QUIET, ...env });
  running.add(server);
  return server;
}

afterAll(() => {
  for (const server of running) server.proc.kill("SIGKILL");
});

async function stop(server: Running): Promise<string> {
  running.delete(server);
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  return (await new Response(server.proc.stdout).text()) + (await new Response(server.proc.stderr).text());
}

beforeAll(async () => {
  ensureBuilt();
  const live = join(scratchDir("values-live"), "data");
  const server = await serve(live);
  try {
    const as = await admin(server.url);
    const upload = await as("/api/upload", {
      method: "POST",
      body: uploadForm(await testImage(600, 400, "png"), "wide.png", "image/png"),
    });
    expect(upload.status).toBeLessThan(300);
    ids.upload = ((await upload.json()) as { url: string }).url.replace("/uploads/", "");
    const library = (await (await as("/api/admin/media")).json()) as { id: number; variants: unknown[] }[];
    expect(library[0]!.variants.length).toBeGreaterThan(0);
    ids.media = library[0]!.id;
    ids.quiz = ((await (await post(server.url, "/api/quiz/result", QUIZ)).json()) as { id: string }).id;
    const earnings = await post(server.url, "/api/earnings/result", { ...EARNINGS, quizResultId: ids.quiz });
    ids.earnings = ((await earnings.json()) as { id: string }).id;
    const saved = await as("/api/admin/autosave/post:new", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ body: { title: "Draft" } }),
    });
    expect(saved.status).toBeLessThan(300);
    await fetch(`${server.url}/`, { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0" } });
    const { posts } = (await (await fetch(`${server.url}/api/blog/posts`)).json()) as { posts: { slug: string }[] };
    ids.post = posts[0]!.slug;
  } finally {
    await stop(server);
  }
  const archive = join(scratchDir("values-good"), "good.tar");
  expect((await cli(["backup", archive], { DATA_DIR: live })).code).toBe(0);
  base = join(scratchDir("values-base"), "data");
  expect((await cli(["restore", archive], { DATA_DIR: base })).code).toBe(0);
  goodSecret = readFileSync(join(base, "jwt-secret"));
  // A backup run on record, for the cases that edit one.
  edit(
    join(base, "app.db"),
    "INSERT INTO backup_runs (trigger, status, started_at, finished_at) VALUES ('manual', 'failed', 1700000000000, 1700000000001)",
  );
}, 60_000);

/** A fresh copy of the base DATA_DIR. */
function copyOfBase(label: string): string {
  const data = join(scratchDir(label), "data");
  cpSync(base, data, { recursive: true });
  return data;
}

// ---------------------------------------------------------------------------------------
// The cases: SQL, and what the refusal names (the table, the row, the column)

interface Case {
  label: string;
  sql: () => string;
  /** `table (row) whose column`, as the refusal line says it. */
  names: () => string;
  /** The column the server logs when it reads the value (columns it reads in their place). */
  logs?: string;
  /** False for a value that stops the admin signing in: its reads are tested beside the code. */
  live?: false;
}

const settings = (column: string, value: string, logs = true): Case => ({
  label: `site_settings.${column} = ${value}`,
  sql: () => `UPDATE site_settings SET ${column} = ${value} WHERE id = 1`,
  names: () => `site_settings (id 1) whose ${column}`,
  logs: logs ? `site_settings.${column}` : undefined,
});

const row =
  (table: string, key: () => string, where: () => string) =>
  (column: string, value: string, logs = false): Case => ({
    label: `${table}.${column} = ${value}`,
    sql: () => `UPDATE ${table} SET ${column} = ${value} WHERE ${where()}`,
    names: () => `${table} (${key()}) whose ${column}`,
    logs: logs ? `${table}.${column}` : undefined,
  });

const firstPost = row(
  "blog_posts",
  () => "id 1",
  () => "id = 1",
);
const upload = row(
  "media",
  () => `id ${ids.media}`,
  () => `id = ${ids.media}`,
);
const firstLink = row(
  "links",
  () => "id 1",
  () => "id = 1",
);
const quizResult = row(
  "quiz_results",
  () => `id "${ids.quiz}"`,
  () => `id = '${ids.quiz}'`,
);
const earningsResult = row(
  "earnings_results",
  () => `id "${ids.earnings}"`,
  () => `id = '${ids.earnings}'`,
);
const firstOffer = row(
  "affiliate_offers",
  () => "id 1",
  () => "id = 1",
);
const keyLight = row(
  "recommended_products",
  () => 'id "essential-key-light"',
  () => "id = 'essential-key-light'",
);
const terms = row(
  "site_pages",
  () => 'slug "terms"',
  () => "slug = 'terms'",
);
const autosave = row(
  "editor_autosaves",
  () => 'key "post:new"',
  () => "key = 'post:new'",
);
const run = row(
  "backup_runs",
  () => "id 1",
  () => "id = 1",
);
const theAdmin = row(
  "admin_users",
  () => "id 1",
  () => "id = 1",
);
/** The key of a table's first row in the base, as the refusal names it: `day "…", metric "…", key "…"`. */
function firstKey(table: string, columns: string[]): string {
  const db = new Database(join(base, "app.db"), { readonly: true });
  const found = db.query(`SELECT ${columns.join(", ")} FROM ${table} ORDER BY rowid LIMIT 1`).get() as Record<
    string,
    string
  >;
  db.close();
  return columns.map((c) => `${c} ${JSON.stringify(found[c])}`).join(", ");
}
const first = (table: string) => `rowid = (SELECT min(rowid) FROM ${table})`;
const daily = row(
  "analytics_daily",
  () => firstKey("analytics_daily", ["day", "metric", "key"]),
  () => first("analytics_daily"),
);
const visitor = row(
  "analytics_visitors",
  () => firstKey("analytics_visitors", ["day", "visitor"]),
  () => first("analytics_visitors"),
);
const copies = (list: object[]) => `'${JSON.stringify(list)}'`;
const copy = { width: 480, height: 320, size: 100 };

/** How many of the first cases are the attacker's own. */
const ATTACKER_CASES = 6;

const CASES: Case[] = [
  // The attacker's cases.
  settings("disclosure_wording", `'{"x":'`),
  settings("result_retention_days", "-5"),
  settings("backup_keep", "-3"),
  settings("link_check_hours", "99999999999"),
  upload("variants", "'{{'", true),
  upload("name", "'../jwt-secret'"),
  // Every setting, broken each way it can be.
  settings("disclosure_wording", `'[1, 2]'`),
  settings("disclosure_wording", `'{"sponsored": 5}'`),
  settings("disclosure_wording", `'{"sponsored": "${"x".repeat(41)}"}'`),
  settings("result_retention_days", "0"),
  settings("result_retention_days", "3651"),
  settings("result_retention_days", "'forever'"),
  settings("backup_keep", "0"),
  settings("link_check_hours", "-1"),
  settings("backup_cron", "'every night'"),
  settings("backup_cron", "'61 * * * *'"),
  settings("public_origin", "'javascript:alert(1)'"),
  settings("public_origin_confirmed", "2"),
  settings("banner_platform", "'c'"),
  settings("updated_at", "'yesterday'"),
  settings("updated_at", "99999999999999999"),
  settings("brand_name", "x'3432'", true),
  settings("platform_a_link_slug", "'Not A Slug'", false),
  // Posts: yes/no, dates, the admin's own rules.
  firstPost("published", "7", true),
  firstPost("publish_at", "'tomorrow'", true),
  firstPost("publish_at", "8.64e15 * 10", true),
  firstPost("slug", "'Not A Slug'"),
  firstPost("content", "x'3c703e'"),
  // Uploads: names the server never makes, copies that are not copies, numbers out of range.
  upload("variants", `'{"name": "x"}'`, true),
  upload("variants", copies([{ name: "../jwt-secret", ...copy }]), true),
  upload("variants", copies([{ name: "AAAAAAAAAAAAAAAAAAAAAA-w480.webp", ...copy }])),
  upload("variants", copies([{ name: "../../etc/passwd-w480.webp", width: -1, height: 1, size: 1 }]), true),
  upload("name", "'AAAAAAAAAAAAAAAAAAAAAA.exe'"),
  upload("name", "'-rf.png'"),
  upload("mime", "'text/html'"),
  upload("kind", "'script'", true),
  upload("size", "-1", true),
  upload("width", "0", true),
  // Links: counts, the checker's findings, destinations.
  firstLink("consecutive_failures", "-1", true),
  firstLink("auto_fallback_after", "0", true),
  firstLink("health_class", "'evil'", true),
  firstLink("active", "2", true),
  firstLink("last_status", "42", true),
  firstLink("slug", "'Bad Slug'"),
  // Results and what visitors send.
  quizResult("answers", `'["Z"]'`, true),
  quizResult("answers", "'nope'", true),
  quizResult("archetype", "'Evil Twin'"),
  earningsResult("answers", "'[9]'", true),
  earningsResult("score", "-1", true),
  earningsResult("tier", "'Gold'"),
  // The rest of the tables.
  firstOffer("module_id", "99", true),
  firstOffer("use_embed", "5", true),
  keyLight("archetype", "'Nobody'"),
  keyLight("module_id", "99", true),
  autosave("body", "'{{'", true),
  run("status", "'weird'", true),
  run("file", "'../../etc/passwd'"),
  run("size", "-5", true),
  theAdmin("token_version", "-1", true),
  { ...theAdmin("password_hash", "'plain text'"), live: false },
  { ...theAdmin("totp_secret", "'!!not base32!!'"), live: false },
  daily("count", "-5", true),
  {
    ...daily("metric", "'evil'"),
    names: () =>
      `analytics_daily (${firstKey("analytics_daily", ["day", "metric", "key"]).replace(/metric "[^"]*"/, 'metric "evil"')}) whose metric`,
  },
  visitor("steps", "9999", true),
];

/**
 * Text the admin writes that breaks this release's rule for new saves: an earlier release may
 * have accepted it, so it is restored as it is (the admin meets the rule when editing it), and
 * the site serves it without a 5xx.
 */
const WRITTEN_CASES: Case[] = [
  settings("brand_name", "''", false),
  settings("platform_a_url", "'ftp://files.example.com/'", false),
  settings("platform_a_name", "''", false),
  settings("income_figure", "'$10k' || char(8238)", false),
  firstPost("title", "''"),
  firstPost("cover_image", "'https://elsewhere.example/x.png'"),
  upload("alt", `'${"a".repeat(301)}'`),
  firstLink("destination", "'javascript:alert(1)'"),
  firstOffer("image_url", "'//elsewhere.example/x.png'"),
  terms("description", "'short'"),
];

// ---------------------------------------------------------------------------------------

/** The attacker's cases and the first case of every other table: restored by the executable itself. */
function throughTheCommand(): Case[] {
  const tables = new Set<string>();
  return CASES.filter((c, i) => {
    const table = c.label.split(".")[0]!;
    const first = !tables.has(table);
    tables.add(table);
    return i < ATTACKER_CASES || first;
  });
}

/** The good backup's database with the case's edit made to it, as a file. */
function editedDatabase(c: Case): string {
  const db = join(scratchDir("values-variant"), "app.db");
  cpSync(join(base, "app.db"), db);
  edit(db, c.sql());
  return db;
}

describe("restore refuses values the admin could never have saved", () => {
  test("by the command: exit 1, one line naming the table, the row and the column, DATA_DIR unchanged", async () => {
    const cases = throughTheCommand();
    const outcomes = await pool(cases.length, 3, async (i) => {
      const data = copyOfBase("values-restore");
      const file = join(scratchDir("values-tar"), "edited.tar");
      writeFileSync(
        file,
        tar([
          ["app.db", readFileSync(editedDatabase(cases[i]!))],
          ["jwt-secret", goodSecret],
        ]),
      );
      const before = tree(data);
      const result = await cli(["restore", file], { DATA_DIR: data });
      return { result, unchanged: JSON.stringify(tree(data)) === JSON.stringify(before) };
    });
    for (const [i, { result, unchanged }] of outcomes.entries()) {
      const { label, names } = cases[i]!;
      const line = result.stderr.trim();
      expect({ label, code: result.code, unchanged, lines: line.split("\n").length }).toEqual({
        label,
        code: 1,
        unchanged: true,
        lines: 1,
      });
      expect({ label, line }).toEqual({
        label,
        line: expect.stringContaining(`Restore failed: The database in the backup has a row in ${names()}`),
      });
      expect(line).toContain("Nothing in DATA_DIR was changed.");
      expect(line).not.toMatch(STACK_TRACE);
    }
  }, 60_000);

  test("every case, by the check the command runs (in this process: a restore costs a process each)", async () => {
    const refusals: string[] = [];
    for (const c of CASES) refusals.push(`${c.label}: ${await replacementDatabaseProblem(editedDatabase(c))}`);
    expect(refusals).toEqual(CASES.map((c) => expect.stringContaining(`: has a row in ${c.names()}`)));
  }, 30_000);

  test("text an earlier release may have accepted is restored as it is, not refused", async () => {
    const outcomes: string[] = [];
    for (const c of WRITTEN_CASES) outcomes.push(`${c.label}: ${await replacementDatabaseProblem(editedDatabase(c))}`);
    expect(outcomes).toEqual(WRITTEN_CASES.map((c) => `${c.label}: null`));
  }, 30_000);
});

// ---------------------------------------------------------------------------------------

/** Every page and admin read the cases touch; none may answer a 5xx or show a stack trace. */
function crawl(): string[] {
  return [
    "/",
    "/learn-more",
    "/terms",
    "/privacy",
    "/quiz",
    `/quiz/result?archetype=${encodeURIComponent(QUIZ.archetype)}&id=${ids.quiz}`,
    `/quiz/earnings?tier=${encodeURIComponent(EARNINGS.tier)}&id=${ids.earnings}`,
    "/quiz/earnings",
    `/quiz/starter-kit?quizId=${ids.quiz}`,
    "/plan",
    "/learn",
    "/learn/1",
    "/resources",
    "/blog",
    `/blog/${ids.post}`,
    "/sitemap.xml",
    "/sitemap-pages.xml",
    "/sitemap-posts-1.xml",
    "/feed.xml",
    "/robots.txt",
    "/go/unlinked",
    `/uploads/${ids.upload}`,
    "/api/settings",
    "/api/blog/posts",
    "/api/blog/categories",
    `/api/blog/post/${ids.post}`,
    `/api/blog/post/${ids.post}/related`,
    "/api/course/modules",
    "/api/course/modules/1",
    `/api/quiz/result/${ids.quiz}`,
    `/api/earnings/result/${ids.earnings}`,
    "/api/recommended-products/Girl%20Next%20Door",
    "/api/pages/terms",
    "/api/pages/privacy",
    "/admin",
    "/admin/settings",
    "/admin/media",
  ];
}

const ADMIN_READS = [
  "/api/admin/home",
  "/api/admin/settings",
  "/api/admin/settings/address",
  "/api/admin/settings/link-checks",
  "/api/admin/settings/result-retention",
  "/api/admin/media",
  "/api/admin/links",
  "/api/admin/links/check",
  "/api/admin/blog/posts",
  "/api/admin/blog/posts?page=2&q=post",
  "/api/admin/blog/post/1",
  "/api/admin/blog/category-posts",
  "/api/admin/affiliate-offers",
  "/api/admin/recommended-products",
  "/api/admin/site-pages",
  "/api/admin/site-page/terms",
  "/api/admin/analytics",
  "/api/admin/analytics.csv",
  "/api/admin/backups",
  "/api/admin/backups/summary",
  "/api/admin/account",
  "/api/admin/autosave/post:new",
];

/** The cases in groups with at most one value per column, so one start tries a whole group. */
function waves(): Case[][] {
  const groups: { columns: Set<string>; cases: Case[] }[] = [];
  for (const c of [...CASES, ...WRITTEN_CASES].filter((c) => c.live !== false)) {
    const column = c.label.split(" = ")[0]!;
    let group = groups.find((g) => !g.columns.has(column));
    if (!group) {
      group = { columns: new Set(), cases: [] };
      groups.push(group);
    }
    group.columns.add(column);
    group.cases.push(c);
  }
  return groups.map((g) => g.cases);
}

describe("the same values written into a live DATA_DIR: the server starts, logs and answers", () => {
  test("every page and admin read answers without a 5xx or a stack trace; each value read in its place is logged", async () => {
    const groups = waves();
    const outcomes = await pool(groups.length, 2, async (i) => {
      const data = copyOfBase("values-live-edit");
      edit(join(data, "app.db"), groups[i]!.map((c) => `${c.sql()};`).join("\n"));
      const server = await serve(data);
      const answers: string[] = [];
      try {
        const as = await admin(server.url);
        for (const path of crawl()) {
          const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
          const body = await res.text();
          if (res.status >= 500 || STACK_TRACE.test(body)) answers.push(`${res.status} ${path}`);
        }
        for (const path of [...ADMIN_READS, `/api/admin/media/${ids.media}`]) {
          const res = await as(path);
          const body = await res.text();
          if (res.status >= 500 || STACK_TRACE.test(body)) answers.push(`${res.status} ${path}`);
        }
      } finally {
        const log = await stop(server);
        answers.push(...(STACK_TRACE.test(log) ? [`stack trace in the log: ${log}`] : []));
        for (const c of groups[i]!)
          if (c.logs && !log.includes(`stored value: ${c.logs} `)) answers.push(`not logged: ${c.label}`);
      }
      return answers;
    });
    expect(outcomes.flat()).toEqual([]);
  }, 90_000);
});

// ---------------------------------------------------------------------------------------

/** Polls `check` until it answers a value, within a deadline sized for a busy machine. */
async function until<T>(what: string, check: () => Promise<T | null>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await Bun.sleep(100);
  }
}

describe("the attacker's cases, closer", () => {
  test("numbers out of range read as their defaults: results kept 180 days, automatic backups keep 7 and restore, link checks on the default", async () => {
    const data = copyOfBase("values-defaults");
    const backups = scratchDir("values-backups");
    edit(
      join(data, "app.db"),
      `UPDATE site_settings SET disclosure_wording = '{"x":', result_retention_days = -5, backup_keep = -3,
         link_check_hours = 99999999999 WHERE id = 1;
       UPDATE media SET variants = '{{' WHERE id = ${ids.media};`,
    );
    const server = await serve(data, { BACKUP_CRON: "* * * * * *", BACKUP_DIR: backups });
    try {
      const saved = await post(server.url, "/api/quiz/result", QUIZ);
      expect(saved.status).toBe(201);
      const { id } = (await saved.json()) as { id: string };
      expect((await fetch(`${server.url}/api/quiz/result/${id}`)).status).toBe(200);
      const privacy = await (await fetch(`${server.url}/privacy`)).text();
      expect(privacy).toContain("180 days");
      expect(privacy).not.toContain("-5 days");
      const as = await admin(server.url);
      expect(await (await as("/api/admin/settings/result-retention")).json()).toMatchObject({
        days: 180,
        stored: null,
      });
      expect(await (await as("/api/admin/settings/link-checks")).json()).toMatchObject({ stored: null });
      expect(await (await as("/api/admin/settings")).json()).toMatchObject({ disclosureWording: {} });
      const library = await as("/api/admin/media");
      expect(library.status).toBe(200);
      expect(((await library.json()) as { variants: unknown[] }[])[0]!.variants).toEqual([]);
      // Every second a run starts; the first one that ends must have succeeded, keeping 7.
      const run = await until("an automatic backup", async () => {
        const { runs } = (await (await as("/api/admin/backups")).json()) as {
          runs: { trigger: string; status: string; file: string | null; error: string | null }[];
        };
        return runs.find((r) => r.trigger === "schedule" && r.status !== "running") ?? null;
      });
      expect(run).toMatchObject({ status: "ok", error: null });
      expect(((await (await as("/api/admin/backups")).json()) as { schedule: { keep: number } }).schedule.keep).toBe(7);
      // The backup holds what the site runs on, and restores.
      const restored = join(scratchDir("values-restored"), "data");
      const result = await cli(["restore", join(backups, run.file!)], { DATA_DIR: restored });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
      const db = new Database(join(restored, "app.db"), { readonly: true });
      expect(
        db
          .query("SELECT disclosure_wording, result_retention_days, backup_keep, link_check_hours FROM site_settings")
          .get(),
      ).toEqual({ disclosure_wording: null, result_retention_days: null, backup_keep: null, link_check_hours: null });
      expect(db.query(`SELECT variants FROM media WHERE id = ${ids.media}`).get()).toEqual({ variants: "[]" });
      db.close();
    } finally {
      await stop(server);
    }
  }, 60_000);

  test("a media row named ../jwt-secret is listed as broken and deleted without touching any file", async () => {
    const data = copyOfBase("values-media-name");
    const secret = readFileSync(join(data, "jwt-secret"));
    edit(
      join(data, "app.db"),
      `INSERT INTO media (name, mime, kind, size, alt, variants, created_at) VALUES
         ('../jwt-secret', 'image/png', 'image', 64, '', '[{"name":"../jwt-secret","width":1,"height":1,"size":1}]', 1700000000000),
         ('../uploads', 'image/png', 'image', 64, '', '[]', 1700000000000)`,
    );
    const before = tree(data);
    const server = await serve(data);
    try {
      const as = await admin(server.url);
      const list = (await (await as("/api/admin/media")).json()) as { id: number; name: string; missing: boolean }[];
      const planted = list.filter((item) => item.name.startsWith("../"));
      expect(planted.map((item) => item.missing)).toEqual([true, true]);
      for (const item of planted) {
        const gone = await as(`/api/admin/media/${item.id}?force=1`, { method: "DELETE" });
        expect(gone.status).toBe(200);
        expect((await as(`/api/admin/media/${item.id}`)).status).toBe(404);
      }
      expect(readFileSync(join(data, "jwt-secret"))).toEqual(secret);
      const uploads = Object.keys(before).filter((name) => name.startsWith("uploads/"));
      expect(Object.keys(tree(data)).filter((name) => name.startsWith("uploads/"))).toEqual(uploads);
    } finally {
      await stop(server);
    }
  }, 30_000);
});
