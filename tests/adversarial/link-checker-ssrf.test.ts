// The link checker of the compiled executable never reaches an address that is not public.
// A canary listens on 127.0.0.1 (and ::1) and counts every connection: rows stored before
// destinations were checked (written straight into the database), redirects into every
// spelling of a private host, special-use names and the test name on another port are checked
// by "Check now" and "Check all links now", and the canary must see nothing. The checker reaches
// one server here, the target, only through the reserved test name on the one port the
// test-only variable opens (what the browser journeys use); a slow redirect chain on it shows
// that both check routes answer within their deadline. (The scheduled run goes through the
// same run as "Check all"; src/server/features/links/network.test.ts drives its tick.)

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AdminLink, LinkCheckRun } from "#shared/features/links/contract.ts";
import { ensureBuilt } from "#tests/support/binary.ts";
import { type RunningSite, startSite } from "#tests/support/running-site.ts";

const TEST_HOST = "loopback.cam-guide-tests.example.com";
const SLOW_HOP_MS = 2500;

let dir: string;
let site: RunningSite;
let target: ReturnType<typeof Bun.serve>;
const targetPaths: string[] = [];
let canaryPort: number;
const canaries: Bun.TCPSocketListener[] = [];
let canaryConnections = 0;
let db: Database;

beforeAll(async () => {
  ensureBuilt();
  const count = {
    open(socket: Bun.Socket) {
      canaryConnections++;
      socket.end();
    },
    data() {},
  };
  canaries.push(Bun.listen({ hostname: "127.0.0.1", port: 0, socket: count }));
  canaryPort = canaries[0]!.port;
  try {
    canaries.push(Bun.listen({ hostname: "::1", port: canaryPort, socket: count }));
  } catch {
    // No IPv6 loopback on this machine: nothing can connect to [::1] either.
  }
  target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      targetPaths.push(url.pathname);
      if (url.pathname === "/ok") return new Response("fine");
      if (url.pathname === "/to") {
        const location = url.searchParams.get("u")!.replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));
        return new Response(null, { status: 302, headers: { location } });
      }
      if (url.pathname.startsWith("/slow/")) {
        await Bun.sleep(SLOW_HOP_MS);
        return new Response(null, { status: 302, headers: { location: `/slow/${Number(url.pathname.slice(6)) + 1}` } });
      }
      return new Response("?", { status: 404 });
    },
  });
  dir = mkdtempSync(join(tmpdir(), "cam-guide-ssrf-"));
  const canaryProxy = `http://127.0.0.1:${canaryPort}`;
  site = await startSite(join(dir, "data"), {
    CAM_GUIDE_TEST_LOOPBACK_LINK_PORT: String(target.port),
    LINK_CHECK_INTERVAL: "off",
    // A proxy would resolve names itself: the checker never uses one (the canary would count it).
    HTTP_PROXY: canaryProxy,
    HTTPS_PROXY: canaryProxy,
    http_proxy: canaryProxy,
    https_proxy: canaryProxy,
    ALL_PROXY: canaryProxy,
  });
  db = new Database(join(dir, "data", "app.db"));
  db.run("PRAGMA busy_timeout = 5000");
  // The seeded links lead to real sites: every check here stays on this machine.
  db.run("UPDATE links SET destination = ?", [`http://${TEST_HOST}:${target.port}/ok`]);
}, 60_000);

afterAll(async () => {
  db?.close();
  await site?.stop();
  target?.stop(true);
  for (const canary of canaries) canary.stop(true);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A link row written straight into the database, as an older release (or a restore) could leave it. */
function storeLink(slug: string, destination: string): number {
  const row = db.query("INSERT INTO links (slug, destination) VALUES (?, ?) RETURNING id").get(slug, destination) as {
    id: number;
  };
  return row.id;
}

async function checkNow(id: number): Promise<{ link: AdminLink; reason: string }> {
  const res = await site.admin(`/api/admin/links/${id}/check`, { method: "POST" });
  expect(res.status).toBe(200);
  return (await res.json()) as { link: AdminLink; reason: string };
}

const at = (host: string, port = canaryPort) => `http://${host}:${port}/`;

/** Every spelling of a host on this machine (or a private network) that the URL parser accepts. */
const PRIVATE_HOSTS = [
  "127.0.0.1",
  "2130706433",
  "0x7f000001",
  "0x7f.1",
  "0177.0.0.1",
  "127.1",
  "127.0.0.1.",
  "%31%32%37.0.0.1",
  "１２７.０.０.１",
  "[::1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[64:ff9b::127.0.0.1]",
  "[0:0:0:0:0:0:0:1]",
  "localhost",
  "LocalHost",
  "localhost.",
  "x.localhost",
  "x.localhost.",
  "ｌｏｃａｌｈｏｓｔ",
  "printer.local",
  "metadata.internal",
  "nas.home.arpa",
  "box.localdomain",
  "router.lan",
  "site.test",
  "intranet",
  "0.0.0.0",
  "0",
  "169.254.169.254",
  "10.0.0.1",
  "100.64.0.1",
  "192.168.1.1",
  "[fe80::1]",
  "[fd00::1]",
];

describe("destinations stored before this release", () => {
  test.each(PRIVATE_HOSTS)("%s: Check now records it broken without connecting", async (host) => {
    const before = canaryConnections;
    const id = storeLink(`stored-${PRIVATE_HOSTS.indexOf(host)}`, at(host));
    const { link, reason } = await checkNow(id);
    expect(link).toMatchObject({ healthClass: "broken", lastStatus: null, consecutiveFailures: 1 });
    expect(reason).toStartWith("Not checked: its host ");
    expect(canaryConnections).toBe(before);
  });

  test("the test name on any port but the one opened for it is a loopback address like any other", async () => {
    const id = storeLink("test-name-elsewhere", at(TEST_HOST));
    const { reason } = await checkNow(id);
    expect(reason).toBe(
      `Not checked: ${TEST_HOST} resolves to 127.0.0.1, a loopback address (this computer itself), not a public internet address.`,
    );
    expect(canaryConnections).toBe(0);
  });

  test("the target through the test name answers: the refusals above are not a checker that reaches nothing", async () => {
    const id = storeLink("reachable", `http://${TEST_HOST}:${target.port}/ok`);
    expect((await checkNow(id)).link).toMatchObject({ healthClass: "healthy", lastStatus: 200 });
    expect(site.output()).toContain("CAM_GUIDE_TEST_LOOPBACK_LINK_PORT is set");
  });
});

describe("redirects", () => {
  test.each([...PRIVATE_HOSTS, TEST_HOST].map((host, i) => [host, i] as const))(
    "into %s: not followed, and the canary sees nothing",
    async (host, i) => {
      const via = `http://${TEST_HOST}:${target.port}/to?u=${encodeURIComponent(at(host))}`;
      const made = await site.admin("/api/admin/link", {
        method: "POST",
        json: { slug: `via-${i}`, destination: via, active: true },
      });
      expect(made.status).toBe(201);
      const { link, reason } = await checkNow(((await made.json()) as AdminLink).id);
      expect(link).toMatchObject({ healthClass: "broken", lastStatus: 302, hopCount: 0, finalUrl: via });
      expect(reason).toMatch(/^It redirects to .*; not followed\.$/);
      expect(canaryConnections).toBe(0);
    },
  );
});

describe("Check all links now", () => {
  test("checks every link, stored or saved, and connects to no private address", async () => {
    const res = await site.admin("/api/admin/links/check", { method: "POST" });
    expect([200, 202]).toContain(res.status);
    let run = (await res.json()) as LinkCheckRun;
    for (let i = 0; run.running && i < 60; i++) {
      await Bun.sleep(500);
      run = (await (await site.admin("/api/admin/links/check")).json()) as LinkCheckRun;
    }
    expect(run.running).toBe(false);
    expect(run.links.find((l) => l.slug === "stored-0")).toMatchObject({
      healthClass: "broken",
      consecutiveFailures: 2,
    });
    expect(run.links.find((l) => l.slug === "reachable")).toMatchObject({ healthClass: "healthy" });
    expect(canaryConnections).toBe(0);
  });
});

describe("a slow redirect chain", () => {
  test("Check now and Check all links now each answer within 20 s; the run then ends by itself", async () => {
    const slow = storeLink("slow-chain", `http://${TEST_HOST}:${target.port}/slow/0`);
    const timed = async <T>(work: () => Promise<T>) => {
      const started = Date.now();
      const value = await work();
      return { value, ms: Date.now() - started };
    };
    const [one, all] = await Promise.all([
      timed(async () => {
        const res = await site.admin(`/api/admin/links/${slow}/check`, { method: "POST" });
        return { status: res.status, body: (await res.json()) as { link: AdminLink; reason: string } };
      }),
      timed(async () => {
        const res = await site.admin("/api/admin/links/check", { method: "POST" });
        return { status: res.status, body: (await res.json()) as LinkCheckRun };
      }),
    ]);
    expect(one.value.status).toBe(200);
    expect(one.ms).toBeLessThan(20_000);
    expect(one.value.body.reason).toMatch(
      /^No answer within 15 seconds for the whole check \(after \d redirects?\)\.$/,
    );
    expect(one.value.body.link).toMatchObject({ healthClass: "broken", lastStatus: null });
    expect([200, 202]).toContain(all.value.status);
    expect(all.ms).toBeLessThan(20_000);
    expect(all.value.body.running).toBe(all.value.status === 202);
    let run = all.value.body;
    for (let i = 0; run.running && i < 40; i++) {
      await Bun.sleep(250);
      run = (await (await site.admin("/api/admin/links/check")).json()) as LinkCheckRun;
    }
    expect(run.running).toBe(false);
    expect(run.links.find((l) => l.slug === "slow-chain")).toMatchObject({ healthClass: "broken", lastStatus: null });
    expect(canaryConnections).toBe(0);
  }, 40_000);
});
