// Writes that requests without a session can cause are bounded, against the compiled executable
// as a real process: rotating user agents on /go/, on pages and on the beacon; rotating
// referrers and utm_source values; many addresses through a trusted proxy to reach the ceilings
// for everyone; IPv6 /64 variants; saved quiz and calculator results; floods under pressure,
// where a network's share shrinks and an IPv6 /56 or /48 counts as a few networks, so 256 /64s
// of one /56 or 1,000 IPv4 addresses cannot deny a new visitor a result. Beyond a limit the detail
// stops and the events are counted in "(over the limit)" totals, so the admin's totals stay
// honest and the page says so. And the admin can still sign in and read on a full disk.
//
// The daily limits are lowered for the test by CAM_GUIDE_TEST_DAILY_LIMITS (it can only lower
// them), so a few hundred requests reach them. The full disk is a tmpfs where the machine allows
// mounting one, else a file size limit on the process (as in faults.test.ts).

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statfsSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OVER_LIMIT_KEY } from "#shared/features/analytics/constants.ts";
import type { AnalyticsReport } from "#shared/features/analytics/report.ts";
import { ensureBuilt, type Running, type StartOptions, startServer } from "#tests/support/binary.ts";
import { httpFrom } from "#tests/support/http-from.ts";
import { scratchDir } from "#tests/support/scratch.ts";

const PASSWORD = "durable-password-123";
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const QUIZ = { archetype: "Girl Next Door", answers: Array(15).fill("A") };
const EARNINGS = {
  tier: "Casual Starter",
  estimatedEarnings: "$30 – $470 a month",
  score: 15,
  answers: Array(15).fill(1),
};

beforeAll(() => ensureBuilt(), 180_000);

interface Server extends Running {
  dir: string;
  output(): string;
  stop(): Promise<number>;
}

const running = new Set<Server>();
afterAll(async () => {
  for (const server of running) {
    server.proc.kill("SIGKILL");
    await server.proc.exited;
  }
});

async function start(dir: string, env: Record<string, string> = {}, options: StartOptions = {}): Promise<Server> {
  const server = await startServer(dir, { ADMIN_PASSWORD: PASSWORD, ...env }, options);
  let output = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += new TextDecoder().decode(chunk);
  };
  void drain(server.proc.stdout);
  void drain(server.proc.stderr);
  const handle: Server = {
    ...server,
    dir,
    output: () => output,
    async stop() {
      running.delete(handle);
      if (server.proc.exitCode === null) server.proc.kill("SIGTERM");
      return server.proc.exited;
    },
  };
  running.add(handle);
  return handle;
}

/** Polls until `check` holds (counts are written once a second), or fails after `ms`. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await Bun.sleep(50);
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** A browser's navigation with its own user agent, from `address` as the trusted proxy (127.0.0.1) forwards it. */
function visit(server: Server, path: string, agent: string, address?: string, headers: Record<string, string> = {}) {
  return fetch(server.url + path, {
    redirect: "manual",
    headers: {
      "user-agent": agent,
      "sec-fetch-dest": "document",
      ...(address ? { "x-forwarded-for": address } : {}),
      ...headers,
    },
  });
}

function post(server: Server, path: string, body: unknown, address?: string, agent = UA) {
  return fetch(server.url + path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": agent,
      origin: server.url,
      ...(address ? { "x-forwarded-for": address } : {}),
    },
    body: JSON.stringify(body),
  });
}

async function signIn(server: Server): Promise<string> {
  const res = await post(server, "/api/auth/login", { username: "admin", password: PASSWORD });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

function asAdmin(server: Server, cookie: string) {
  return (path: string, init: RequestInit = {}) =>
    fetch(server.url + path, {
      ...init,
      headers: { cookie, origin: server.url, "content-type": "application/json", ...init.headers },
    });
}

/** Rows in a table (those that match `where`), read from the running server's database file. */
function rows(server: Server, table: string, where = "1"): number {
  const db = new Database(join(server.dir, "app.db"), { readonly: true });
  try {
    return (db.query(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

let sentinels = 0;

/**
 * The visitor rows a flood added, once all of it is written: one more visit (a network and
 * agent of its own) is counted after every request of the flood, and counts are written in
 * order, so when its row is there the flood's are too. Polls instead of sleeping.
 */
async function addedVisitors(server: Server, before: number, expected: number): Promise<number> {
  sentinels++;
  await visit(server, "/", `${UA} sentinel-${sentinels}`, `192.0.2.${200 + sentinels}`);
  await until("the flood is written", () => rows(server, "analytics_visitors") >= before + expected + 1);
  return rows(server, "analytics_visitors") - before - 1;
}

const sumOf = (list: { key: string; count: number }[], key?: string) =>
  list.filter((k) => key === undefined || k.key === key).reduce((n, k) => n + k.count, 0);

// ---------------------------------------------------------------------------------------------

describe("one network: rotating user agents, referrers and sources", () => {
  let server: Server;
  let cookie: string;
  let slug: string;
  const report = async () =>
    (await (await asAdmin(server, cookie)("/api/admin/analytics?days=7")).json()) as AnalyticsReport;

  beforeAll(async () => {
    server = await start(join(scratchDir("anon-one"), "data"), {
      TRUSTED_PROXIES: "127.0.0.1",
      CAM_GUIDE_TEST_DAILY_LIMITS: "visitorsPerClient=20,visitors=1000,resultsPerClient=5,newValuesPerClient=3",
    });
    cookie = await signIn(server);
    const links = (await (await asAdmin(server, cookie)("/api/admin/links")).json()) as { slug: string }[];
    slug = links[0]!.slug;
  }, 30_000);

  test("/go/ with a new user agent per request: 20 visitors' clicks by link, the other 40 in the total only", async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 60; i++)
      statuses.add((await visit(server, `/go/${slug}?p=footer`, `${UA} go-${i}`, "203.0.113.10")).status);
    expect([...statuses]).toEqual([302]);
    await until(
      "the clicks are written",
      async () => (await report()).totals.find((t) => t.id === "clicks")!.current >= 60,
    );
    const r = await report();
    // Honest totals: every click counted; the detail stops at the network's limit.
    expect(r.totals.find((t) => t.id === "clicks")!.current).toBe(60);
    expect(sumOf(r.links, slug)).toBe(20);
    expect(sumOf(r.links, OVER_LIMIT_KEY)).toBe(40);
    expect(r.overLimitDays).toEqual([r.to]);
    expect(rows(server, "analytics_visitors")).toBe(20);
  });

  test("pages with a new user agent per request: no more visitor rows than the network's limit", async () => {
    const before = rows(server, "analytics_visitors");
    for (let i = 0; i < 30; i++)
      expect((await visit(server, "/learn", `${UA} page-${i}`, "203.0.113.11")).status).toBe(200);
    expect(await addedVisitors(server, before, 20)).toBe(20);
  });

  test("the beacon with a new user agent per request: bounded the same way", async () => {
    const before = rows(server, "analytics_visitors");
    for (let i = 0; i < 30; i++) {
      const res = await post(
        server,
        "/api/analytics",
        { events: [{ metric: "quiz_start", key: "" }] },
        "203.0.113.12",
        `${UA} beacon-${i}`,
      );
      expect(res.status).toBe(204);
    }
    expect(await addedVisitors(server, before, 20)).toBe(20);
  });

  test("IPv6 addresses of one /64, in any spelling, are one network", async () => {
    const before = rows(server, "analytics_visitors");
    const spellings = [
      "2001:db8:5:6::1",
      "2001:db8:5:6:ffff:ffff:ffff:fffe",
      "[2001:db8:5:6::99]:443",
      "2001:DB8:5:6:0:0:0:7",
    ];
    for (let i = 0; i < 32; i++) await visit(server, "/blog", `${UA} v6-${i}`, spellings[i % spellings.length]);
    // The next /64 is another network.
    await visit(server, "/blog", `${UA} v6-next`, "2001:db8:5:7::1");
    expect(await addedVisitors(server, before, 21)).toBe(21);
  });

  test("a client that is not a trusted proxy cannot make new networks with X-Forwarded-For", async () => {
    const before = rows(server, "analytics_visitors");
    for (let i = 0; i < 30; i++) {
      const res = await httpFrom(server.port, {
        from: "127.0.0.9",
        path: "/resources",
        headers: {
          "user-agent": `${UA} spoof-${i}`,
          "sec-fetch-dest": "document",
          "x-forwarded-for": `198.51.100.${i}`,
        },
      });
      expect(res.status).toBe(200);
    }
    expect(await addedVisitors(server, before, 20)).toBe(20);
  });

  test("rotating referrers and utm sources from one network take 3 of the day's slots; a real referrer elsewhere still gets one", async () => {
    for (let i = 0; i < 15; i++)
      await visit(server, `/blog?utm_source=flood${i}`, `${UA} ref-${i}`, "203.0.113.13", {
        referer: `https://spam-${i}.example/`,
      });
    await visit(server, "/blog?utm_source=newsletter", `${UA} real`, "192.0.2.44", {
      referer: "https://news.example.org/story",
    });
    await until("the real referrer is written", async () =>
      (await report()).referrers.some((k) => k.key === "news.example.org"),
    );
    const r = await report();
    expect(r.referrers.filter((k) => k.key.startsWith("spam-"))).toHaveLength(3);
    expect(sumOf(r.referrers, "(other)")).toBe(12);
    expect(r.utmSources.map((k) => k.key)).toContain("newsletter");
    expect(r.utmSources.filter((k) => k.key.startsWith("flood"))).toHaveLength(3);
  });

  test("saved quiz and calculator results: 5 a day from one network (IPv6 /64 included), then 429 with Retry-After and nothing saved", async () => {
    const before = { quiz: rows(server, "quiz_results"), earnings: rows(server, "earnings_results") };
    const quiz: number[] = [];
    for (let i = 0; i < 7; i++)
      quiz.push((await post(server, "/api/quiz/result", QUIZ, `2001:db8:9:9::${i + 1}`)).status);
    expect(quiz).toEqual([201, 201, 201, 201, 201, 429, 429]);
    const refused = await post(server, "/api/quiz/result", QUIZ, "2001:db8:9:9:abcd::1");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: string }).error).toContain("Yours was not saved");
    const earnings: number[] = [];
    for (let i = 0; i < 6; i++)
      earnings.push((await post(server, "/api/earnings/result", EARNINGS, "2001:db8:9:9::1")).status);
    expect(earnings).toEqual([201, 201, 201, 201, 201, 429]);
    // Without JavaScript: a page that says so, never a 5xx.
    const form = await fetch(`${server.url}/quiz`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": UA,
        "x-forwarded-for": "2001:db8:9:9::2",
        origin: server.url,
      },
      body: `answers=${"A".repeat(15)}`,
    });
    expect(form.status).toBe(429);
    expect(await form.text()).toContain("Too many quiz results were saved from your network today");
    expect(rows(server, "quiz_results")).toBe(before.quiz + 5);
    expect(rows(server, "earnings_results")).toBe(before.earnings + 5);
    // The refused finishes are in the totals, not by archetype.
    await until(
      "the refused finishes are counted",
      async () => sumOf((await report()).quizFinishes, OVER_LIMIT_KEY) === 4,
    );
    expect(sumOf((await report()).quizFinishes, QUIZ.archetype)).toBe(5);
  }, 15_000);

  test("the log names no visitor's address for the limits", () => {
    expect(server.output()).toContain("daily limit on saved results reached");
    expect(server.output()).not.toContain("2001:db8:9:9");
  });
});

describe("many networks through a trusted proxy: the ceilings for everyone", () => {
  let server: Server;
  let cookie: string;

  beforeAll(async () => {
    server = await start(join(scratchDir("anon-many"), "data"), {
      TRUSTED_PROXIES: "127.0.0.1",
      CAM_GUIDE_TEST_DAILY_LIMITS: "visitorsPerClient=20,visitors=60,resultsPerClient=5,results=12,newValues=15",
    });
    cookie = await signIn(server);
  }, 30_000);

  test("visitors from 100 networks: 60 visitor rows, every page view in the total", async () => {
    expect(rows(server, "analytics_visitors")).toBe(0);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        visit(server, "/", `${UA} many-${i}`, `10.${i}.0.1`).then((r) => r.arrayBuffer()),
      ),
    );
    const report = async () =>
      (await (await asAdmin(server, cookie)("/api/admin/analytics?days=7")).json()) as AnalyticsReport;
    await until(
      "the views are written",
      async () => (await report()).totals.find((t) => t.id === "pageviews")!.current >= 100,
    );
    const r = await report();
    expect(r.totals.find((t) => t.id === "pageviews")!.current).toBe(100);
    expect(r.totals.find((t) => t.id === "visitors")!.current).toBe(60);
    expect(r.overLimitDays).toEqual([r.to]);
    expect(rows(server, "analytics_visitors")).toBe(60);
  });

  test("results from 20 networks: 12 saved, the rest 503 with Retry-After until midnight UTC", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(server, "/api/quiz/result", QUIZ, `172.20.${i}.1`)),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(12);
    expect(statuses.filter((s) => s === 503)).toHaveLength(8);
    const refused = answers.find((r) => r.status === 503)!;
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(86_400);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^The site has saved as many quiz results today/,
    );
    expect(rows(server, "quiz_results")).toBe(12);
    // /healthz is not affected: the site is well, it only keeps no more results today.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------
// Under pressure: the ceilings for everyone are no lever. The limits keep the defaults' shape
// (a network's quiet-day allowance a hundredth of the ceiling), so these floods reach the same
// quarter of it as they would against the defaults (src/server/lib/fair-share.test.ts holds the
// figures at full size).

interface Saved {
  address: string;
  saved: number;
  status: number;
  error: string;
}

/** Each address saves quiz results until one is refused, `parallel` addresses at a time. */
async function saveUntilRefused(server: Server, addresses: string[], parallel = 12): Promise<Saved[]> {
  const out: Saved[] = [];
  let next = 0;
  const worker = async () => {
    while (next < addresses.length) {
      const address = addresses[next++]!;
      for (let saved = 0; ; saved++) {
        const res = await post(server, "/api/quiz/result", QUIZ, address);
        if (res.status === 201) {
          await res.arrayBuffer();
          continue;
        }
        out.push({ address, saved, status: res.status, error: ((await res.json()) as { error: string }).error });
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return out;
}

const SHARE_REFUSAL =
  /^So many quiz results have been saved today that the site keeps only a few more from each network, and yours has had its share\. This one was not saved/;
const BLOCK_REFUSAL =
  /^So many quiz results have been saved today that the site keeps only a few more from each network and from each block of networks a provider hands out, and the block yours belongs to has had its share\./;

async function refusalOf(res: Response): Promise<{ status: number; error: string }> {
  const body = (await res.json()) as { error?: string };
  return { status: res.status, error: body.error ?? "" };
}

describe("floods under pressure: the heaviest networks are refused first, a new visitor is still served", () => {
  let server: Server;

  beforeAll(async () => {
    server = await start(join(scratchDir("anon-share"), "data"), {
      TRUSTED_PROXIES: "127.0.0.1",
      // Quarters of 1,000: 40 a network while quiet, then 4, then 1.
      CAM_GUIDE_TEST_DAILY_LIMITS: "results=4000,resultsPerClient=40,resultsFloor=1",
    });
  }, 30_000);

  test("256 /64s of one /56: a quarter of the ceiling, then the whole /48 is one network; elsewhere results are saved", async () => {
    // One /64 after another, as the figures count them.
    const flood = await saveUntilRefused(
      server,
      Array.from({ length: 256 }, (_, j) => `2001:db8:56:${j.toString(16)}::1`),
      1,
    );
    expect(rows(server, "quiz_results")).toBe(1_000);
    // 25 /64s saved their quiet-day 40, every other one was refused its first as the block's.
    expect(flood.filter((f) => f.saved > 0)).toHaveLength(25);
    expect(flood.every((f) => f.status === 429)).toBe(true);
    expect(flood.filter((f) => f.saved === 0).every((f) => BLOCK_REFUSAL.test(f.error))).toBe(true);
    // Any spelling of a new /64 of that /56, or of another /56 of its /48: the block's share is spent.
    for (const address of ["[2001:DB8:56:FF::7]:443", "2001:db8:56:ff:ffff:ffff:ffff:ffff", "2001:db8:56:1ff::1"]) {
      const refused = await refusalOf(await post(server, "/api/quiz/result", QUIZ, address));
      expect(refused.status).toBe(429);
      expect(refused.error).toMatch(BLOCK_REFUSAL);
    }
    // A visitor on a network of their own saves a result, over IPv4 or IPv6.
    for (const address of ["192.0.2.77", "2001:db8:57::1", "2001:db8:1:5600::1"])
      expect((await post(server, "/api/quiz/result", QUIZ, address)).status).toBe(201);
    expect((await post(server, "/api/earnings/result", EARNINGS, "2001:db8:56:ff::7")).status).toBe(201);
  }, 20_000);

  // After the /56's flood above (the day is a quarter full): the tests of a file run in order.
  test("1,000 IPv4 addresses through the trusted proxy, each saving until refused: the heavy ones stop at their share, a new visitor saves", async () => {
    const before = rows(server, "quiz_results");
    expect(before).toBeGreaterThanOrEqual(1_000);
    const flood = await saveUntilRefused(
      server,
      Array.from({ length: 1_000 }, (_, i) => `10.77.${i >> 8}.${i & 255}`),
    );
    const saved = rows(server, "quiz_results") - before;
    expect(saved).toBe(flood.reduce((n, f) => n + f.saved, 0));
    // A quarter to half full: 4 a network; then 1. Not even three quarters of the ceiling.
    expect(flood.every((f) => f.saved >= 1 && f.saved <= 4)).toBe(true);
    expect(rows(server, "quiz_results")).toBeLessThan(3_000);
    expect(flood.every((f) => f.status === 429 && SHARE_REFUSAL.test(f.error))).toBe(true);
    // A new visitor's first result is saved, by script and by the page's form.
    expect((await post(server, "/api/quiz/result", QUIZ, "198.51.100.200")).status).toBe(201);
    const form = (address: string) =>
      fetch(`${server.url}/quiz`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "user-agent": UA,
          "x-forwarded-for": address,
          origin: server.url,
        },
        body: `answers=${"A".repeat(15)}`,
      });
    expect((await form("198.51.100.201")).status).toBe(303);
    // A flooding address is refused in any spelling, with a page that says why and when.
    for (const address of ["10.77.0.1", "::ffff:10.77.0.1", "10.77.0.1:8080", "203.0.113.1, 10.77.0.1"]) {
      const refused = await refusalOf(await post(server, "/api/quiz/result", QUIZ, address));
      expect(refused).toMatchObject({ status: 429 });
      expect(refused.error).toMatch(SHARE_REFUSAL);
    }
    const page = await form("10.77.0.1");
    expect(page.status).toBe(429);
    expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await page.text()).toContain("the site keeps only a few more from each network");
    // A client that is not a trusted proxy is one network, whatever it forwards.
    const spoofed: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await httpFrom(server.port, {
        from: "127.0.0.9",
        method: "POST",
        path: "/api/quiz/result",
        headers: {
          "content-type": "application/json",
          "user-agent": UA,
          origin: server.url,
          "x-forwarded-for": `198.18.${i}.1`,
        },
        body: JSON.stringify(QUIZ),
      });
      spoofed.push(res.status);
    }
    expect(spoofed.filter((s) => s === 201).length).toBeLessThanOrEqual(4);
    expect(spoofed.at(-1)).toBe(429);
  }, 30_000);

  test("the log says which share was reached, naming no address", () => {
    expect(server.output()).toContain("one network's share of a busy day");
    expect(server.output()).toContain("one IPv6 block's share of a busy day");
    expect(server.output()).not.toContain("10.77.");
    expect(server.output()).not.toContain("2001:db8:56");
  });
});

describe("visitors and referrer sites from one provider block under pressure", () => {
  let server: Server;

  beforeAll(async () => {
    server = await start(join(scratchDir("anon-block"), "data"), {
      TRUSTED_PROXIES: "127.0.0.1",
      CAM_GUIDE_TEST_DAILY_LIMITS:
        "visitorsPerClient=40,visitors=400,visitorsFloor=1,newValuesPerClient=10,newValues=40,newValuesFloor=1",
    });
  }, 30_000);

  test("256 /64s of one /56 with a new agent and referrer each time: a quarter of the day's visitors and slots, then a real visitor and referrer are recorded", async () => {
    const cookie = await signIn(server);
    const report = async () =>
      (await (await asAdmin(server, cookie)("/api/admin/analytics?days=7")).json()) as AnalyticsReport;
    let n = 0;
    const flood = (j: number, count: number) =>
      Array.from({ length: count }, () => {
        n++;
        return visit(server, "/", `${UA} block-${n}`, `2001:db8:99:${j.toString(16)}::${n.toString(16)}`, {
          referer: `https://spam-${n}.example/`,
        }).then((r) => r.arrayBuffer());
      });
    // Three /64s send enough to take the quiet quarter; all 256 keep sending.
    for (let j = 0; j < 256; j++) await Promise.all(flood(j, j < 3 ? 45 : 2));
    const visitors = await addedVisitors(server, 0, 100);
    expect(visitors).toBe(100);
    await visit(server, "/blog", `${UA} real`, "2001:db8:100::1", { referer: "https://news.example.org/story" });
    await until("the real referrer is written", async () =>
      (await report()).referrers.some((k) => k.key === "news.example.org"),
    );
    // The quiet quarter of the 40 slots: 10, the first /64's share; the /56 then had its 4.
    expect(rows(server, "analytics_daily", "metric = 'referrer' AND key LIKE 'spam-%'")).toBe(10);
    expect(rows(server, "analytics_visitors")).toBe(102);
  }, 30_000);
});

// ---------------------------------------------------------------------------------------------
// A full disk: a tmpfs where mounting is allowed, else a file size limit on the process.

function canMount(): boolean {
  const probe = mkdtempSync(join(tmpdir(), "cam-guide-mount-probe-"));
  try {
    const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], { stderr: "ignore" });
    if (mounted.exitCode !== 0) return false;
    Bun.spawnSync(["umount", probe]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

interface Disk {
  mode: string;
  dir: string;
  /** Leaves about `bytes` of room for the server (restarting it under a limit in that mode). */
  leave(server: Server, bytes: number): Promise<Server>;
  release(server: Server): Promise<Server>;
  cleanup(): void;
}

function tmpfsDisk(): Disk {
  const mount = mkdtempSync(join(tmpdir(), "cam-guide-anon-disk-"));
  const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", mount]);
  if (mounted.exitCode !== 0) throw new Error(`mount failed: ${mounted.stderr}`);
  const filler = join(mount, "filler");
  const free = () => {
    const { bavail, bsize } = statfsSync(mount);
    return Number(bavail) * Number(bsize);
  };
  return {
    mode: "a tmpfs mounted for the test",
    dir: join(mount, "data"),
    async leave(server, room) {
      rmSync(filler, { force: true });
      const fd = openSync(filler, "w");
      const block = new Uint8Array(64 * 1024);
      try {
        while (free() > room) {
          const want = Math.min(block.length, free() - room);
          writeSync(fd, block, 0, Math.max(4096, want - (want % 4096)));
        }
      } catch (error) {
        if ((error as { code?: string }).code !== "ENOSPC") throw error;
      } finally {
        closeSync(fd);
      }
      return server;
    },
    async release(server) {
      rmSync(filler, { force: true });
      return server;
    },
    cleanup() {
      if (Bun.spawnSync(["umount", mount]).exitCode !== 0) Bun.spawnSync(["umount", "-l", mount]);
      rmSync(mount, { recursive: true, force: true });
    },
  };
}

function fileSizeLimitDisk(): Disk {
  const dir = join(scratchDir("anon-fsize"), "data");
  const largest = () =>
    Math.max(
      ...["app.db", "app.db-wal"].map((name) => (existsSync(join(dir, name)) ? statSync(join(dir, name)).size : 0)),
    );
  const restart = async (server: Server, fileSizeLimit?: number) => {
    await server.stop();
    return start(dir, {}, { healthy: false, fileSizeLimit });
  };
  return {
    mode: "simulated by a file size limit on the process (RLIMIT_FSIZE)",
    dir,
    leave: (server, bytes) => restart(server, largest() + bytes),
    release: (server) => restart(server),
    cleanup() {},
  };
}

// FULL_DISK=fsize runs the fallback on a machine that could mount, to check the fallback itself.
const disk = process.env.FULL_DISK !== "fsize" && canMount() ? tmpfsDisk() : fileSizeLimitDisk();
afterAll(() => disk.cleanup());

describe(`a full disk (${disk.mode}): the admin signs in and reads`, () => {
  let server: Server;

  beforeAll(async () => {
    server = await start(disk.dir);
    // Something to read back, and a day's salt already made.
    expect((await post(server, "/api/quiz/result", QUIZ)).status).toBe(201);
    await visit(server, "/", UA);
    // Written before the disk fills: the only counts the server holds back are the flood's below.
    await until("the visit is written", () => rows(server, "analytics_visitors") === 1);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  describe("with no room at all", () => {
    beforeAll(async () => {
      server = await disk.leave(server, 0);
      await until("/healthz notices", async () => (await fetch(`${server.url}/healthz`)).status === 503);
    }, 30_000);

    test("signing in with the password works, by script and by the page's form", async () => {
      const cookie = await signIn(server);
      expect(cookie).toContain("cg_session=");
      const form = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: `username=admin&password=${PASSWORD}`,
      });
      expect(form.status).toBe(303);
      expect(form.headers.get("location")).toBe("/admin");
    });

    test.each([
      "/api/auth/me",
      "/api/admin/analytics?days=30",
      "/api/admin/analytics.csv?days=7",
      "/api/admin/blog/posts",
      "/api/admin/settings",
      "/api/admin/links",
      "/api/admin/home",
      "/admin/analytics",
      "/admin",
    ])("the admin reads %s", async (path) => {
      const res = await asAdmin(server, await signIn(server))(path);
      expect(res.status).toBe(200);
      if (path === "/api/auth/me") expect(await res.json()).toMatchObject({ isAdmin: true });
    });

    test("anonymous writes are refused (507) and visits write nothing; the admin's writes wait for room", async () => {
      const visitorsBefore = rows(server, "analytics_visitors");
      expect((await post(server, "/api/quiz/result", QUIZ)).status).toBe(507);
      expect((await post(server, "/api/analytics", { events: [{ metric: "quiz_start", key: "" }] })).status).toBe(507);
      for (let i = 0; i < 20; i++) expect((await visit(server, "/learn", `${UA} full-${i}`)).status).toBe(200);
      const admin = asAdmin(server, await signIn(server));
      const settings = await (await admin("/api/admin/settings")).json();
      expect((await admin("/api/admin/settings", { method: "PUT", body: JSON.stringify(settings) })).status).toBe(507);
      // Counts are written once a second: the server says once that it holds them back.
      await until("the counts are held back", () => server.output().includes("visit counts are not written"));
      expect(rows(server, "analytics_visitors")).toBe(visitorsBefore);
      expect(server.output().match(/visit counts are not written while data cannot be kept/g)).toHaveLength(1);
    });
  });

  describe("with room inside the reserve", () => {
    beforeAll(async () => {
      server = await disk.leave(server, 640 * 1024);
      await until("/healthz still says full", async () => (await fetch(`${server.url}/healthz`)).status === 503);
    }, 30_000);

    test("the admin's small writes go ahead, anonymous ones do not", async () => {
      const admin = asAdmin(server, await signIn(server));
      const settings = (await (await admin("/api/admin/settings")).json()) as Record<string, unknown>;
      const saved = await admin("/api/admin/settings", {
        method: "PUT",
        body: JSON.stringify({ ...settings, brandName: "Kept on a full disk" }),
      });
      expect(saved.status).toBe(200);
      expect((await post(server, "/api/quiz/result", QUIZ)).status).toBe(507);
      expect((await post(server, "/api/earnings/result", EARNINGS)).status).toBe(507);
      // Signing out ends the session on the server: a small write too.
      expect((await admin("/api/auth/logout", { method: "POST" })).status).toBe(200);
      expect(await (await admin("/api/auth/me")).json()).toEqual({ isAdmin: false });
    });
  });

  test("once there is room again, anonymous writes are accepted", async () => {
    server = await disk.release(server);
    await until("/healthz recovers", async () => (await fetch(`${server.url}/healthz`)).status === 200);
    expect((await post(server, "/api/quiz/result", QUIZ)).status).toBe(201);
  }, 30_000);
});
