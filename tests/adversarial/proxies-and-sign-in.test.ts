// Adversarial: the sign-in throttle under parallel bursts, and which client addresses and
// schemes the server believes. Every case runs against a real listening server (the app on
// a real socket, or the compiled executable): the peer's address decides what is trusted,
// and Linux lets one test connect from many loopback addresses (127.0.0.x, ::1).
import { describe, expect, test } from "bun:test";
import { LoginThrottle } from "#server/features/auth/throttle.ts";
import { type Running, SERVER_ADMIN_PASSWORD } from "#tests/support/binary.ts";
import { ADMIN } from "#tests/support/factories.ts";
import { httpFrom } from "#tests/support/http-from.ts";
import { listeningApp, originFor } from "#tests/support/listening.ts";
import { withServer } from "#tests/support/template-site.ts";

const MINUTE = 60_000;
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

/** A clock the test moves by hand. */
function manualClock() {
  const clock = { now: 1_700_000_000_000 };
  return { clock, now: () => clock.now };
}

describe("parallel bursts are held to the limit: attempts are reserved before the password check", () => {
  test("50 parallel wrong guesses from one address: exactly 5 are checked, 45 answer 429 with Retry-After", async () => {
    const api = await listeningApp();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => api.login(`wrong-${i}`)));
    const statuses = answers.map((a) => a.status);
    expect([count(statuses, 401), count(statuses, 429)]).toEqual([5, 45]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(JSON.parse(refused.body).error).toMatch(
        /^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/,
      );
    }
    // The right password from that address waits too; another address is not held back.
    expect((await api.login(ADMIN.password)).status).toBe(429);
    expect((await api.login(ADMIN.password, { from: "127.0.0.2" })).status).toBe(200);
  });

  test("a burst where each request claims another X-Forwarded-For, from an untrusted peer: still 5 checked", async () => {
    const api = await listeningApp();
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.login(`wrong-${i}`, { from: "127.0.0.3", headers: { "x-forwarded-for": `198.51.100.${i}` } }),
      ),
    ).then((answers) => answers.map((a) => a.status));
    expect([count(statuses, 401), count(statuses, 429)]).toEqual([5, 45]);
  });

  test("through a trusted proxy, one client varying the left part of X-Forwarded-For: still 5 checked", async () => {
    const api = await listeningApp({ trustedProxies: ["127.0.0.1"] });
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.login(`wrong-${i}`, { headers: { "x-forwarded-for": `10.${i}.0.1, 203.0.113.77` } }),
      ),
    ).then((answers) => answers.map((a) => a.status));
    expect([count(statuses, 401), count(statuses, 429)]).toEqual([5, 45]);
  });

  test("many addresses at once through a trusted proxy: one check each, then the site-wide gate lets at most one more through", async () => {
    const api = await listeningApp({ trustedProxies: ["127.0.0.1"] });
    const round = () =>
      Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          api.login(`wrong-${i}`, { headers: { "x-forwarded-for": `198.51.100.${i}` } }),
        ),
      ).then((answers) => answers.map((a) => a.status));
    // Each address is clean the first time: its one attempt is checked.
    expect(count(await round(), 401)).toBe(30);
    // The site is now under attack: failed addresses share one slot.
    const second = await round();
    expect(count(second, 401)).toBeLessThanOrEqual(1);
    expect(count(second, 429)).toBeGreaterThanOrEqual(29);
  });

  test("parallel sign-ins with the right password all succeed (reservation never refuses a clean burst below the limit)", async () => {
    const api = await listeningApp();
    const statuses = await Promise.all(Array.from({ length: 5 }, () => api.login(ADMIN.password))).then((answers) =>
      answers.map((a) => a.status),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });
});

describe("the compiled executable, default configuration", () => {
  /** Runs `use` with the sign-in of a server of its own, listening on every address (IPv4 and IPv6). */
  const withBinary = (use: (login: ReturnType<typeof loginTo>) => Promise<void>) =>
    withServer((server) => use(loginTo(server)), { env: { HOST: "::" } });

  const loginTo =
    (server: Running) =>
    (password: string, headers: Record<string, string> = {}, from = "127.0.0.1") =>
      httpFrom(server.port, {
        from,
        method: "POST",
        path: "/api/auth/login",
        headers: { "content-type": "application/json", origin: originFor(server.port, from), ...headers },
        body: JSON.stringify({ username: "admin", password }),
      });

  test("50 parallel wrong guesses: 5 checked, 45 refused", () =>
    withBinary(async (login) => {
      const statuses = (await Promise.all(Array.from({ length: 50 }, (_, i) => login(`wrong-${i}`)))).map(
        (a) => a.status,
      );
      expect([count(statuses, 401), count(statuses, 429)]).toEqual([5, 45]);
    }));

  test("spoofed forwarded headers are ignored: keyed by the socket, no Secure cookie, no HSTS", () =>
    withBinary(async (login) => {
      const spoof = {
        "x-forwarded-for": "203.0.113.1",
        "x-forwarded-proto": "https",
        forwarded: "for=203.0.113.1;proto=https",
      };
      for (let i = 0; i < 5; i++) expect((await login(`wrong-${i}`, spoof, "127.0.0.4")).status).toBe(401);
      const held = await login(`wrong-again`, { ...spoof, "x-forwarded-for": "203.0.113.2" }, "127.0.0.4");
      expect(held.status).toBe(429);
      expect(held.headers.get("strict-transport-security")).toBeNull();
      const ok = await login(SERVER_ADMIN_PASSWORD, spoof, "::1");
      expect(ok.status).toBe(200);
      expect(ok.headers.get("set-cookie")).not.toContain("Secure");
      expect(ok.headers.get("strict-transport-security")).toBeNull();
    }));
});

describe("forwarded headers from a peer that is not a trusted proxy are ignored", () => {
  const spoofs: [string, Record<string, string | string[]>][] = [
    ["X-Forwarded-For", { "x-forwarded-for": "203.0.113.1" }],
    ["X-Forwarded-For, a list", { "x-forwarded-for": "203.0.113.1, 198.51.100.1" }],
    ["X-Forwarded-For, sent twice", { "x-forwarded-for": ["203.0.113.1", "198.51.100.1"] }],
    ["X-Forwarded-For, IPv6", { "x-forwarded-for": "2001:db8::1" }],
    ["X-Forwarded-For naming the trusted proxy itself", { "x-forwarded-for": "10.0.0.1" }],
    ["X-Forwarded-Proto: https", { "x-forwarded-proto": "https" }],
    ["Forwarded (RFC 7239)", { forwarded: "for=203.0.113.1;proto=https;host=evil.example" }],
    ["X-Real-IP", { "x-real-ip": "203.0.113.1" }],
    ["True-Client-IP and CF-Connecting-IP", { "true-client-ip": "203.0.113.1", "cf-connecting-ip": "203.0.113.1" }],
    ["X-Client-IP and Fastly-Client-IP", { "x-client-ip": "203.0.113.1", "fastly-client-ip": "203.0.113.1" }],
    ["X-Forwarded-Ssl and Front-End-Https", { "x-forwarded-ssl": "on", "front-end-https": "on" }],
  ];

  for (const trustedProxies of [[], ["10.0.0.0/8", "::1"]]) {
    test.each(spoofs)(
      `TRUSTED_PROXIES=${trustedProxies.join(",") || "(unset)"}: %s: throttled by socket, no Secure cookie, no HSTS`,
      async (_name, headers) => {
        const api = await listeningApp({ trustedProxies });
        // Each failure claims another client; the socket is the same: the sixth is held.
        for (let i = 0; i < 5; i++) {
          const varied = Object.fromEntries(
            Object.entries(headers).map(([k, v]) => [
              k,
              Array.isArray(v) ? v : v.replace("203.0.113.1", `203.0.113.${i + 10}`),
            ]),
          );
          expect((await api.login(`wrong-${i}`, { from: "127.0.0.5", headers: varied })).status).toBe(401);
        }
        expect((await api.login(ADMIN.password, { from: "127.0.0.5", headers })).status).toBe(429);
        const ok = await api.login(ADMIN.password, { from: "127.0.0.6", headers });
        expect(ok.status).toBe(200);
        expect(ok.headers.get("set-cookie")).not.toContain("Secure");
        for (const path of ["/", "/api/settings", "/healthz", "/no-such-page"]) {
          const page = await api.send({ from: "127.0.0.6", path, headers });
          expect([path, page.headers.get("strict-transport-security")]).toEqual([path, null]);
        }
      },
    );
  }

  test("a state-changing call claiming X-Forwarded-Proto: https is still checked against the scheme actually used", async () => {
    const api = await listeningApp();
    const https = originFor(api.port).replace("http:", "https:");
    const logout = (origin: string) =>
      api.send({ method: "POST", path: "/api/auth/logout", headers: { origin, "x-forwarded-proto": "https" } });
    expect((await logout(https)).status).toBe(403);
    expect((await logout(originFor(api.port))).status).toBe(200);
  });

  test("behind an undeclared proxy the server says so in its log, once, naming the setting", async () => {
    const api = await listeningApp();
    for (let i = 0; i < 3; i++) await api.send({ path: "/healthz", headers: { "x-forwarded-for": "203.0.113.1" } });
    const warnings = api.logger.lines.filter((line) => line.includes("TRUSTED_PROXIES"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("TRUSTED_PROXIES=127.0.0.1");
  });
});

describe("a trusted proxy's X-Forwarded-For names the client", () => {
  // With a limit of one failure, a second request tells whether two headers name the same
  // client (429) or two different ones (401).
  const cases: [string, string | null, string | null, "same" | "different", string[]?][] = [
    ["a single address", "203.0.113.9", "203.0.113.9", "same"],
    ["two addresses differ", "203.0.113.9", "203.0.113.10", "different"],
    ["a client-written left part is ignored", "198.51.100.1, 203.0.113.9", "192.0.2.1, 203.0.113.9", "same"],
    ["garbage on the left is ignored", "garbage, 203.0.113.9", "203.0.113.9", "same"],
    ["the right-most address is the client", "203.0.113.9, 198.51.100.1", "198.51.100.1", "same"],
    ["trusted hops on the right are skipped", "203.0.113.9, 127.0.0.9", "203.0.113.9", "same", ["127.0.0.0/8"]],
    ["all hops trusted: the left-most", "127.0.0.8, 127.0.0.9", "127.0.0.8", "same", ["127.0.0.0/8"]],
    ["a port after IPv4", "203.0.113.9:5555", "203.0.113.9", "same"],
    ["IPv6 in brackets with a port", "[2001:db8::1]:443", "2001:db8::1", "same"],
    ["IPv6, the same /64", "2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "same"],
    ["IPv6, another /64", "2001:db8:1:2::1", "2001:db8:1:3::1", "different"],
    ["IPv6 written differently", "2001:DB8:0:0:0:0:0:1", "2001:db8::1", "same"],
    ["IPv4-mapped IPv6", "::ffff:203.0.113.9", "203.0.113.9", "same"],
    ["garbage: the proxy's own address", "garbage", null, "same"],
    ["an empty header: the proxy's own address", "", null, "same"],
    ["garbage on the right: the proxy's own address", "203.0.113.9, 999.1.1.1", null, "same"],
    ["a header too long to walk: the proxy's own address", `${"198.51.100.1, ".repeat(300)}203.0.113.9`, null, "same"],
    ["garbage is not a client of its own", "garbage", "203.0.113.9", "different"],
    ["octal-looking parts are not addresses", "010.0.0.1", null, "same"],
  ];

  test.each(cases)("%s", async (_name, first, second, relation, trusted = ["127.0.0.1"]) => {
    const api = await listeningApp({ trustedProxies: trusted, testHooks: { loginThrottle: new LoginThrottle(1) } });
    const headers = (value: string | null): Record<string, string> =>
      value === null ? {} : { "x-forwarded-for": value };
    expect((await api.login("wrong", { headers: headers(first) })).status).toBe(401);
    expect((await api.login("wrong", { headers: headers(second) })).status).toBe(relation === "same" ? 429 : 401);
  });

  test("an IPv6 proxy (::1) is trusted by its address, and its clients are told apart", async () => {
    const api = await listeningApp({ trustedProxies: ["::1"], testHooks: { loginThrottle: new LoginThrottle(1) } });
    const from = "::1";
    expect((await api.login("wrong", { from, headers: { "x-forwarded-for": "203.0.113.9" } })).status).toBe(401);
    expect((await api.login("wrong", { from, headers: { "x-forwarded-for": "203.0.113.10" } })).status).toBe(401);
    expect((await api.login("wrong", { from, headers: { "x-forwarded-for": "203.0.113.10" } })).status).toBe(429);
    // The same header from an IPv4 peer, not trusted: keyed by that peer.
    expect(
      (await api.login("wrong", { from: "127.0.0.1", headers: { "x-forwarded-for": "203.0.113.11" } })).status,
    ).toBe(401);
    expect(
      (await api.login("wrong", { from: "127.0.0.1", headers: { "x-forwarded-for": "203.0.113.12" } })).status,
    ).toBe(429);
  });

  test("X-Forwarded-Proto from the trusted proxy: https gives a Secure cookie and HSTS everywhere; http, none", async () => {
    const api = await listeningApp({ trustedProxies: ["127.0.0.1"] });
    const https = { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" };
    const httpsOrigin = originFor(api.port).replace("http:", "https:");
    const ok = await api.login(ADMIN.password, { headers: { ...https, origin: httpsOrigin } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("set-cookie")).toContain("Secure");
    expect(ok.headers.get("strict-transport-security")).toBe("max-age=31536000");
    for (const path of ["/", "/api/settings", "/healthz", "/no-such-page", "/api/nothing", "/api/admin/settings"]) {
      const answer = await api.send({ path, headers: https });
      expect([path, answer.headers.get("strict-transport-security")]).toEqual([path, "max-age=31536000"]);
    }
    for (const proto of ["http", "HTTPS-ish", "", "ftp"]) {
      const answer = await api.send({ path: "/", headers: { "x-forwarded-proto": proto } });
      expect([proto, answer.headers.get("strict-transport-security")]).toEqual([proto, null]);
    }
    const plain = await api.login(ADMIN.password, { headers: { "x-forwarded-proto": "http" } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("set-cookie")).not.toContain("Secure");
  });

  test("the origin a state-changing call may come from follows the trusted proxy's scheme", async () => {
    const api = await listeningApp({ trustedProxies: ["127.0.0.1"] });
    const http = originFor(api.port);
    const https = http.replace("http:", "https:");
    const logout = (origin: string, proto: string) =>
      api.send({ method: "POST", path: "/api/auth/logout", headers: { origin, "x-forwarded-proto": proto } });
    expect((await logout(https, "https")).status).toBe(200);
    expect((await logout(http, "https")).status).toBe(403);
    expect((await logout(http, "http")).status).toBe(200);
    expect((await logout(https, "http")).status).toBe(403);
  });
});

describe("the admin is not locked out", () => {
  test("a stranger behind the same trusted proxy fails 20 times; the admin, another client, signs in at once", async () => {
    const api = await listeningApp({ trustedProxies: ["127.0.0.1"] });
    const stranger = { "x-forwarded-for": "198.51.100.66" };
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await api.login(`guess-${i}`, { headers: stranger })).status);
    expect([count(statuses, 401), count(statuses, 429)]).toEqual([5, 15]);
    const admin = await api.login(ADMIN.password, { headers: { "x-forwarded-for": "203.0.113.10" } });
    expect(admin.status).toBe(200);
  });

  test("under attack from many addresses, the admin from a clean address signs in at once; the attackers wait at most 30 s", async () => {
    const api = await listeningApp({ trustedProxies: ["127.0.0.1"] });
    const refusals: number[] = [];
    for (let i = 0; i < 25; i++) {
      for (let j = 0; j < 3; j++) {
        const answer = await api.login(`guess-${i}-${j}`, { headers: { "x-forwarded-for": `198.51.100.${i}` } });
        if (answer.status === 429) refusals.push(Number(answer.headers.get("retry-after")));
      }
    }
    expect(refusals.length).toBeGreaterThan(0);
    expect(Math.max(...refusals)).toBeLessThanOrEqual(30);
    const admin = await api.login(ADMIN.password, { headers: { "x-forwarded-for": "203.0.113.10" } });
    expect(admin.status).toBe(200);
  });

  test("without TRUSTED_PROXIES, everyone behind the proxy shares its address: that is what the setting is for", async () => {
    const api = await listeningApp();
    for (let i = 0; i < 5; i++) {
      await api.login(`guess-${i}`, { headers: { "x-forwarded-for": "198.51.100.66" } });
    }
    const admin = await api.login(ADMIN.password, { headers: { "x-forwarded-for": "203.0.113.10" } });
    expect(admin.status).toBe(429);
  });
});

describe("the limits recover", () => {
  test("five failures hold an address for 15 minutes; then the right password works", async () => {
    const { clock, now } = manualClock();
    const api = await listeningApp({ testHooks: { loginThrottle: new LoginThrottle(5, 15 * MINUTE, now) } });
    for (let i = 0; i < 5; i++) {
      expect((await api.login(`wrong-${i}`)).status).toBe(401);
      clock.now += MINUTE;
    }
    const held = await api.login(ADMIN.password);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get("retry-after"))).toBe(10 * 60);
    clock.now += 10 * MINUTE - 1000;
    expect((await api.login(ADMIN.password)).status).toBe(429);
    clock.now += 1000;
    expect((await api.login(ADMIN.password)).status).toBe(200);
    // A success forgets the failures: five more are allowed at once.
    for (let i = 0; i < 5; i++) expect((await api.login(`wrong-again-${i}`)).status).toBe(401);
  });

  test("the site-wide gate spaces failed addresses by at most 30 s and opens when the failures age out", async () => {
    const { clock, now } = manualClock();
    const api = await listeningApp({
      trustedProxies: ["127.0.0.1"],
      testHooks: { loginThrottle: new LoginThrottle(5, 15 * MINUTE, now) },
    });
    const from = (i: number) => ({ headers: { "x-forwarded-for": `198.51.100.${i}` } });
    for (let i = 0; i < 20; i++) expect((await api.login("wrong", from(i))).status).toBe(401);
    // Failed addresses now share a slot.
    expect((await api.login("wrong", from(1))).status).toBe(401);
    const gated = await api.login("wrong", from(2));
    expect(gated.status).toBe(429);
    expect(JSON.parse(gated.body).error).toMatch(/on this site\. Try again in \d+ seconds?\.$/);
    expect(Number(gated.headers.get("retry-after"))).toBeLessThanOrEqual(30);
    clock.now += 30_000;
    expect((await api.login("wrong", from(2))).status).toBe(401);
    clock.now += 15 * MINUTE;
    for (let j = 0; j < 3; j++) expect((await api.login("wrong", from(3))).status).toBe(401);
  });

  test("a flood of unique addresses through a trusted proxy does not grow the throttle's memory past its bound", async () => {
    const throttle = new LoginThrottle(5, 15 * MINUTE, Date.now, { maxClients: 20 });
    const api = await listeningApp({ trustedProxies: ["127.0.0.1"], testHooks: { loginThrottle: throttle } });
    for (let i = 0; i < 60; i++) await api.login("wrong", { headers: { "x-forwarded-for": `198.51.100.${i}` } });
    expect(throttle.size).toBeLessThanOrEqual(20);
    // Sixty password checks in a row: slow on a busy machine.
  }, 60_000);
});
