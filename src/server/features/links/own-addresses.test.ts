import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { memoryLogger } from "#server/logger.ts";
import { addressKey } from "#shared/public-host.ts";
import { adminApp } from "#tests/support/admin.ts";
import { createLink } from "#tests/support/factories.ts";
import { scriptedNetwork } from "#tests/support/link-network.ts";
import { checkDestination, checkerUserAgent, LinkChecks } from "./health.ts";
import { heldByInterface, type Interfaces, machineNetwork } from "./network.ts";
import { links } from "./table.ts";

// The checker never connects to this machine through an address one of its own interfaces
// holds. The interfaces are the test's: 127.0.0.1 plays a public address (a server here records
// every request), and the machine "holds" it, or a public address and an IPv6 one, when a case
// says so.
const UA = checkerUserAgent(null);
const OWN_V4 = "93.184.216.34";
const OWN_V6 = "2606:2800:220:1:248:1893:25c8:1946";
const machine: Interfaces = {
  lo: [{ address: "127.0.0.1" }, { address: "::1" }],
  eth0: [{ address: OWN_V4 }, { address: OWN_V6 }, { address: "fe80::1%eth0" }],
};
let port: number;
let server: ReturnType<typeof Bun.serve>;
const requests: string[] = [];

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      requests.push(url.pathname);
      if (url.pathname === "/to")
        return new Response(null, { status: 302, headers: { location: url.searchParams.get("u")! } });
      return new Response("fine");
    },
  });
  port = server.port!;
});
afterAll(() => server.stop(true));
beforeEach(() => {
  requests.length = 0;
});

describe("one spelling for each address", () => {
  test.each([
    ["93.184.216.34", OWN_V4],
    ["::ffff:93.184.216.34", OWN_V4],
    ["::ffff:5db8:d822", OWN_V4],
    ["[::FFFF:5DB8:D822]", OWN_V4],
    ["0:0:0:0:0:ffff:5db8:d822", OWN_V4],
    ["64:ff9b::93.184.216.34", OWN_V4],
    [OWN_V6, OWN_V6],
    ["2606:2800:0220:0001:0248:1893:25C8:1946", OWN_V6],
    [`[${OWN_V6}]`, OWN_V6],
    ["2606:2800:220:1:248:1893:25c8:1946%eth0", OWN_V6],
    ["::1", "0:0:0:0:0:0:0:1"],
  ])("%s is %s", (spelling, key) => {
    expect(addressKey(spelling)).toBe(key);
  });

  test("a name or nonsense is no address", () => {
    for (const text of ["example.com", "", "1.2.3", "::ffff:1.2.3.999", "1::2::3"]) expect(addressKey(text)).toBeNull();
  });
});

describe("which addresses this machine holds", () => {
  test("every spelling of an address an interface holds, the IPv4-mapped and NAT64 forms included", () => {
    for (const address of [OWN_V4, "::ffff:93.184.216.34", "::ffff:5db8:d822", "64:ff9b::5db8:d822", OWN_V6])
      expect(heldByInterface(address, machine)).toBe(true);
    for (const address of ["93.184.216.35", "2606:2800:220:1:248:1893:25c8:1947", "8.8.8.8"])
      expect(heldByInterface(address, machine)).toBe(false);
  });

  test("a list with no address cannot tell: that is an error, never 'not ours'", () => {
    expect(() => heldByInterface(OWN_V4, {})).toThrow("list no address");
    expect(() => heldByInterface(OWN_V4, { lo: [] })).toThrow("list no address");
  });
});

/** The machine's network with the test's interfaces and a resolver that knows `hosts` only. */
function onMachine(hosts: Record<string, string[]>, interfaces: () => Interfaces = () => machine) {
  return machineNetwork(interfaces, async (hostname) => {
    const answer = hosts[hostname];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return answer;
  });
}

describe("a destination on this machine's own public address is never connected to", () => {
  // Each would otherwise be asked on the internet: the reason proves it was refused first.
  test.each([
    `http://${OWN_V4}:3291/x`,
    "http://1572395042:3291/x",
    "http://0x5db8d822:3291/x",
    "http://0135.0270.0330.042:3291/x",
    `http://[::ffff:${OWN_V4}]:3291/x`,
    "http://[::ffff:5db8:d822]:3291/x",
    "http://[64:ff9b::5db8:d822]:3291/x",
    `http://[${OWN_V6}]:3291/x`,
    "https://[2606:2800:0220:0001:0248:1893:25C8:1946]/x",
  ])("%s", async (url) => {
    const result = await checkDestination(url, { userAgent: UA, network: onMachine({}) });
    expect(result).toMatchObject({ healthClass: "broken", status: null, hops: 0 });
    expect(result.reason).toMatch(
      /^Not checked: \S+ is this server's own address: the checker never connects to the server it runs on\.$/,
    );
  });

  test.each([[[OWN_V4]], [["::ffff:93.184.216.34"]], [[OWN_V6]], [["8.8.8.8", OWN_V4]], [[OWN_V6, "8.8.8.8"]]])(
    "a name that resolves to %p",
    async (answer) => {
      const result = await checkDestination("http://own.example.com:3291/x", {
        userAgent: UA,
        network: onMachine({ "own.example.com": answer }),
      });
      expect(result).toMatchObject({ healthClass: "broken", status: null, hops: 0 });
      expect(result.reason).toMatch(/^Not checked: own\.example\.com resolves to \S+, this server's own address: /);
    },
  );

  test("the test server on 127.0.0.1 plays a public host until the machine holds its address: then nothing reaches it", async () => {
    const hosts = { "shop.example.com": ["127.0.0.1"] };
    const other = await checkDestination(`http://shop.example.com:${port}/ok`, {
      userAgent: UA,
      network: scriptedNetwork(hosts),
    });
    expect(other.healthClass).toBe("healthy");
    expect(requests).toEqual(["/ok"]);
    requests.length = 0;
    const own = await checkDestination(`http://shop.example.com:${port}/ok`, {
      userAgent: UA,
      network: scriptedNetwork(hosts, ["127.0.0.1"], () => machine),
    });
    expect(own.reason).toBe(
      "Not checked: shop.example.com resolves to 127.0.0.1, this server's own address: the checker never connects to the server it runs on.",
    );
    expect(requests).toEqual([]);
  });

  test.each([
    [`http://${OWN_V4}:3291/x`, `It redirects to ${OWN_V4}, this server's own address; not followed.`],
    [`http://[::ffff:${OWN_V4}]/`, "It redirects to ::ffff:5db8:d822, this server's own address; not followed."],
    [`http://[${OWN_V6}]:3291/`, `It redirects to ${OWN_V6}, this server's own address; not followed.`],
    [
      "http://own.example.com:3291/",
      `It redirects to own.example.com, which resolves to ${OWN_V4}, this server's own address; not followed.`,
    ],
  ])("a public redirect to %s is not followed", async (target, reason) => {
    const network = scriptedNetwork(
      { "redirector.example.com": ["127.0.0.1"], "own.example.com": [OWN_V4] },
      ["127.0.0.1"],
      () => machine,
    );
    // The redirector itself is another machine here: only the redirect's target is this one's.
    const interfaces = () => ({ eth0: [{ address: OWN_V4 }, { address: OWN_V6 }] });
    const via = `http://redirector.example.com:${port}/to?u=${encodeURIComponent(target)}`;
    const result = await checkDestination(via, {
      userAgent: UA,
      network: { ...network, ownAddress: (address) => heldByInterface(address, interfaces()) },
    });
    expect(result).toMatchObject({ healthClass: "broken", status: 302, hops: 0, finalUrl: via, reason });
    expect(requests).toEqual(["/to"]);
  });

  test("the interfaces are asked again at every hop: an address added meanwhile is refused at the next one", async () => {
    let asked = 0;
    const interfaces = () => {
      asked++;
      return asked === 1 ? { lo: [{ address: "::1" }] } : { lo: [{ address: "::1" }, { address: "127.0.0.1" }] };
    };
    const network = scriptedNetwork({ "shop.example.com": ["127.0.0.1"] }, ["127.0.0.1"], interfaces);
    const result = await checkDestination(
      `http://shop.example.com:${port}/to?u=${encodeURIComponent(`http://shop.example.com:${port}/next`)}`,
      { userAgent: UA, network },
    );
    expect(result.reason).toBe(
      "It redirects to shop.example.com, which resolves to 127.0.0.1, this server's own address; not followed.",
    );
    expect(asked).toBe(2);
    expect(requests).toEqual(["/to"]);
  });

  test.each([
    [
      "cannot be listed",
      () => {
        throw new Error("getifaddrs returned an error");
      },
    ],
    ["list no address", () => ({})],
  ])("when the interfaces %s, nothing is connected to", async (_, interfaces: () => Interfaces) => {
    const network = scriptedNetwork({ "shop.example.com": ["127.0.0.1"] }, ["127.0.0.1"], interfaces);
    const result = await checkDestination(`http://shop.example.com:${port}/ok`, { userAgent: UA, network });
    expect(result).toMatchObject({
      healthClass: "broken",
      status: null,
      unreachable: true,
      reason: "Not checked: this server could not list its own network addresses just now.",
    });
    expect(requests).toEqual([]);
  });
});

describe("saved, checked now and on the schedule", () => {
  test("a destination on this machine's own address is saved (visitors can reach it) but never checked", async () => {
    const t = await adminApp({
      seed: false,
      testHooks: { linkNetwork: scriptedNetwork({}, ["127.0.0.1"], () => machine) },
    });
    const saved = await t.asAdmin("/api/admin/link", {
      method: "POST",
      json: { slug: "own", destination: `http://${OWN_V4}:3291/x`, active: true },
    });
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: number };
    const checked = await t.asAdmin(`/api/admin/links/${id}/check`, { method: "POST" });
    expect(checked.status).toBe(200);
    expect(((await checked.json()) as { reason: string }).reason).toContain("this server's own address");
  });

  test("the scheduled run records every such row broken, and the test server is never asked", async () => {
    const t = await adminApp({ seed: false });
    const stored = [
      `http://own.example.com:${port}/ok`,
      `http://own-too.example.com:${port}/ok`,
      `http://[${OWN_V6}]:${port}/ok`,
    ];
    for (const destination of stored) await createLink(t.db, { destination });
    const checks = new LinkChecks({
      db: t.db,
      userAgent: async () => UA,
      logger: memoryLogger(),
      network: scriptedNetwork(
        { "own.example.com": ["127.0.0.1"], "own-too.example.com": ["::ffff:127.0.0.1"] },
        ["127.0.0.1", "::ffff:127.0.0.1"],
        () => machine,
      ),
    });
    expect(await checks.tick(new Date(), 1)).toEqual({ checked: 3, offline: false });
    const rows = await t.db.select({ healthClass: links.healthClass }).from(links);
    expect(rows).toEqual(stored.map(() => ({ healthClass: "broken" })));
    expect(requests).toEqual([]);
  });
});
