// The executable on PostgreSQL (DATABASE_URL): instances started together on one empty database
// migrate and seed it once, serve the same site, share sessions (JWT_SECRET), and a command that
// only applies to SQLite's file refuses in one clear line. Run by `bun run test:postgres`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { content } from "#server/db/content.ts";
import { postInput } from "./support/admin-inputs.ts";
import { BINARY, ensureBuilt, pool, type Running, startServer, stopServer } from "./support/binary.ts";
import { testImage, uploadForm } from "./support/images.ts";
import { testPort } from "./support/ports.ts";
import { emptyDatabase } from "./support/postgres.ts";
import { startBucket, type TestBucket } from "./support/s3.ts";
import { scratchDir } from "./support/scratch.ts";

const SECRET = "pg-site-secret-pg-site-secret-pg-site-0123";
const PASSWORD = "durable-password-123";

let database: Awaited<ReturnType<typeof emptyDatabase>>;
let sql: postgres.Sql;
let sites: Running[] = [];
let bucket: TestBucket;
// The tests stand for visitors at other addresses with X-Forwarded-For, from a proxy on loopback.
const env = () => ({
  DATABASE_URL: database.url,
  JWT_SECRET: SECRET,
  ADMIN_PASSWORD: PASSWORD,
  TRUSTED_PROXIES: "127.0.0.1,::1",
  // Slow to refill, so a busy machine taking seconds over sixty writes cannot let a sixty-first through.
  WRITE_LIMIT: "60/hour",
  // One bucket for the uploads of all three (a local S3-compatible server).
  ...bucket.env,
});

beforeAll(async () => {
  ensureBuilt();
  database = await emptyDatabase("site");
  bucket = await startBucket();
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  // Three at once, each with a DATA_DIR of its own (the uploads), on the one empty database.
  sites = await Promise.all([1, 2, 3].map((i) => startServer(scratchDir(`pg-site-${i}`), env())));
});

afterAll(async () => {
  await Promise.all(sites.map(stopServer));
  await sql.end({ timeout: 5 });
  await database.drop();
  await bucket.close();
});

/** Runs a command of the executable beside the servers; its exit code and what it printed. */
async function command(args: string[], extra: Record<string, string> = {}) {
  const proc = Bun.spawn([BINARY, ...args], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: scratchDir("pg-command"), ...env(), ...extra },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, output: out + err };
}

async function signIn(site: Running): Promise<string> {
  const res = await fetch(`${site.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: site.url },
    body: JSON.stringify({ username: "admin", password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

describe("three instances started together on one PostgreSQL database", () => {
  test("the schema and the seed were made once: one settings row, one admin, each post once", async () => {
    const [counts] = await sql`
      select (select count(*)::int from site_settings) as settings,
             (select count(*)::int from admin_users) as admins,
             (select count(*)::int from blog_posts) as posts,
             (select count(distinct slug)::int from blog_posts) as slugs,
             (select count(*)::int from drizzle.__drizzle_migrations) as migrations`;
    expect(counts).toMatchObject({
      settings: 1,
      admins: 1,
      posts: content.blogPosts.length,
      slugs: content.blogPosts.length,
    });
    expect(counts?.migrations).toBeGreaterThan(0);
  });

  test("each serves the site: pages, the blog and health", async () => {
    const [published] = await sql`
      select count(*)::int as n from blog_posts where published and (publish_at is null or publish_at <= now())`;
    expect(published?.n).toBeGreaterThan(0);
    for (const site of sites) {
      const home = await fetch(`${site.url}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain(content.siteSettings.brandName);
      const { total } = (await (await fetch(`${site.url}/api/blog/posts`)).json()) as { total: number };
      expect(total).toBe(published?.n);
      expect(await (await fetch(`${site.url}/healthz`)).json()).toMatchObject({ status: "ok" });
    }
  });

  test("a result saved through one is read through the others", async () => {
    const [a, b, c] = sites as [Running, Running, Running];
    const saved = await fetch(`${a.url}/api/quiz/result`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: a.url },
      body: JSON.stringify({ archetype: "Girl Next Door", answers: Array(15).fill("A") }),
    });
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: string };
    for (const site of [b, c]) {
      const read = await fetch(`${site.url}/api/quiz/result/${id}`);
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ id, archetype: "Girl Next Door" });
    }
  });

  test("a session signed in on one is good on the others (one JWT_SECRET)", async () => {
    const [a, b, c] = sites as [Running, Running, Running];
    const cookie = await signIn(a);
    for (const site of [b, c]) {
      const me = await fetch(`${site.url}/api/auth/me`, { headers: { cookie } });
      expect(await me.json()).toMatchObject({ isAdmin: true });
    }
  });

  test("backups say where a PostgreSQL site's are made, and take none", async () => {
    const [a] = sites as [Running];
    const cookie = await signIn(a);
    const res = await fetch(`${a.url}/api/admin/backups/run`, {
      method: "POST",
      headers: { cookie, origin: a.url },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toContain("pg_dump");
    const [runs] = await sql`select count(*)::int as n from backup_runs`;
    expect(runs?.n).toBe(0);
    // The Backups section and the setup checklist say so before anyone presses anything.
    const overview = await (await fetch(`${a.url}/api/admin/backups`, { headers: { cookie } })).json();
    expect(overview).toMatchObject({ besideData: false, elsewhere: expect.stringContaining("pg_dump") });
    const home = (await (await fetch(`${a.url}/api/admin/home`, { headers: { cookie } })).json()) as {
      setup: { id: string; title: string }[];
    };
    expect(home.setup.find((item) => item.id === "backup")?.title).toBe("Back up the PostgreSQL database");
  });
});

/** Polls `site`'s `path` until its page holds `text`; answers how long it took (fails after 8 s). */
async function seenWithin(site: Running, path: string, text: string): Promise<number> {
  const start = Date.now();
  for (;;) {
    const page = await (await fetch(`${site.url}${path}`)).text();
    if (page.includes(text)) return Date.now() - start;
    if (Date.now() - start > 8000) throw new Error(`${site.url}${path} still lacks "${text}" after 8 s`);
    await Bun.sleep(50);
  }
}

/** Reads `path` until an answer comes from the cache. */
async function cached(site: Running, path: string): Promise<void> {
  for (let i = 0; i < 5; i++) if ((await fetch(`${site.url}${path}`)).headers.get("x-cache") === "hit") return;
  throw new Error(`${site.url}${path} never answered from the cache`);
}

describe("one site across instances: what one changes, the others' cached pages show", () => {
  test("a post published through one appears on the others' cached blog within a few seconds", async () => {
    const [a, b, c] = sites as [Running, Running, Running];
    for (const site of [b, c]) await cached(site, "/blog");
    const cookie = await signIn(a);
    const title = "Published Through Instance A";
    const res = await fetch(`${a.url}/api/admin/blog/post`, {
      method: "POST",
      headers: { cookie, origin: a.url, "content-type": "application/json" },
      body: JSON.stringify(postInput({ title, slug: "published-through-a" })),
    });
    expect(res.status).toBe(201);
    for (const site of [b, c]) expect(await seenWithin(site, "/blog", title)).toBeLessThan(5000);
  });

  test("a change made beside the site, straight in the database, reaches every instance", async () => {
    for (const site of sites) await cached(site, "/");
    await sql`update site_settings set brand_name = 'Changed In The Database'`;
    for (const site of sites) expect(await seenWithin(site, "/", "Changed In The Database")).toBeLessThan(5000);
  });

  test("a change missed while an instance's listening connection was cut is caught up", async () => {
    for (const site of sites) await cached(site, "/");
    // Every listening connection of every instance is cut; the change is made before they are back.
    const cut = await sql`
      select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'cam-guide' and query ilike 'listen%'`;
    expect(cut.length).toBe(sites.length);
    await sql`update site_settings set brand_name = 'Caught Up After A Cut'`;
    for (const site of sites) expect(await seenWithin(site, "/", "Caught Up After A Cut")).toBeLessThan(6000);
    await sql`update site_settings set brand_name = ${content.siteSettings.brandName}`;
  });
});

describe("one site across instances: limits and settings hold on all", () => {
  const from = (address: string, extra: Record<string, string> = {}) => ({ "x-forwarded-for": address, ...extra });

  test("a sign-in throttled on one is throttled on all, and a guess on each counts", async () => {
    const guess = (site: Running, password: string) =>
      fetch(`${site.url}/api/auth/login`, {
        method: "POST",
        headers: from("203.0.113.77", { "content-type": "application/json", origin: site.url }),
        body: JSON.stringify({ username: "admin", password }),
      });
    // Five wrong passwords, spread over the three instances.
    for (let i = 0; i < 5; i++) expect((await guess(sites[i % 3]!, `wrong-${i}`)).status).toBe(401);
    // Every instance now refuses this network, the right password included.
    for (const site of sites) {
      const refused = await guess(site, PASSWORD);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Another network is not held back.
    expect(
      (
        await fetch(`${sites[1]!.url}/api/auth/login`, {
          method: "POST",
          headers: from("198.51.100.77", { "content-type": "application/json", origin: sites[1]!.url }),
          body: JSON.stringify({ username: "admin", password: PASSWORD }),
        })
      ).status,
    ).toBe(200);
  });

  test("a network's write budget is one across instances: 60 in all, then 429 on each", async () => {
    const post = (site: Running) =>
      fetch(`${site.url}/api/quiz/result`, {
        method: "POST",
        headers: from("192.0.2.77", { "content-type": "application/json", origin: site.url }),
        body: "{}",
      });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await post(sites[i % 3]!)).status);
    // Each a bad body (422), but each took a write from the one budget.
    expect(statuses.every((status) => status === 422)).toBe(true);
    for (const site of sites) expect((await post(site)).status).toBe(429);
  });

  test("the public address and the link-check schedule saved through one are what the others use", async () => {
    const [a, b, c] = sites as [Running, Running, Running];
    for (const site of [b, c]) await cached(site, "/blog");
    const cookie = await signIn(a);
    const put = (path: string, body: unknown) =>
      fetch(`${a.url}/api/admin${path}`, {
        method: "PUT",
        headers: { cookie, origin: a.url, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await put("/settings/address", { origin: "https://shared.example" })).status).toBe(200);
    expect((await put("/settings/link-checks", { hours: 6 })).status).toBe(200);
    for (const site of [b, c]) {
      expect(await seenWithin(site, "/blog", "https://shared.example/blog")).toBeLessThan(5000);
      const session = await signIn(site);
      const deadline = Date.now() + 5000;
      let schedule: { hours: number | null; stored: number | null } = { hours: null, stored: null };
      while (Date.now() < deadline) {
        const res = await fetch(`${site.url}/api/admin/settings/link-checks`, { headers: { cookie: session } });
        schedule = await res.json();
        if (schedule.hours === 6) break;
        await Bun.sleep(50);
      }
      expect(schedule).toMatchObject({ hours: 6, stored: 6 });
    }
    expect(
      (await fetch(`${a.url}/api/admin/settings/address`, { method: "DELETE", headers: { cookie, origin: a.url } }))
        .status,
    ).toBe(200);
  });
});

describe("one site across instances: uploads in one bucket", () => {
  test("an upload through one is served by the others; deleted through another, none serves it", async () => {
    const [a, b, c] = sites as [Running, Running, Running];
    const cookie = await signIn(a);
    const image = await testImage(900, 600);
    const res = await fetch(`${a.url}/api/upload`, {
      method: "POST",
      headers: { cookie, origin: a.url },
      body: uploadForm(image, "shared.jpg"),
    });
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };
    // The same bytes uploaded through another instance are the same upload, not a second copy.
    const again = await fetch(`${c.url}/api/upload`, {
      method: "POST",
      headers: { cookie: await signIn(c), origin: c.url },
      body: uploadForm(image, "shared-again.jpg"),
    });
    expect(((await again.json()) as { url: string }).url).toBe(url);
    const whole = new Uint8Array(await (await fetch(`${a.url}${url}`)).arrayBuffer());
    for (const site of [b, c]) {
      const served = await fetch(`${site.url}${url}`);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(whole);
    }
    // The media library on another instance lists it, not missing.
    const other = await signIn(b);
    const items = (await (await fetch(`${b.url}/api/admin/media`, { headers: { cookie: other } })).json()) as {
      id: number;
      url: string;
      missing: boolean;
    }[];
    const item = items.find((i) => i.url === url)!;
    expect(item.missing).toBe(false);
    // Deleted through b: a and c, which hold it in their folders, stop serving it.
    const gone = await fetch(`${b.url}/api/admin/media/${item.id}?force=1`, {
      method: "DELETE",
      headers: { cookie: other, origin: b.url },
    });
    expect(gone.status).toBe(200);
    for (const site of [a, b, c]) {
      const deadline = Date.now() + 5000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await fetch(`${site.url}${url}`)).status;
        if (status === 404) break;
        await Bun.sleep(50);
      }
      expect(status).toBe(404);
    }
  });
});

describe("commands with DATABASE_URL", () => {
  test("seed beside the running servers adds nothing twice", async () => {
    const [before] = await sql`select count(*)::int as n from blog_posts`;
    const { code, output } = await command(["seed"]);
    expect(code).toBe(0);
    expect(output).not.toContain("Error");
    const [after] = await sql`select count(*)::int as n from blog_posts`;
    expect(after?.n).toBe(before?.n);
  });

  test("admin reset-password works on the PostgreSQL site and signs every session out", async () => {
    const [a] = sites as [Running];
    const cookie = await signIn(a);
    const { code, output } = await command(["admin", "reset-password"], { ADMIN_PASSWORD: "another-password-456" });
    expect([code, output]).toEqual([0, expect.stringContaining("set from ADMIN_PASSWORD")]);
    const me = await fetch(`${a.url}/api/auth/me`, { headers: { cookie } });
    expect(await me.json()).toMatchObject({ isAdmin: false });
    // Back as it was, for the other tests.
    expect((await command(["admin", "reset-password"])).code).toBe(0);
  });

  test.each([
    [["backup", "/tmp/never-written.tar.gz"], "pg_dump"],
    [["restore", "/tmp/never-read.tar.gz"], "pg_restore"],
    [["new-database"], "first start"],
  ])("%p refuses in one line, nothing changed", async (args, hint) => {
    const { code, output } = await command(args);
    expect(code).toBe(1);
    expect(output).toContain("this site's is PostgreSQL (DATABASE_URL)");
    expect(output).toContain(hint);
    expect(output.trim().split("\n")).toHaveLength(1);
  });

  test("a database that cannot be reached stops the start in one line, the password never shown", async () => {
    const unreachable = "postgres://cam:hunter2-secret@127.0.0.1:1/nowhere";
    const { code, output } = await command(["serve"], { DATABASE_URL: unreachable, PORT: "1" });
    expect(code).toBe(1);
    expect(output).toContain("Cannot use PostgreSQL at 127.0.0.1:1/nowhere (DATABASE_URL)");
    expect(output).not.toContain("hunter2");
  });

  test("DATABASE_URL without JWT_SECRET is refused before anything starts", async () => {
    const { code, output } = await command(["serve"], { JWT_SECRET: "" });
    expect(code).toBe(1);
    expect(output).toContain("JWT_SECRET is required with DATABASE_URL");
  });

  test("an instance started with another JWT_SECRET beside the running ones is refused, saying what to do; their sessions go on", async () => {
    const [a, b] = sites as [Running, Running];
    const cookie = await signIn(a);
    const { code, output } = await command(["serve"], {
      JWT_SECRET: "a-different-secret-of-more-than-thirty-two-characters",
      PORT: String(testPort()),
      HOST: "127.0.0.1",
    });
    expect(code).toBe(1);
    expect(output).toContain("JWT_SECRET differs from the one an instance of this site running on");
    expect(output).toContain("Nothing was changed.");
    expect(output).not.toContain("listening");
    // Three running instances written down, with one check of one secret; the refused one is not.
    const rows = await sql`select secret_check from running_instances`;
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.secret_check)).size).toBe(1);
    const me = await fetch(`${b.url}/api/auth/me`, { headers: { cookie } });
    expect(await me.json()).toMatchObject({ isAdmin: true });
  });
});

describe("many writes spread over the instances", () => {
  // 24 requests in flight at every moment, spread over the three: the races are the same at any
  // count (10,000 took 24 s of the suite to show what 3,000 show).
  test("3,000 quiz results through three instances at once: every one answered 201 is kept, once", async () => {
    const before = Number((await sql`select count(*)::int as n from quiz_results`)[0]?.n);
    const ids = await pool(3_000, 24, async (i) => {
      const site = sites[i % sites.length]!;
      const res = await fetch(`${site.url}/api/quiz/result`, {
        method: "POST",
        // 120 visitors' addresses, 25 results each: within each one's write and daily limits.
        headers: {
          "content-type": "application/json",
          origin: site.url,
          "x-forwarded-for": `10.9.${Math.floor(i / 25) >> 8}.${Math.floor(i / 25) & 255}`,
        },
        body: JSON.stringify({ archetype: "Girl Next Door", answers: Array(15).fill("A") }),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    });
    expect(new Set(ids).size).toBe(3_000);
    const [after] = await sql`select count(*)::int as n from quiz_results`;
    expect(Number(after?.n) - before).toBe(3_000);
  }, 240_000);
});

describe("an instance killed with SIGKILL", () => {
  test("the others keep serving, and what it acknowledged is kept", async () => {
    const [a, b, c] = sites as [Running, Running, Running];
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${c.url}/api/quiz/result`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: c.url },
        body: JSON.stringify({ archetype: "Girl Next Door", answers: Array(15).fill("A") }),
      });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    c.proc.kill("SIGKILL");
    await c.proc.exited;
    for (const site of [a, b]) expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
    for (const id of ids) expect((await fetch(`${a.url}/api/quiz/result/${id}`)).status).toBe(200);
  });
});
