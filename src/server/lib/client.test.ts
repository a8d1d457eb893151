import { describe, expect, test } from "bun:test";
import type { Server } from "elysia/universal";
import { clientKey, clientResolver, formatIp, parseIp, parseRange, untrustedProxyWatch } from "./client.ts";

/** A stand-in for Bun's server that only answers requestIP: the socket's peer address. */
const peer = (address: string) => ({ requestIP: () => ({ address, family: "", port: 1 }) }) as unknown as Server;

const request = (headers: Record<string, string> = {}, url = "http://site.example/") => new Request(url, { headers });

describe("IP addresses", () => {
  test.each([
    ["127.0.0.1", "127.0.0.1"],
    ["::1", "::1"],
    ["::", "::"],
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::FFFF:7f00:1", "127.0.0.1"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["fe80::1:2:3:4", "fe80::1:2:3:4"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
    ["1:0:3:4:5:6:7:8", "1:0:3:4:5:6:7:8"],
    ["::1.2.3.4", "::102:304"],
  ])("%s reads as %s", (text, canonical) => {
    expect(formatIp(parseIp(text)!)).toBe(canonical);
  });

  test.each([
    "",
    "localhost",
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "01.2.3.4",
    "1.2.3.-4",
    " 1.2.3.4",
    "1.2.3.4 ",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    ":::",
    "12345::",
    "g::1",
    "1.2.3.4::",
    "::1.2.3",
    "1:2:3:4:5:6:7:1.2.3.4",
    "[::1]",
    "::1%eth0",
    "1.2.3.4/32",
    "0x7f.0.0.1",
    "2130706433",
  ])("%j is not an address", (text) => {
    expect(parseIp(text)).toBeNull();
  });

  test.each([
    ["10.0.0.0/8", "10.0.0.0", 8],
    ["10.1.2.3/8", "10.0.0.0", 8],
    ["192.168.1.7", "192.168.1.7", 32],
    ["0.0.0.0/0", "0.0.0.0", 0],
    ["fd00::/8", "fd00::", 8],
    ["::1", "::1", 128],
    ["::ffff:10.0.0.0/104", "10.0.0.0", 8],
  ])("range %s is %s/%d", (text, address, bits) => {
    const range = parseRange(text)!;
    expect([formatIp(range.bytes), range.bits]).toEqual([address, bits]);
  });

  test.each(["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/8/8", "10.0.0.0/-1", "10.0.0.0/ 8", "nginx", "*"])(
    "%j is not a range",
    (text) => {
      expect(parseRange(text)).toBeNull();
    },
  );

  test("an IPv6 client counts as its /64; IPv4 and mapped IPv4 as the address", () => {
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe(clientKey("2001:db8:1:2:ffff::9"));
    expect(clientKey("2001:db8:1:2::1")).not.toBe(clientKey("2001:db8:1:3::1"));
    expect(clientKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(clientKey("local")).toBe("local");
  });
});

describe("the client resolver", () => {
  const proxied = clientResolver(["10.0.0.0/8", "::1"]);

  test("no proxy trusted: the socket is the client, forwarded headers are ignored", () => {
    const resolve = clientResolver();
    const spoofed = request({ "x-forwarded-for": "1.2.3.4", "x-forwarded-proto": "https", forwarded: "for=1.2.3.4" });
    expect(resolve(spoofed, peer("::ffff:127.0.0.1"))).toEqual({
      address: "127.0.0.1",
      https: false,
      schemeForwarded: false,
      viaProxy: false,
    });
    expect(resolve(request(), peer("fe80::1%eth0")).address).toBe("fe80::1");
    expect(resolve(request(), peer("2001:db8::7")).address).toBe("2001:db8::7");
    // Without a socket (app.handle in tests) there is no address to believe anything from.
    expect(resolve(spoofed, null).address).toBe("local");
  });

  test.each([
    // [X-Forwarded-For, the client it names]
    ["203.0.113.9", "203.0.113.9"],
    ["198.51.100.1, 203.0.113.9", "203.0.113.9"],
    ["198.51.100.1, 203.0.113.9, 10.0.0.5", "203.0.113.9"],
    ["10.0.0.7, 10.0.0.5", "10.0.0.7"],
    ["203.0.113.9:4711", "203.0.113.9"],
    ["[2001:db8::7]:443", "2001:db8::7"],
    ["2001:DB8::7", "2001:db8::7"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["not-an-address", "10.0.0.2"],
    ["203.0.113.9, garbage", "10.0.0.2"],
    ["garbage, 203.0.113.9", "203.0.113.9"],
    ["", "10.0.0.2"],
    [" , ", "10.0.0.2"],
    ["unknown", "10.0.0.2"],
    [`${"1.1.1.1,".repeat(400)}203.0.113.9`, "10.0.0.2"],
  ])("from a trusted proxy, X-Forwarded-For %j names %s", (header, address) => {
    expect(proxied(request({ "x-forwarded-for": header }), peer("10.0.0.2")).address).toBe(address);
  });

  test("a trusted proxy's X-Forwarded-Proto is believed, its right-most value, http or https only", () => {
    const https = (proto: string) => proxied(request({ "x-forwarded-proto": proto }), peer("::1"));
    expect(https("https")).toMatchObject({ https: true, schemeForwarded: true });
    expect(https("HTTPS")).toMatchObject({ https: true, schemeForwarded: true });
    expect(https("http")).toMatchObject({ https: false, schemeForwarded: true });
    expect(https("http, https")).toMatchObject({ https: true, schemeForwarded: true });
    expect(https("https, http")).toMatchObject({ https: false, schemeForwarded: true });
    expect(https("ftp")).toMatchObject({ https: false, schemeForwarded: false });
    expect(https("")).toMatchObject({ https: false, schemeForwarded: false });
    expect(proxied(request({}), peer("::1"))).toMatchObject({ https: false, schemeForwarded: false });
  });

  test("a peer outside the trusted ranges is not believed", () => {
    const spoofed = request({ "x-forwarded-for": "10.9.9.9", "x-forwarded-proto": "https" });
    const direct = { https: false, schemeForwarded: false, viaProxy: false };
    expect(proxied(spoofed, peer("11.0.0.1"))).toEqual({ address: "11.0.0.1", ...direct });
    expect(proxied(spoofed, peer("::2"))).toEqual({ address: "::2", ...direct });
    // Only a trusted peer's connection is a proxy's (it carries many clients).
    expect(proxied(spoofed, peer("10.0.0.1")).viaProxy).toBe(true);
  });

  test("an untrusted local peer sending X-Forwarded-For is reported once; a public one never", () => {
    const warnings: string[] = [];
    const resolve = clientResolver([], { warn: (message) => warnings.push(message) });
    resolve(request({ "x-forwarded-for": "1.2.3.4" }), peer("203.0.113.5"));
    expect(warnings).toEqual([]);
    resolve(request({ "x-forwarded-for": "1.2.3.4" }), peer("::ffff:127.0.0.1"));
    resolve(request({ "x-forwarded-for": "1.2.3.4" }), peer("192.168.1.2"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("TRUSTED_PROXIES=127.0.0.1");
  });

  test("the first proxy TRUSTED_PROXIES does not name is kept for the admin, with when it was seen", () => {
    const logged: string[] = [];
    const watch = untrustedProxyWatch(
      (message) => logged.push(message),
      () => new Date("2026-05-01T10:00:00Z"),
    );
    const resolve = clientResolver([], { warn: watch.warn });
    resolve(request(), peer("127.0.0.1"));
    resolve(request({ "x-forwarded-for": "1.2.3.4" }), peer("203.0.113.5"));
    expect(watch.seen()).toBeNull();
    expect(resolve(request({ "x-forwarded-for": "1.2.3.4" }), peer("::1")).address).toBe("::1");
    resolve(request({ "x-forwarded-for": "1.2.3.4" }), peer("10.0.0.2"));
    expect(watch.seen()).toEqual({ peer: "::1", seenAt: "2026-05-01T10:00:00.000Z" });
    expect(logged).toHaveLength(1);
    // A named proxy is believed and never reported.
    const trusted = untrustedProxyWatch(() => {});
    const named = clientResolver(["127.0.0.1"], { warn: trusted.warn });
    expect(named(request({ "x-forwarded-for": "1.2.3.4" }), peer("127.0.0.1")).address).toBe("1.2.3.4");
    expect(trusted.seen()).toBeNull();
  });

  test("an invalid range is a programming error (the configuration is validated first)", () => {
    expect(() => clientResolver(["nginx"])).toThrow('"nginx"');
  });
});
