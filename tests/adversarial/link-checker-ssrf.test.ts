// The link checker of the compiled executable never reaches an address that is not public.
// A canary listens on 127.0.0.1 (and ::1) and counts every connection: rows stored before
// destinations were checked (written straight into the database), redirects into every
// spelling of a private host, special-use names and the test name on another port are checked
// by "Check now" and "Check all links now", and the canary must see nothing. The checker reaches
// one server here, the target, only through the reserved test name on the one port the
// test-only variable opens (what the browser journeys use); a slow redirect chain on it shows
// that both check routes answer within their deadline. (The scheduled run goes through the
// same run as "Check all"; src/server/features/links/network.test.ts drives its tick.) Last,
// with root, the same for addresses this machine holds itself.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AdminLink, LinkCheckRun } from "#shared/features/links/contract.ts";
import { ensureBuilt } from "#tests/support/binary.ts";
import { addMachineAddresses } from "#tests/support/machine-address.ts";
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
  db.run("PRAGMA wal_autocheckpoint = 0"); // only the server checkpoints (decision 059)
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
    // A single check that reached nothing cannot tell a slow destination from this server being
    // offline: it says so, and does not count towards the fallback.
    expect(one.value.body.reason).toMatch(
      /^No answer within 15 seconds for the whole check \(after \d redirects?\)\. Nothing else was checked, so this server may be the one offline: this check does not count towards the fallback\.$/,
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

// This machine's own public addresses: on a server, its public address is on an interface, and
// connecting to it reaches every port bound to all addresses, firewalled from outside or not.
// Here a public-looking IPv4 and IPv6 address are put on the loopback interface after the
// server started (so the server must read its interfaces afresh), and a listener on all
// addresses counts connections. Needs root; without it the cases say why and are skipped.
const OWN_V4 = "93.184.216.34";
const OWN_V6 = "2606:2800:220:1:248:1893:25c8:1946";
const OWN_NAME = "own.cam-guide-tests.example.com";
const OWN_NAME_V6 = "own6.cam-guide-tests.example.com";
const own = addMachineAddresses(
  [OWN_V4, OWN_V6],
  { [OWN_NAME]: OWN_V4, [OWN_NAME_V6]: OWN_V6 },
  `cam-guide link-checker-ssrf ${process.pid}`,
);
if (typeof own === "string") console.warn(`skipping the cases on this machine's own addresses: ${own}`);
else if (own.hostsProblem) console.warn(`skipping the cases on names in the hosts file: ${own.hostsProblem}`);
const noOwnAddress = typeof own === "string";
const noOwnName = typeof own === "string" || own.hostsProblem !== null;

describe("this machine's own public addresses", () => {
  let listener: Bun.TCPSocketListener | undefined;
  let reached = 0;
  let port = 0;
  beforeAll(() => {
    if (noOwnAddress) return;
    listener = Bun.listen({
      hostname: "::",
      port: 0,
      socket: {
        open(socket) {
          reached++;
          socket.end("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
        },
        data() {},
      },
    });
    port = listener.port;
  });
  afterAll(() => {
    listener?.stop(true);
    if (typeof own !== "string") own.remove();
  });

  /** Opens a connection to `host` on the listener's port: true when it was taken. */
  const reachable = (host: string) =>
    new Promise<boolean>((resolve) => {
      Bun.connect({
        hostname: host,
        port,
        socket: {
          open(socket) {
            socket.end();
            resolve(true);
          },
          data() {},
          connectError: () => resolve(false),
        },
      }).catch(() => resolve(false));
    });

  test.skipIf(noOwnAddress)(
    "the listener is reached at both addresses from this machine: a check would reach it",
    async () => {
      expect(await reachable(OWN_V4)).toBe(true);
      expect(await reachable(OWN_V6)).toBe(true);
      await Bun.sleep(50);
      expect(reached).toBe(2);
      reached = 0;
    },
  );

  const SPELLINGS = [
    OWN_V4,
    "1572395042",
    "0x5db8d822",
    "0135.0270.0330.042",
    `[::ffff:${OWN_V4}]`,
    "[::ffff:5db8:d822]",
    "[64:ff9b::5db8:d822]",
    `[${OWN_V6}]`,
    "[2606:2800:0220:0001:0248:1893:25C8:1946]",
  ];

  test.skipIf(noOwnAddress).each(SPELLINGS.map((host, i) => [host, i] as const))(
    "%s: saved (visitors can reach it), then Check now refuses it without connecting",
    async (host, i) => {
      const made = await site.admin("/api/admin/link", {
        method: "POST",
        json: { slug: `own-${i}`, destination: `http://${host}:${port}/x`, active: true },
      });
      expect(made.status).toBe(201);
      const { link, reason } = await checkNow(((await made.json()) as AdminLink).id);
      expect(link).toMatchObject({ healthClass: "broken", lastStatus: null });
      expect(reason).toMatch(
        /^Not checked: \S+ is this server's own address: the checker never connects to the server it runs on\.$/,
      );
      expect(reached).toBe(0);
    },
  );

  test.skipIf(noOwnAddress).each(SPELLINGS.map((host, i) => [host, i] as const))(
    "a public redirect into %s is not followed",
    async (host, i) => {
      const via = `http://${TEST_HOST}:${target.port}/to?u=${encodeURIComponent(`http://${host}:${port}/x`)}`;
      const made = await site.admin("/api/admin/link", {
        method: "POST",
        json: { slug: `via-own-${i}`, destination: via, active: true },
      });
      const { link, reason } = await checkNow(((await made.json()) as AdminLink).id);
      expect(link).toMatchObject({ healthClass: "broken", lastStatus: 302, hopCount: 0, finalUrl: via });
      expect(reason).toMatch(/^It redirects to \S+, this server's own address; not followed\.$/);
      expect(reached).toBe(0);
    },
  );

  test.skipIf(noOwnName).each([
    [OWN_NAME, OWN_V4],
    [OWN_NAME_V6, OWN_V6],
  ])("%s (in the hosts file, resolving to %s): directly and through a redirect", async (name, address) => {
    const direct = storeLink(`name-${name}`, `http://${name}:${port}/x`);
    expect((await checkNow(direct)).reason).toBe(
      `Not checked: ${name} resolves to ${address}, this server's own address: the checker never connects to the server it runs on.`,
    );
    const via = storeLink(
      `via-name-${name}`,
      `http://${TEST_HOST}:${target.port}/to?u=${encodeURIComponent(`http://${name}:${port}/`)}`,
    );
    expect((await checkNow(via)).reason).toBe(
      `It redirects to ${name}, which resolves to ${address}, this server's own address; not followed.`,
    );
    expect(reached).toBe(0);
  });

  test.skipIf(noOwnAddress)("Check all links now refuses every one of them too", async () => {
    // The slow chain above has had its turn.
    db.run("UPDATE links SET destination = ? WHERE slug = 'slow-chain'", [`http://${TEST_HOST}:${target.port}/ok`]);
    const res = await site.admin("/api/admin/links/check", { method: "POST" });
    let run = (await res.json()) as LinkCheckRun;
    for (let i = 0; run.running && i < 60; i++) {
      await Bun.sleep(500);
      run = (await (await site.admin("/api/admin/links/check")).json()) as LinkCheckRun;
    }
    const ours = run.links.filter((l) => l.slug.startsWith("own-") || l.slug.startsWith("via-own-"));
    expect(ours).toHaveLength(SPELLINGS.length * 2);
    for (const link of ours) expect(link.healthClass).toBe("broken");
    expect(reached).toBe(0);
  });
});
