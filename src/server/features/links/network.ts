import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { type NetworkInterfaceInfo, networkInterfaces } from "node:os";
import { addressKey, nonPublicAddressKind } from "#shared/public-host.ts";

// How the link checker reaches a destination: each hop's name is resolved once, every address
// it resolves to is judged, and the request goes to exactly one of those judged addresses (the
// request's own lookup is handed them, so nothing resolves the name a second time). TLS still
// checks the certificate against the name, and the Host header carries it. Nor does it connect
// to this machine itself through a public address one of its interfaces holds: on a server
// whose firewall keeps the world away from some ports, that would reach them from inside.

/** Where names resolve and which addresses the checker may connect to. */
export interface CheckerNetwork {
  /** Every address `hostname` resolves to; asked once for each hop. */
  resolve(hostname: string): Promise<string[]>;
  /** What `address` (which `host` resolved to, to be asked on `port`) is when the checker must not connect to it; null when it may. */
  refusal(address: string, host: string, port: number): string | null;
  /**
   * True when `address` (any spelling) is held by one of this machine's network interfaces;
   * throws when they cannot be listed, so that nothing is connected to without knowing.
   */
  ownAddress(address: string, host: string, port: number): boolean;
}

/** This machine's network interfaces and their addresses, as `os.networkInterfaces()` lists them. */
export type Interfaces = NodeJS.Dict<Pick<NetworkInterfaceInfo, "address">[]>;

/**
 * True when one of `interfaces` holds `address`, compared in one spelling (an IPv4-mapped IPv6
 * address is the IPv4 address). A list without a single address is no answer: on any machine
 * that can connect anywhere, at least the loopback interface has one.
 */
export function heldByInterface(address: string, interfaces: Interfaces): boolean {
  const held = new Set(
    Object.values(interfaces).flatMap((list) => (list ?? []).map((entry) => addressKey(entry.address))),
  );
  held.delete(null);
  if (held.size === 0) throw new Error("this server's network interfaces list no address");
  return held.has(addressKey(address));
}

/**
 * The public internet as seen from this machine: `resolve` answers names (the system's
 * resolver, the hosts file included), only public addresses may be connected to, and none that
 * `interfaces` (asked afresh at every hop: addresses come and go) says is this machine's own.
 */
export function machineNetwork(
  interfaces: () => Interfaces = networkInterfaces,
  resolve: (hostname: string) => Promise<string[]> = async (hostname) =>
    (await lookup(hostname, { all: true, verbatim: true })).map(({ address }) => address),
): CheckerNetwork {
  return {
    resolve,
    refusal: (address) => nonPublicAddressKind(address),
    ownAddress: (address) => heldByInterface(address, interfaces()),
  };
}

/** The real network: the system's resolver and interfaces; only public addresses that are not this machine's. */
export const publicNetwork: CheckerNetwork = machineNetwork();

/** The host name the test-only loopback network sends to 127.0.0.1 (example.com is IANA's: no real site is diverted). */
export const TEST_LOOPBACK_HOST = "loopback.cam-guide-tests.example.com";

/**
 * FOR CAM-GUIDE'S OWN TESTS ONLY (CAM_GUIDE_TEST_LOOPBACK_LINK_PORT, set by scripts/e2e-server.ts
 * and the tests that start the executable): the real network, except that TEST_LOOPBACK_HOST
 * resolves to 127.0.0.1 without asking DNS and may be connected to there, on `port` alone. No
 * other name, address or port is opened up, and the server logs a warning at every start.
 */
export function testLoopbackNetwork(port: number): CheckerNetwork {
  const opened = (address: string, host: string, asked: number) =>
    host === TEST_LOOPBACK_HOST && address === "127.0.0.1" && asked === port;
  return {
    resolve: (hostname) =>
      hostname === TEST_LOOPBACK_HOST ? Promise.resolve(["127.0.0.1"]) : publicNetwork.resolve(hostname),
    refusal: (address, host, asked) =>
      opened(address, host, asked) ? null : publicNetwork.refusal(address, host, asked),
    ownAddress: (address, host, asked) =>
      opened(address, host, asked) ? false : publicNetwork.ownAddress(address, host, asked),
  };
}

/** What a destination answered: only the status and where a redirect leads are read; never the body. */
export interface HopAnswer {
  status: number;
  location: string | null;
}

/** The port `url` is asked on. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** A request's own time ran out (the caller words it). */
export class HopTimeout extends Error {
  override name = "TimeoutError";
}

/**
 * GET `url` on `address` (already judged): the connection goes there, TLS is checked against the
 * URL's host name (sent as SNI), and the Host header names it. Gives up after `timeoutMs`.
 */
function askAt(url: URL, address: string, userAgent: string, timeoutMs: number): Promise<HopAnswer> {
  const family = address.includes(":") ? 6 : 4;
  const client = url.protocol === "https:" ? https : http;
  return new Promise<HopAnswer>((resolve, reject) => {
    const request = client.request(
      {
        host: url.hostname.replace(/^\[|\]$/g, ""),
        port: portOf(url),
        path: `${url.pathname}${url.search}`,
        method: "GET",
        agent: false,
        headers: { "user-agent": userAgent, accept: "text/html,*/*;q=0.8", connection: "close" },
        // The one address that was judged: the name is not resolved again.
        lookup: (
          _name: string,
          options: { all?: boolean },
          done: (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void,
        ) => (options?.all ? done(null, [{ address, family }]) : done(null, address, family)),
      },
      (response) => {
        clearTimeout(timer);
        const location = response.headers.location;
        resolve({ status: response.statusCode ?? 0, location: typeof location === "string" ? location : null });
        response.on("error", () => {});
        response.destroy();
      },
    );
    const timer = setTimeout(() => request.destroy(new HopTimeout()), timeoutMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end();
  });
}

/**
 * GET `url` on the first of `addresses` (each already judged) that takes the connection, within
 * `timeoutMs` in all. Throws HopTimeout when the time runs out, else the last connection error.
 */
export async function askFirst(
  url: URL,
  addresses: string[],
  userAgent: string,
  timeoutMs: number,
): Promise<HopAnswer> {
  const until = Date.now() + timeoutMs;
  let failure: unknown = new Error("no address");
  for (const address of addresses) {
    const left = until - Date.now();
    if (left <= 0) throw new HopTimeout();
    try {
      return await askAt(url, address, userAgent, left);
    } catch (error) {
      if (error instanceof HopTimeout) throw error;
      failure = error;
    }
  }
  throw failure;
}
