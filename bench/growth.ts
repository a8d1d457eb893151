// `bun bench/growth.ts`: what the site costs as it grows. For each size (GROWTH_SIZES, default
// 10,1000,10000 published posts) it makes a DATA_DIR with bench/growth-data.ts (kept under
// GROWTH_DIR, default /tmp/cam-guide-growth, and reused on the next run), starts the compiled
// executable on it and measures:
//   - start to the first 200 of /, and the first view of /blog after it;
//   - for each page and answer below, its bytes (uncompressed) and its time: pages rendered on
//     every request (/__bench/render, the page cache bypassed) and as cached; answers that are
//     not pages (the sitemap, the feed, the JSON lists) on their first request and then again;
//   - the admin's post list; POST /api/quiz/result and a result page by id;
//   - the database's size, memory after start (VmRSS) and the peak (VmHWM) after one request at a
//     time and after 10 renders of /blog at once.
// Each figure is printed at each size with its ratio to the first size, and written to
// bench/GROWTH.md. Quiz and earnings results are added at the largest size only (QUIZ, EARNINGS
// as growth-data.ts reads them): they changed nothing below it when measured.
//
// On each database of GROWTH_DATABASES (default sqlite,postgresql): SQLite's sites are kept and
// reused; PostgreSQL's are grown again on every run, in a throwaway cluster started as the tests
// start theirs (fsync off, so its writes cost less than on a real server; its reads do not).

import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { QUIZ_QUESTION_COUNT } from "#shared/features/quiz/constants.ts";
import { emptyDatabase, startCluster } from "#tests/support/postgres.ts";
import { binary, ensureBinary, spawnServer } from "./lib.ts";

const root = join(import.meta.dir, "..");
const sizes = (process.env.GROWTH_SIZES ?? "10,1000,10000").split(",").map(Number);
const baseDir = process.env.GROWTH_DIR ?? "/tmp/cam-guide-growth";
const port = Number(process.env.BENCH_PORT ?? 4630);
const base = `http://127.0.0.1:${port}`;
const ROUNDS = Number(process.env.GROWTH_ROUNDS ?? 5);
/** The seed's own posts: the smallest size is the seed alone. */
const SEEDED_POSTS = 11;
const PASSWORD = "bench-password-123";
const JWT_SECRET = "growth-bench-session-secret-0123456789abcdef";
const databases = (process.env.GROWTH_DATABASES ?? "sqlite,postgresql").split(",") as ("sqlite" | "postgresql")[];
for (const name of databases)
  if (name !== "sqlite" && name !== "postgresql")
    throw new Error(`GROWTH_DATABASES lists sqlite and postgresql, not ${name}`);

/** Where a grown site lives: its DATA_DIR, and on PostgreSQL its database. */
interface Site {
  dir: string;
  env: Record<string, string>;
  /** The database's size on the disk, in bytes. */
  size(): Promise<number>;
  drop(): Promise<void>;
}

ensureBinary();
mkdirSync(baseDir, { recursive: true });

/** A site with `posts` published posts (the seed's and grown ones): on SQLite made once and kept. */
async function grownSite(posts: number, largest: boolean, database: "sqlite" | "postgresql"): Promise<Site> {
  const name = `posts-${posts}${largest ? "-results" : ""}`;
  if (database === "postgresql") {
    const made = await emptyDatabase("growth");
    const dir = join(baseDir, `postgresql-${name}`);
    rmSync(dir, { recursive: true, force: true });
    const env = { DATABASE_URL: made.url, JWT_SECRET };
    grow(dir, posts, largest, env);
    return {
      dir,
      env,
      async size() {
        const sql = postgres(made.url, { max: 1, onnotice: () => {} });
        try {
          const [row] = await sql`SELECT pg_database_size(current_database())::bigint AS bytes`;
          return Number(row?.bytes);
        } finally {
          await sql.end({ timeout: 5 });
        }
      },
      async drop() {
        await made.drop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const dir = join(baseDir, name);
  if (!existsSync(join(dir, "app.db"))) grow(dir, posts, largest, {});
  return {
    dir,
    env: {},
    size: async () =>
      ["app.db", "app.db-wal"]
        .map((file) => join(dir, file))
        .filter(existsSync)
        .reduce((sum, file) => sum + statSync(file).size, 0),
    drop: async () => {},
  };
}

/** Grows the site in `dir` (and the database `more` names) with bench/growth-data.ts. */
function grow(dir: string, posts: number, largest: boolean, more: Record<string, string>): void {
  const env = {
    ...process.env,
    ...more,
    POSTS: String(Math.max(0, posts - SEEDED_POSTS)),
    QUIZ: largest ? (process.env.QUIZ ?? "2000000") : "0",
    EARNINGS: largest ? (process.env.EARNINGS ?? "1000000") : "0",
    DAYS: process.env.DAYS ?? "365",
    BENCH_SKIP_BUILD: "1",
    BENCH_BINARY: binary,
  };
  console.log(`making ${dir} ...`);
  const made = Bun.spawnSync(["bun", join(import.meta.dir, "growth-data.ts"), dir], {
    cwd: root,
    env,
    stdout: "inherit",
    stderr: "inherit",
  });
  if (made.exitCode !== 0) process.exit(1);
}

const median = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; bytes: number; status: number }> {
  const started = performance.now();
  const res = await fetch(url, { ...init, headers: { "accept-encoding": "identity", ...init?.headers } });
  const body = await res.arrayBuffer();
  return { ms: performance.now() - started, bytes: body.byteLength, status: res.status };
}

function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

type Figures = Map<string, number>;

async function measure(posts: number, largest: boolean, database: "sqlite" | "postgresql"): Promise<Figures> {
  const site = await grownSite(posts, largest, database);
  const figures: Figures = new Map();
  const put = (name: string, value: number) => figures.set(name, value);
  // PUBLIC_URL: without it the sitemap and the feed answer 404 (no address to link to).
  const start = async () => {
    const started = performance.now();
    const server = spawnServer(port, site.dir, {
      ...site.env,
      CAM_GUIDE_BENCH: "1",
      WRITE_LIMIT: "off",
      ANALYTICS: "off",
      PUBLIC_URL: base,
    });
    for (;;) {
      try {
        if ((await fetch(`${base}/`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) {
        server.kill("SIGKILL");
        throw new Error("the server did not answer within 2 minutes");
      }
      await Bun.sleep(5);
    }
    return { server, ms: performance.now() - started };
  };
  // The first start on a grown site may upgrade it (a site kept from an older build: a backup,
  // then the migrations); the start measured is the next one, as an owner's every restart.
  const first = await start();
  first.server.kill("SIGTERM");
  await first.server.exited;
  const { server, ms } = await start();
  try {
    put("first start on the grown site (ms)", first.ms);
    put("start to first 200 (ms)", ms);
    put("memory after start (MiB)", memory(server.pid).rss);
    put("/blog first view after start (ms)", (await timed(`${base}/blog`)).ms);

    // A category and a post of this site, from its own feed and list.
    const { posts: list } = (await (await fetch(`${base}/api/blog/posts`)).json()) as {
      posts: { slug: string; category?: string }[];
    };
    const category = list.find((p) => p.category)?.category ?? "getting-started";
    const post = list[Math.floor(list.length / 2)]?.slug ?? list[0]!.slug;
    const pages: [string, string][] = [
      ["/blog", "/blog"],
      ["/blog?page=2", "/blog?page=2"],
      ["/blog?category=…", `/blog?category=${encodeURIComponent(category)}`],
      ["/blog?q=… (two words)", "/blog?q=make+money"],
      ["a post", `/blog/${post}`],
      ["home", "/"],
    ];
    for (const [name, path] of pages) {
      const renders: number[] = [];
      let bytes = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const rendered = await timed(`${base}/__bench/render?path=${encodeURIComponent(path)}`);
        renders.push(rendered.ms);
        bytes = rendered.bytes;
      }
      const cached: number[] = [];
      for (let i = 0; i < ROUNDS * 4; i++) cached.push((await timed(`${base}${path}`)).ms);
      put(`${name}: bytes`, bytes);
      put(`${name}: rendered (ms)`, median(renders));
      put(`${name}: cached (ms)`, median(cached));
    }
    for (const [name, path] of [
      ["/sitemap.xml", "/sitemap.xml"],
      ["/sitemap-posts-1.xml", "/sitemap-posts-1.xml"],
      ["/blog/rss.xml", "/blog/rss.xml"],
      ["GET /api/blog/posts", "/api/blog/posts"],
      ["GET /api/blog/posts?page=2", "/api/blog/posts?page=2"],
      ["GET /api/blog/posts?q=… (two words)", "/api/blog/posts?q=make+money"],
    ] as const) {
      const first = await timed(`${base}${path}`);
      const again: number[] = [];
      for (let i = 0; i < ROUNDS; i++) again.push((await timed(`${base}${path}`)).ms);
      put(`${name}: bytes`, first.bytes);
      put(`${name}: first (ms)`, first.ms);
      put(`${name}: again (ms)`, median(again));
    }

    // The admin's list of posts, signed in.
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ username: "admin", password: PASSWORD }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    if (login.status === 200) {
      const admin: number[] = [];
      let bytes = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const answer = await timed(`${base}/api/admin/blog/posts`, { headers: { cookie } });
        admin.push(answer.ms);
        bytes = answer.bytes;
      }
      put("GET /api/admin/blog/posts: bytes", bytes);
      put("GET /api/admin/blog/posts (ms)", median(admin));
    } else console.log(`(admin sign-in answered ${login.status}: its list is not measured)`);

    // A quiz result saved, then its page.
    const saves: number[] = [];
    let id = "";
    for (let i = 0; i < ROUNDS * 4; i++) {
      const startedSave = performance.now();
      const res = await fetch(`${base}/api/quiz/result`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({ archetype: "Girl Next Door", answers: Array(QUIZ_QUESTION_COUNT).fill("A") }),
      });
      const saved = (await res.json()) as { id?: string };
      if (res.status !== 201) throw new Error(`POST /api/quiz/result answered ${res.status}: ${JSON.stringify(saved)}`);
      saves.push(performance.now() - startedSave);
      id = saved.id ?? id;
    }
    put("POST /api/quiz/result (ms)", median(saves));
    if (id) {
      const path = `/quiz/result?archetype=${encodeURIComponent("Girl Next Door")}&id=${id}`;
      const renders: number[] = [];
      for (let i = 0; i < ROUNDS; i++) renders.push((await timed(`${base}${path}`)).ms);
      put("a result page by id (ms)", median(renders));
    }
    put("peak memory, one request at a time (MiB)", memory(server.pid).peak);
    await Promise.all(
      Array.from({ length: 10 }, () => timed(`${base}/__bench/render?path=${encodeURIComponent("/blog")}`)),
    );
    put("peak memory, 10 renders of /blog at once (MiB)", memory(server.pid).peak);
    put("database size (MiB)", (await site.size()) / 1024 / 1024);
  } finally {
    server.kill("SIGTERM");
    await server.exited;
    await site.drop();
  }
  return figures;
}

const format = (value: number) =>
  Number.isNaN(value)
    ? "?"
    : value >= 100
      ? Math.round(value).toLocaleString("en")
      : value.toLocaleString("en", { maximumFractionDigits: 1 });

/** Each figure at each size, and its ratio to the first size. */
function table(results: [number, Figures][]): string {
  const names = [...(results[0]?.[1].keys() ?? [])];
  const header = `| Figure | ${results.map(([n]) => `${n.toLocaleString("en")} posts`).join(" | ")} | ${results
    .slice(1)
    .map(([n]) => `${n.toLocaleString("en")} / ${results[0]![0]}`)
    .join(" | ")} |`;
  return [
    header,
    `|---|${results.map(() => "---|").join("")}${results
      .slice(1)
      .map(() => "---|")
      .join("")}`,
    ...names.map((name) => {
      const values = results.map(([, f]) => f.get(name) ?? Number.NaN);
      const ratios = values.slice(1).map((v) => `${(v / values[0]!).toFixed(1)}×`);
      return `| ${name} | ${values.map(format).join(" | ")} | ${ratios.join(" | ")} |`;
    }),
  ].join("\n");
}

const TITLES = { sqlite: "SQLite (the default)", postgresql: "PostgreSQL 15" };
const sections: string[] = [];
const cluster = databases.includes("postgresql") ? startCluster() : null;
if (cluster) process.env.TEST_POSTGRES_URL = cluster.url();
try {
  for (const database of databases) {
    const results: [number, Figures][] = [];
    for (const [i, posts] of sizes.entries()) {
      console.log(`measuring at ${posts.toLocaleString("en")} posts on ${database} ...`);
      results.push([posts, await measure(posts, i === sizes.length - 1 && sizes.length > 1, database)]);
    }
    const section = `## ${TITLES[database]}\n\n${table(results)}`;
    console.log(`\n${section}\n`);
    sections.push(section);
  }
} finally {
  cluster?.stop();
}

writeFileSync(
  join(import.meta.dir, "GROWTH.md"),
  `# Growth: what the site costs at ${sizes.map((n) => n.toLocaleString("en")).join(", ")} posts\n\n` +
    `Made by \`bun bench/growth.ts\` on ${new Date().toISOString().slice(0, 10)} (the machine's load changes the times; read the ratios). ` +
    'Bytes are uncompressed; "rendered" bypasses the page cache (/__bench/render); the largest size also holds the quiz and earnings results. ' +
    "PostgreSQL runs on the same machine, in a throwaway cluster with fsync off.\n\n" +
    `${sections.join("\n\n")}\n`,
);
