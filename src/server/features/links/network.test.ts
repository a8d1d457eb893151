import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createSecureContext, createServer, type Server as TlsServer } from "node:tls";
import { memoryLogger } from "#server/logger.ts";
import { testApp } from "#tests/support/app.ts";
import { createLink } from "#tests/support/factories.ts";
import { scriptedNetwork } from "#tests/support/link-network.ts";
import { checkDestination, checkerUserAgent, LinkChecks } from "./health.ts";
import { publicNetwork, TEST_LOOPBACK_HOST, testLoopbackNetwork } from "./network.ts";
import { links } from "./table.ts";

// The checker against a resolver the test controls. 127.0.0.1 plays a public address (a server
// here records every request it gets); 127.0.0.2 stays what it is, loopback, and a listener on
// it records every connection made to it: it must never see one.
const UA = checkerUserAgent(null);
let port: number;
let publicSide: ReturnType<typeof Bun.serve>;
let privateSide: Bun.TCPSocketListener;
const requests: { path: string; host: string | null }[] = [];
let privateConnections = 0;

beforeAll(() => {
  publicSide = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      requests.push({ path: url.pathname, host: request.headers.get("host") });
      if (url.pathname === "/ok") return new Response("fine");
      if (url.pathname === "/again") return new Response(null, { status: 302, headers: { location: "/ok" } });
      // A header holds bytes, not characters: a target written with other scripts goes percent-encoded.
      if (url.pathname === "/to") {
        const location = url.searchParams.get("u")!.replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));
        return new Response(null, { status: 302, headers: { location } });
      }
      if (url.pathname.startsWith("/slow/"))
        return Bun.sleep(300).then(
          () =>
            new Response(null, {
              status: 302,
              headers: { location: `/slow/${Number(url.pathname.slice(6)) + 1}` },
            }),
        );
      return new Response("?", { status: 404 });
    },
  });
  port = publicSide.port!;
  privateSide = Bun.listen({
    hostname: "127.0.0.2",
    port,
    socket: {
      open(socket) {
        privateConnections++;
        socket.end();
      },
      data() {},
    },
  });
});
afterAll(() => {
  publicSide.stop(true);
  privateSide.stop(true);
});
beforeEach(() => {
  requests.length = 0;
  privateConnections = 0;
});

/** Answers `first` to the first question, then `later` to every other one. */
const rebinding = (first: string[], later: string[]) => {
  let questions = 0;
  return () => (questions++ === 0 ? first : later);
};

describe("a name that answers differently each time (DNS rebinding)", () => {
  test("one answer per hop: the request goes to the address that was judged, never to a second answer", async () => {
    const network = scriptedNetwork({ "rebind.example.com": rebinding(["127.0.0.1"], ["127.0.0.2"]) });
    const result = await checkDestination(`http://rebind.example.com:${port}/ok`, { userAgent: UA, network });
    expect(result).toMatchObject({ healthClass: "healthy", status: 200 });
    expect(network.asked).toEqual(["rebind.example.com"]);
    // The Host header names the name, not the address.
    expect(requests).toEqual([{ path: "/ok", host: `rebind.example.com:${port}` }]);
    expect(privateConnections).toBe(0);
  });

  test("public on the first hop, loopback on the next: the redirect is not followed", async () => {
    const network = scriptedNetwork({ "rebind.example.com": rebinding(["127.0.0.1"], ["127.0.0.2"]) });
    const result = await checkDestination(`http://rebind.example.com:${port}/again`, { userAgent: UA, network });
    expect(result).toMatchObject({
      healthClass: "broken",
      status: 302,
      hops: 0,
      finalUrl: `http://rebind.example.com:${port}/again`,
    });
    expect(result.reason).toBe(
      "It redirects to rebind.example.com, which resolves to 127.0.0.2 (a loopback address (this computer itself)); not followed.",
    );
    expect(network.asked).toEqual(["rebind.example.com", "rebind.example.com"]);
    expect(requests.map((r) => r.path)).toEqual(["/again"]);
    expect(privateConnections).toBe(0);
  });

  test.each([
    [["127.0.0.1", "127.0.0.2"]],
    [["127.0.0.2", "127.0.0.1"]],
    [["127.0.0.1", "::1"]],
    [["127.0.0.1", "::ffff:127.0.0.2"]],
    [["127.0.0.1", "169.254.169.254"]],
    [["127.0.0.1", "10.0.0.1"]],
    [["127.0.0.1", "fd00::1"]],
    [["127.0.0.1", "fe80::1%eth0"]],
    [["127.0.0.1", "64:ff9b::a9fe:a9fe"]],
    [["127.0.0.1", "not-an-address"]],
  ])(
    "an answer of %p: any address that is not public refuses the whole name; nothing is connected to",
    async (answer) => {
      const network = scriptedNetwork({ "mixed.example.com": answer });
      const result = await checkDestination(`http://mixed.example.com:${port}/ok`, { userAgent: UA, network });
      expect(result).toMatchObject({ healthClass: "broken", status: null, hops: 0 });
      expect(result.reason).toStartWith("Not checked: mixed.example.com resolves to ");
      expect(result.unreachable).toBeUndefined();
      expect(requests).toEqual([]);
      expect(privateConnections).toBe(0);
    },
  );

  test("a name that does not resolve is unreachable (it counts toward 'this server is offline'), not refused", async () => {
    const result = await checkDestination(`http://nowhere.example.com:${port}/ok`, {
      userAgent: UA,
      network: scriptedNetwork({}),
    });
    expect(result).toMatchObject({ healthClass: "broken", status: null, unreachable: true });
  });
});

// Every spelling of a loopback, private or reserved address the URL parser accepts, and every
// name that never leads to a public site: refused as the destination and as a redirect's target.
const LOOPBACK_SPELLINGS = [
  "127.0.0.1",
  "2130706433",
  "0x7f000001",
  "0x7f.0.0.1",
  "0177.0.0.1",
  "017700000001",
  "127.1",
  "127.0.1",
  "127.0.0.1.",
  "%31%32%37.0.0.1",
  "１２７.０.０.１",
  "[::1]",
  "[0:0:0:0:0:0:0:1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[64:ff9b::127.0.0.1]",
  "[::127.0.0.1]",
];
const OTHER_ADDRESSES = [
  "0.0.0.0",
  "0",
  "10.0.0.1",
  "172.16.5.4",
  "192.168.0.1",
  "169.254.169.254",
  "100.64.0.1",
  "192.0.0.8",
  "192.0.2.1",
  "198.51.100.7",
  "203.0.113.9",
  "198.18.0.1",
  "198.19.255.254",
  "224.0.0.1",
  "239.255.255.250",
  "240.0.0.1",
  "255.255.255.255",
  "[::]",
  "[fc00::1]",
  "[fd12:3456::1]",
  "[fe80::1]",
  "[fec0::1]",
  "[ff02::1]",
  "[2001:db8::1]",
  "[3fff::1]",
  "[2002:7f00:1::]",
  "[2001::1]",
  "[100::1]",
  "[::ffff:10.0.0.1]",
  "[::ffff:169.254.169.254]",
  "[64:ff9b::10.0.0.1]",
  "[64:ff9b:1::1]",
];
const SPECIAL_NAMES = [
  "localhost",
  "LOCALHOST",
  "localhost.",
  "x.localhost",
  "x.localhost.",
  "printer.local",
  "db.internal",
  "nas.home.arpa",
  "1.0.0.127.in-addr.arpa",
  "box.localdomain",
  "router.lan",
  "wiki.intranet",
  "mail.corp",
  "files.home",
  "api.private",
  "site.test",
  "site.invalid",
  "hidden.onion",
  "name.alt",
  "intranet",
  "example.com.",
  "bücher.localhost",
  "ｌｏｃａｌｈｏｓｔ",
  "%6c%6fcalhost",
];

describe("each spelling of a host that is not public", () => {
  const network = () => scriptedNetwork({}, ["127.0.0.1"]);

  test.each([...LOOPBACK_SPELLINGS, ...OTHER_ADDRESSES, ...SPECIAL_NAMES])(
    "%s: not checked as a destination, and not followed as a redirect's target",
    async (host) => {
      const given = network();
      const destination = await checkDestination(`http://${host}:${port}/ok`, { userAgent: UA, network: given });
      expect(destination).toMatchObject({ healthClass: "broken", status: null, hops: 0 });
      expect(destination.reason).toStartWith("Not checked: its host ");
      const via = `http://redirector.example.com:${port}/to?u=${encodeURIComponent(`http://${host}:${port}/ok`)}`;
      const redirected = await checkDestination(via, {
        userAgent: UA,
        network: scriptedNetwork({ "redirector.example.com": ["127.0.0.1"] }),
      });
      expect(redirected).toMatchObject({ healthClass: "broken", status: 302, hops: 0, finalUrl: via });
      expect(redirected.reason).toEndWith("not a public internet host; not followed.");
      // Only the redirector was asked, and no name was resolved but its own.
      expect(requests.map((r) => r.path)).toEqual(["/to"]);
      expect(given.asked).toEqual([]);
      expect(privateConnections).toBe(0);
    },
  );

  test("a Location of raw bytes (a name written in another script) is judged as the URL parser reads it", async () => {
    const raw = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data(socket) {
          socket.end(
            `HTTP/1.1 302 Found\r\nLocation: http://ｌｏｃａｌｈｏｓｔ:${port}/ok\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
          );
        },
      },
    });
    try {
      const network = scriptedNetwork({ "raw.example.com": ["127.0.0.1"] });
      const result = await checkDestination(`http://raw.example.com:${raw.port}/`, { userAgent: UA, network });
      expect(result.healthClass).toBe("broken");
      expect(network.asked.filter((name) => name !== "raw.example.com")).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      raw.stop(true);
    }
  });

  test("a special name is refused by its spelling even where it would resolve to an allowed address", async () => {
    const network = scriptedNetwork({ "x.localhost": ["127.0.0.1"], "box.internal": ["127.0.0.1"] });
    for (const host of ["x.localhost", "box.internal"]) {
      const result = await checkDestination(`http://${host}:${port}/ok`, { userAgent: UA, network });
      expect(result.healthClass).toBe("broken");
    }
    expect(network.asked).toEqual([]);
    expect(requests).toEqual([]);
  });
});

describe("TLS", () => {
  const fixture = (name: string) => readFileSync(join(import.meta.dir, "../../../../tests/fixtures/tls", name), "utf8");
  let tls: TlsServer;
  let tlsPort: number;
  /** The server name each connection's greeting carried (SNI), read before any certificate is judged. */
  const serverNames: string[] = [];

  beforeAll(async () => {
    const pair = { key: fixture("secure.example.com.key"), cert: fixture("secure.example.com.crt") };
    const context = createSecureContext(pair);
    tls = createServer({
      ...pair,
      SNICallback: (name, done) => {
        serverNames.push(name);
        done(null, context);
      },
    });
    tls.on("tlsClientError", () => {});
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    tlsPort = (tls.address() as { port: number }).port;
  });
  afterAll(() => tls.close());

  test("the name goes as SNI to the judged address, and the certificate is checked (a self-signed one is refused)", async () => {
    const network = scriptedNetwork({ "secure.example.com": ["127.0.0.1"] });
    const result = await checkDestination(`https://secure.example.com:${tlsPort}/`, { userAgent: UA, network });
    expect(result).toMatchObject({ healthClass: "broken", status: null, unreachable: true });
    expect(result.reason).toContain("certificate is not valid");
    expect(serverNames).toEqual(["secure.example.com"]);
    expect(network.asked).toEqual(["secure.example.com"]);
  });
});

describe("the time a check may take", () => {
  test("a slow redirect chain ends at the overall deadline, whatever each hop's own timeout", async () => {
    const network = scriptedNetwork({ "slow.example.com": ["127.0.0.1"] });
    const started = Date.now();
    const result = await checkDestination(`http://slow.example.com:${port}/slow/0`, {
      userAgent: UA,
      network,
      timeoutMs: 10_000,
      deadlineMs: 1000,
    });
    const took = Date.now() - started;
    expect(result).toMatchObject({ healthClass: "broken", status: null, unreachable: true });
    expect(result.reason).toMatch(/^No answer within 1 seconds for the whole check \(after [1-4] redirects?\)\.$/);
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(2500);
  });

  test("a run over all links waited for at most a given time: null and its progress while it goes on", async () => {
    const { db } = testApp({ seed: false });
    for (let i = 0; i < 4; i++) await createLink(db, { destination: `http://slow.example.com:${port}/slow/0` });
    const checks = new LinkChecks({
      db,
      userAgent: async () => UA,
      logger: memoryLogger(),
      network: scriptedNetwork({ "slow.example.com": ["127.0.0.1"] }),
      deadlineMs: 700,
    });
    expect(await checks.checkAllWithin(100)).toBeNull();
    expect(checks.state).toMatchObject({ running: true, total: 4 });
    // It goes on, and ends by itself within the checks' own deadline.
    expect(await checks.checkAllWithin(5000)).toEqual({ checked: 4, offline: true });
    expect(checks.state).toEqual({ running: false, checked: 4, total: 4, offline: true });
  });
});

describe("the scheduled run and the admin's checks", () => {
  test("on the real network, rows stored with private destinations are recorded broken and never connected to", async () => {
    const { db } = testApp({ seed: false });
    const stored = [
      `http://127.0.0.2:${port}/`,
      `http://[::ffff:127.0.0.2]:${port}/`,
      `http://2130706434:${port}/`,
      `http://x.localhost:${port}/`,
      `http://localhost.:${port}/`,
      `http://[::1]:${port}/`,
    ];
    for (const destination of stored) await createLink(db, { destination });
    const checks = new LinkChecks({ db, userAgent: async () => UA, logger: memoryLogger() });
    expect(await checks.tick(new Date(), 1)).toEqual({ checked: stored.length, offline: false });
    const rows = await db.select({ healthClass: links.healthClass, lastStatus: links.lastStatus }).from(links);
    expect(rows).toEqual(stored.map(() => ({ healthClass: "broken", lastStatus: null })));
    expect(privateConnections).toBe(0);
    expect(requests).toEqual([]);
  });
});

describe("the real network", () => {
  test("asks the system's resolver (the hosts file included) and refuses every address it gives for localhost", async () => {
    const answer = await publicNetwork.resolve("localhost");
    expect(answer.length).toBeGreaterThan(0);
    for (const address of answer) expect(publicNetwork.refusal(address, "localhost", 80)).not.toBeNull();
    expect(publicNetwork.refusal("93.184.216.34", "example.com", 443)).toBeNull();
  });
});

describe("the test-only loopback network", () => {
  test("opens exactly one name on one port of 127.0.0.1, and judges everything else as the real one does", () => {
    const network = testLoopbackNetwork(port);
    expect(network.refusal("127.0.0.1", TEST_LOOPBACK_HOST, port)).toBeNull();
    expect(network.refusal("127.0.0.1", TEST_LOOPBACK_HOST, port + 1)).not.toBeNull();
    expect(network.refusal("127.0.0.2", TEST_LOOPBACK_HOST, port)).not.toBeNull();
    expect(network.refusal("127.0.0.1", "other.example.com", port)).not.toBeNull();
    expect(network.refusal("93.184.216.34", "other.example.com", 443)).toBeNull();
  });

  test("reaches the server on that port through the name, and nothing on another port", async () => {
    const result = await checkDestination(`http://${TEST_LOOPBACK_HOST}:${port}/ok`, {
      userAgent: UA,
      network: testLoopbackNetwork(port),
    });
    expect(result.healthClass).toBe("healthy");
    const other = await checkDestination(`http://${TEST_LOOPBACK_HOST}:${port + 1}/ok`, {
      userAgent: UA,
      network: testLoopbackNetwork(port),
    });
    expect(other.reason).toStartWith(`Not checked: ${TEST_LOOPBACK_HOST} resolves to 127.0.0.1`);
  });
});
