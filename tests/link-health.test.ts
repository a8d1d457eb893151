import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import {
  type CheckResult,
  checkDestination,
  checkerUserAgent,
  LinkChecks,
  type LinkChecksOptions,
  recordCheck,
} from "#server/features/links/health.ts";
import { links } from "#server/features/links/table.ts";
import { memoryLogger } from "#server/logger.ts";
import type { AdminLink } from "#shared/features/links/contract.ts";
import { hostProblem, nonPublicAddressKind } from "#shared/public-host.ts";
import { adminApp } from "#tests/support/admin.ts";
import { testApp } from "#tests/support/app.ts";
import { createLink } from "#tests/support/factories.ts";
import { scriptedNetwork } from "#tests/support/link-network.ts";

// Every check in this file goes to this server on 127.0.0.1, never anywhere else: the checker
// reaches it as shop.example.com through a scripted network in which 127.0.0.1 plays a public
// address (no real DNS is asked); inside.example.com resolves to 127.0.0.2, which stays loopback.
let server: ReturnType<typeof Bun.serve>;
let base: string;
const network = () => scriptedNetwork({ "shop.example.com": ["127.0.0.1"], "inside.example.com": ["127.0.0.2"] });
const agents: string[] = [];
const methods: string[] = [];

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url);
      agents.push(request.headers.get("user-agent") ?? "");
      methods.push(request.method);
      const to = (location: string, status = 302) => new Response(null, { status, headers: { location } });
      if (pathname === "/ok") return new Response("fine");
      if (pathname === "/moved") return to("/ok", 301);
      if (pathname === "/chain/1") return to(`${base}/chain/2`);
      if (pathname === "/chain/2") return to("/chain/3", 307);
      if (pathname === "/chain/3") return to("/ok");
      if (pathname === "/missing") return new Response("gone", { status: 404 });
      if (pathname === "/error") return new Response("oops", { status: 500 });
      if (pathname === "/forbidden") return new Response("no robots", { status: 403 });
      if (pathname === "/slow-down") return new Response("later", { status: 429 });
      if (pathname === "/moved-forbidden") return to("/forbidden");
      if (pathname.startsWith("/deep/")) return to(`/deep/${Number(pathname.slice(6)) + 1}`);
      if (pathname === "/loop/a") return to("/loop/b");
      if (pathname === "/loop/b") return to("/loop/a");
      if (pathname === "/relative/start") return to("../relative/end?x=1");
      if (pathname === "/relative/end") return new Response("end");
      if (pathname === "/to-ftp") return to("ftp://127.0.0.1/file");
      // A name that resolves to a loopback address, and a name that is one: never fetched.
      if (pathname === "/to-inside") return to(`http://inside.example.com:${server.port}/inside`);
      if (pathname === "/to-localhost") return to(`http://localhost:${server.port}/inside`);
      if (pathname === "/hop-to-inside") return to("/to-inside", 301);
      if (pathname === "/no-location") return new Response(null, { status: 302 });
      if (pathname === "/never") return new Promise<Response>(() => {});
      return new Response("?", { status: 404 });
    },
  });
  base = `http://shop.example.com:${server.port}`;
});
afterAll(() => server.stop(true));

const UA = checkerUserAgent(null);
const check = (path: string, timeoutMs = 2000) =>
  checkDestination(`${base}${path}`, { userAgent: UA, timeoutMs, network: network() });
/** The checker over the test network, as the app and the schedule run it. */
const linkChecks = (options: Omit<LinkChecksOptions, "userAgent" | "logger" | "network">) =>
  new LinkChecks({ userAgent: async () => UA, logger: memoryLogger(), network: network(), ...options });

describe("checkDestination", () => {
  test.each([
    ["/ok", "healthy", 200, 0, "/ok"],
    ["/moved", "redirected", 200, 1, "/ok"],
    ["/chain/1", "redirected", 200, 3, "/ok"],
    ["/relative/start", "redirected", 200, 1, "/relative/end?x=1"],
    ["/missing", "broken", 404, 0, "/missing"],
    ["/error", "broken", 500, 0, "/error"],
    ["/forbidden", "blocked", 403, 0, "/forbidden"],
    ["/slow-down", "blocked", 429, 0, "/slow-down"],
    ["/moved-forbidden", "blocked", 403, 1, "/forbidden"],
    ["/deep/0", "broken", 302, 10, "/deep/10"],
    ["/loop/a", "broken", 302, 2, "/loop/a"],
    ["/no-location", "broken", 302, 0, "/no-location"],
  ] as const)("%s: %s, %p after %p redirects, ending at %s", async (path, healthClass, status, hops, end) => {
    const result = await check(path);
    expect(result).toMatchObject({ healthClass, status, hops, finalUrl: `${base}${end}` });
    expect(result.reason.length).toBeGreaterThan(5);
  });

  test("more than ten redirects is broken, and says so", async () => {
    expect((await check("/deep/0")).reason).toBe("More than 10 redirects.");
    expect(
      (await checkDestination(`${base}/chain/1`, { userAgent: UA, maxHops: 2, network: network() })).healthClass,
    ).toBe("broken");
  });

  test("a redirect to anything but http(s) is broken", async () => {
    const result = await check("/to-ftp");
    expect(result).toMatchObject({ healthClass: "broken", status: 302, hops: 1, finalUrl: "ftp://127.0.0.1/file" });
    expect(result.reason).toContain("ftp:");
  });

  test("no answer within the timeout: broken, with no status", async () => {
    const started = Date.now();
    const result = await check("/never", 300);
    expect(result).toMatchObject({ healthClass: "broken", status: null, hops: 0 });
    expect(result.reason).toContain("No answer within 0.3 seconds");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test("a closed port: broken, with no status", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const address = `http://shop.example.com:${closed.port}/`;
    closed.stop(true);
    expect(await checkDestination(address, { userAgent: UA, network: network() })).toMatchObject({
      healthClass: "broken",
      status: null,
      unreachable: true,
    });
  });

  test("asks with GET and an honest user agent", async () => {
    agents.length = 0;
    methods.length = 0;
    await checkDestination(`${base}/moved`, {
      userAgent: checkerUserAgent("https://guide.example"),
      network: network(),
    });
    expect(agents).toEqual([
      "cam-guide link checker (+https://guide.example)",
      "cam-guide link checker (+https://guide.example)",
    ]);
    expect(methods).toEqual(["GET", "GET"]);
    expect(checkerUserAgent(null)).toBe("cam-guide link checker (+self-hosted)");
  });
});

const row = async (db: Db, id: number) => (await db.select().from(links).where(eq(links.id, id)))[0]!;

describe("redirects into a private network", () => {
  test("from a public destination: not followed, broken, the last public hop recorded", async () => {
    agents.length = 0;
    const direct = await check("/to-inside");
    expect(direct).toEqual({
      healthClass: "broken",
      status: 302,
      finalUrl: `${base}/to-inside`,
      hops: 0,
      reason:
        "It redirects to inside.example.com, which resolves to 127.0.0.2 (a loopback address (this computer itself)); not followed.",
    });
    const later = await check("/hop-to-inside");
    expect(later).toMatchObject({ healthClass: "broken", status: 302, finalUrl: `${base}/to-inside`, hops: 1 });
    expect(later.reason).toContain("It redirects to inside.example.com");
    const named = await check("/to-localhost");
    expect(named).toMatchObject({ healthClass: "broken", status: 302, finalUrl: `${base}/to-localhost`, hops: 0 });
    expect(named.reason).toBe("It redirects to localhost, not a public internet host; not followed.");
    // Only the public hops were asked for.
    expect(agents.length).toBe(4);
  });

  test("a destination on a private address or name is not checked at all: nothing is connected to", async () => {
    agents.length = 0;
    const loopback = await checkDestination(`http://127.0.0.1:${server.port}/ok`, {
      userAgent: UA,
      network: network(),
    });
    expect(loopback).toMatchObject({ healthClass: "broken", status: null, hops: 0 });
    expect(loopback.reason).toContain("Not checked: its host 127.0.0.1 is a loopback address");
    const inside = await checkDestination(`http://inside.example.com:${server.port}/ok`, {
      userAgent: UA,
      network: network(),
    });
    expect(inside.reason).toBe(
      "Not checked: inside.example.com resolves to 127.0.0.2, a loopback address (this computer itself), not a public internet address.",
    );
    expect(agents).toEqual([]);
    // The real network: 127.0.0.1 is loopback there, so even the test server's own address is refused.
    expect((await checkDestination(`http://127.0.0.1:${server.port}/ok`, { userAgent: UA })).healthClass).toBe(
      "broken",
    );
    expect(agents).toEqual([]);
  });

  test("the scheduled and admin checks use the network they are given, and store no private address", async () => {
    const { db } = testApp({ seed: false });
    const link = await createLink(db, { destination: `${base}/hop-to-inside` });
    const checks = linkChecks({ db });
    expect((await checks.checkOne(link.id))?.reason).toContain("It redirects to inside.example.com");
    expect(await row(db, link.id)).toMatchObject({
      healthClass: "broken",
      lastStatus: 302,
      finalUrl: `${base}/to-inside`,
      hopCount: 1,
      consecutiveFailures: 1,
    });
  });

  test.each([
    "127.0.0.1",
    "127.8.9.10",
    "::1",
    "[::1]",
    "10.1.2.3",
    "172.20.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "fd00::1",
    "fc00::",
    "fe80::1",
    "fec0::1",
    "0.0.0.0",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
  ])("%s is not public", (address) => {
    expect(nonPublicAddressKind(address)).not.toBeNull();
    expect(hostProblem(address.includes(":") && !address.startsWith("[") ? `[${address}]` : address)).not.toBeNull();
  });

  test.each([
    "93.184.216.34",
    "2606:4700::1",
    "[2606:4700::1]",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "192.169.0.1",
    "::ffff:93.184.216.34",
  ])("%s is public", (address) => {
    expect(nonPublicAddressKind(address)).toBeNull();
    expect(hostProblem(address.includes(":") && !address.startsWith("[") ? `[${address}]` : address)).toBeNull();
  });

  test("a name for this computer is not public by its spelling, whatever it resolves to", () => {
    expect(hostProblem("localhost")).not.toBeNull();
  });
});

const result = (healthClass: CheckResult["healthClass"], status: number | null = 200): CheckResult => ({
  healthClass,
  status,
  finalUrl: "http://shop.example.com/",
  hops: 0,
  reason: "",
});

describe("what a check stores", () => {
  test("broken counts a failure in a row, healthy and redirected end the count, blocked leaves it", async () => {
    const { db } = testApp({ seed: false });
    const link = await createLink(db, { destination: `${base}/missing` });
    const now = new Date("2026-01-01T00:00:00Z");
    const steps: [CheckResult["healthClass"], number][] = [
      ["broken", 1],
      ["broken", 2],
      ["blocked", 2],
      ["broken", 3],
      ["redirected", 0],
      ["broken", 1],
      ["healthy", 0],
      ["blocked", 0],
    ];
    for (const [healthClass, failures] of steps) {
      await recordCheck(db, link, result(healthClass), now);
      expect([healthClass, (await row(db, link.id)).consecutiveFailures]).toEqual([healthClass, failures]);
    }
    expect(await row(db, link.id)).toMatchObject({ healthClass: "blocked", lastStatus: 200, lastCheckedAt: now });
  });

  test("a check whose link changed destination meanwhile is not stored", async () => {
    const { db } = testApp({ seed: false });
    const link = await createLink(db, { destination: `${base}/missing` });
    await recordCheck(db, { id: link.id, destination: "http://shop.example.com/old" }, result("broken"), new Date());
    expect(await row(db, link.id)).toMatchObject({ healthClass: null, consecutiveFailures: 0, lastCheckedAt: null });
  });

  test("a real check of one link stores status, final address, hops and the time", async () => {
    const { db } = testApp({ seed: false });
    const link = await createLink(db, { destination: `${base}/chain/1` });
    const at = new Date("2026-03-01T12:00:00Z");
    const checks = linkChecks({ db, clock: () => at });
    expect((await checks.checkOne(link.id))?.healthClass).toBe("redirected");
    expect(await row(db, link.id)).toMatchObject({
      lastCheckedAt: at,
      lastStatus: 200,
      finalUrl: `${base}/ok`,
      hopCount: 3,
      healthClass: "redirected",
      consecutiveFailures: 0,
    });
    expect(await checks.checkOne(999_999)).toBeNull();
  });
});

describe("where /go/ sends a broken link's clicks", () => {
  test("never elsewhere by itself; after N failed checks when the admin set N; off by hand at once", async () => {
    const t = await adminApp({ seed: false, testHooks: { linkNetwork: network() } });
    const link = await createLink(t.db, {
      slug: "broken-one",
      destination: `${base}/missing`,
      fallbackDestination: "https://fallback.example/",
    });
    const go = async () => (await t.request("/go/broken-one?p=learn")).headers.get("location");
    const checkNow = () => t.asAdmin(`/api/admin/links/${link.id}/check`, { method: "POST" });
    const edit = (body: Record<string, unknown>) =>
      t.asAdmin(`/api/admin/link/${link.id}`, {
        method: "PUT",
        json: {
          destination: `${base}/missing`,
          active: true,
          fallbackDestination: "https://fallback.example/",
          ...body,
        },
      });

    for (let i = 0; i < 3; i++) expect((await checkNow()).status).toBe(200);
    expect((await row(t.db, link.id)).consecutiveFailures).toBe(3);
    // No number set: a broken link still sends clicks to its destination.
    expect(await go()).toBe(`${base}/missing`);

    expect((await edit({ autoFallbackAfter: 4 })).status).toBe(200);
    expect(await go()).toBe(`${base}/missing`);
    const answer = (await (await checkNow()).json()) as { link: AdminLink; reason: string };
    expect(answer.link).toMatchObject({ healthClass: "broken", lastStatus: 404, consecutiveFailures: 4 });
    expect(answer.reason).toBe("Answered 404.");
    expect(await go()).toBe("https://fallback.example/");

    // Without a fallback: back to the page the link was placed on.
    expect((await edit({ autoFallbackAfter: 4, fallbackDestination: "" })).status).toBe(200);
    expect(await go()).toBe("/learn");
    // A body without the number keeps it; null turns it off.
    expect((await edit({ fallbackDestination: "" })).status).toBe(200);
    expect((await row(t.db, link.id)).autoFallbackAfter).toBe(4);
    expect((await edit({ autoFallbackAfter: null })).status).toBe(200);
    expect(await go()).toBe(`${base}/missing`);

    // The admin's own choice: turning the link off sends clicks to the fallback at once.
    expect((await edit({ active: false })).status).toBe(200);
    expect(await go()).toBe("https://fallback.example/");

    // A healthy check ends the count; a new destination starts unchecked.
    await edit({ autoFallbackAfter: 1 });
    await recordCheck(t.db, { id: link.id, destination: `${base}/missing` }, result("broken"), new Date());
    expect(await go()).toBe("https://fallback.example/");
    expect((await edit({ destination: `${base}/ok`, autoFallbackAfter: 1 })).status).toBe(200);
    expect(await row(t.db, link.id)).toMatchObject({ healthClass: null, consecutiveFailures: 0, lastCheckedAt: null });
    expect(await go()).toBe(`${base}/ok`);
  });

  test("the number is a whole number from 1 to 20, or empty", async () => {
    const t = await adminApp({ seed: false, testHooks: { linkNetwork: network() } });
    const link = await createLink(t.db, { destination: `${base}/ok` });
    for (const autoFallbackAfter of [0, 21, 2.5, "3", -1]) {
      const res = await t.asAdmin(`/api/admin/link/${link.id}`, {
        method: "PUT",
        json: { destination: `${base}/ok`, active: true, autoFallbackAfter },
      });
      expect([autoFallbackAfter, res.status]).toEqual([autoFallbackAfter, 422]);
      const body = (await res.json()) as { details: { field: string; message: string }[] };
      expect(body.details[0]).toMatchObject({ field: "autoFallbackAfter" });
      expect(body.details[0]?.message).toContain("from 1 to 20");
    }
    expect((await row(t.db, link.id)).autoFallbackAfter).toBeNull();
  });
});

describe("the admin's check routes", () => {
  test("need a signed-in admin from this site", async () => {
    const t = await adminApp({ seed: false, testHooks: { linkNetwork: network() } });
    const link = await createLink(t.db, { destination: `${base}/ok` });
    for (const path of ["/api/admin/links/check", `/api/admin/links/${link.id}/check`]) {
      expect((await t.request(path, { method: "POST" })).status).toBe(401);
      const foreign = await t.request(path, {
        method: "POST",
        headers: { cookie: t.cookie, origin: "https://evil.example" },
      });
      expect(foreign.status).toBe(403);
    }
    expect((await row(t.db, link.id)).lastCheckedAt).toBeNull();
  });

  test("one link: 404 for an unknown id, 422 for one that is not a number", async () => {
    const t = await adminApp({ seed: false, testHooks: { linkNetwork: network() } });
    expect((await t.asAdmin("/api/admin/links/999999/check", { method: "POST" })).status).toBe(404);
    expect((await t.asAdmin("/api/admin/links/abc/check", { method: "POST" })).status).toBe(422);
  });

  test("all links: each is checked and the list comes back with what was found", async () => {
    const t = await adminApp({ seed: false, testHooks: { linkNetwork: network() } });
    const paths = ["/ok", "/moved", "/missing", "/forbidden", "/error"];
    for (const [i, path] of paths.entries()) await createLink(t.db, { slug: `l${i}`, destination: `${base}${path}` });
    const res = await t.asAdmin("/api/admin/links/check", { method: "POST" });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { checked: number; links: AdminLink[] };
    expect(answer.checked).toBe(5);
    expect(answer.links.map((l) => [l.slug, l.healthClass, l.lastStatus])).toEqual([
      ["l0", "healthy", 200],
      ["l1", "redirected", 200],
      ["l2", "broken", 404],
      ["l3", "blocked", 403],
      ["l4", "broken", 500],
    ]);
    const listed = (await (await t.asAdmin("/api/admin/links")).json()) as AdminLink[];
    expect(listed.find((l) => l.slug === "l1")).toMatchObject({ hopCount: 1, finalUrl: `${base}/ok` });
  });
});

describe("a run that reaches no destination at all (this server is offline)", () => {
  /** A 127.0.0.1 port nothing listens on: every connection to it is refused at once. */
  const closedPort = async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = probe.port;
    await probe.stop(true);
    return port;
  };

  test("check all: recorded as broken with no answer, no failure counted, the answer says offline", async () => {
    const t = await adminApp({ seed: false, testHooks: { linkNetwork: network() } });
    const dead = `http://shop.example.com:${await closedPort()}`;
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push(await createLink(t.db, { slug: `o${i}`, destination: `${dead}/x${i}`, autoFallbackAfter: 1 }));
    const res = await t.asAdmin("/api/admin/links/check", { method: "POST" });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { checked: number; offline: boolean; links: AdminLink[] };
    expect([answer.checked, answer.offline]).toEqual([3, true]);
    for (const link of made) {
      const stored = await row(t.db, link.id);
      expect(stored).toMatchObject({ healthClass: "broken", lastStatus: null, consecutiveFailures: 0 });
      expect(stored.lastCheckedAt).not.toBeNull();
    }
    // The fallback after one failed check never fires because the server was offline.
    const go = await t.request("/go/o0", { redirect: "manual" });
    expect(go.headers.get("location")).toBe(`${dead}/x0`);
  });

  test("Check now on one link that cannot be reached: recorded, not counted, and the answer says why", async () => {
    const t = await adminApp({ seed: false, testHooks: { linkNetwork: network() } });
    const dead = `http://shop.example.com:${await closedPort()}`;
    const link = await createLink(t.db, { slug: "alone", destination: `${dead}/x`, autoFallbackAfter: 1 });
    for (let i = 0; i < 2; i++) {
      const res = await t.asAdmin(`/api/admin/links/${link.id}/check`, { method: "POST" });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { link: AdminLink; reason: string };
      expect(answer.link).toMatchObject({ healthClass: "broken", lastStatus: null, consecutiveFailures: 0 });
      expect(answer.reason).toContain("does not count towards the fallback");
    }
    // A broken link never switches itself because this server could not reach anything.
    const go = await t.request("/go/alone", { redirect: "manual" });
    expect(go.headers.get("location")).toBe(`${dead}/x`);
  });

  test("the schedule too; one link alone counts nothing, one destination that answers makes failures count", async () => {
    const { db } = testApp({ seed: false });
    const dead = `http://shop.example.com:${await closedPort()}`;
    const a = await createLink(db, { destination: `${dead}/a` });
    const b = await createLink(db, { destination: `${dead}/b` });
    const checks = linkChecks({ db });
    expect(await checks.tick(new Date(), 1)).toEqual({ checked: 2, offline: true });
    expect((await row(db, a.id)).consecutiveFailures).toBe(0);

    const answering = await createLink(db, { destination: `${base}/missing` });
    expect(await checks.checkAll()).toEqual({ checked: 3, offline: false });
    expect((await row(db, a.id)).consecutiveFailures).toBe(1);
    expect((await row(db, b.id)).consecutiveFailures).toBe(1);
    expect((await row(db, answering.id)).consecutiveFailures).toBe(1);

    const { db: single } = testApp({ seed: false });
    const alone = await createLink(single, { destination: `${dead}/alone` });
    const one = linkChecks({ db: single });
    expect(await one.checkAll()).toEqual({ checked: 1, offline: false });
    expect((await row(single, alone.id)).consecutiveFailures).toBe(0);
  });
});

describe("the schedule", () => {
  test("a tick checks only the links not checked within the interval", async () => {
    const { db } = testApp({ seed: false });
    const now = new Date("2026-05-10T00:00:00Z");
    const day = 86_400_000;
    const never = await createLink(db, { destination: `${base}/ok` });
    const stale = await createLink(db, {
      destination: `${base}/missing`,
      lastCheckedAt: new Date(now.getTime() - 8 * day),
    });
    const fresh = await createLink(db, {
      destination: `${base}/missing`,
      lastCheckedAt: new Date(now.getTime() - 2 * day),
      healthClass: "healthy",
    });
    const checks = linkChecks({ db, clock: () => now });
    expect(await checks.tick(now, 7 * day)).toEqual({ checked: 2, offline: false });
    expect((await row(db, never.id)).healthClass).toBe("healthy");
    expect(await row(db, stale.id)).toMatchObject({ healthClass: "broken", lastCheckedAt: now });
    expect(await row(db, fresh.id)).toMatchObject({
      healthClass: "healthy",
      lastCheckedAt: new Date(now.getTime() - 2 * day),
    });
    // Nothing is stale right after.
    expect(await checks.tick(now, 7 * day)).toEqual({ checked: 0, offline: false });
  });

  test("never two runs over all links at once: a second ask waits for the first", async () => {
    const { db } = testApp({ seed: false });
    for (let i = 0; i < 4; i++) await createLink(db, { destination: `${base}/ok` });
    const checks = linkChecks({ db });
    methods.length = 0;
    const first = checks.checkAll();
    expect(checks.running).toBe(true);
    const second = checks.checkAll();
    expect((await checks.tick(new Date(), 1)).checked).toBe(0);
    expect((await Promise.all([first, second])).map((run) => run.checked)).toEqual([4, 4]);
    expect(methods).toHaveLength(4);
    expect(checks.running).toBe(false);
  });
});
