// Request headers never reach another visitor, and a malformed Host is a 400 everywhere.
// Against the compiled executable in its default configuration (no PUBLIC_URL, NODE_ENV
// unset): a request with hostile headers goes first, with the page cache empty, and the
// clean request after it must not see any of it. Each case that changes the site has a
// server of its own; a table whose cases only read, or whose every write must be refused,
// shares one.

import { describe, expect, test } from "bun:test";
import { createApp } from "#server/app.ts";
import { openMemoryDatabase } from "#server/db/client.ts";
import { StorageHealth } from "#server/lib/storage-health.ts";
import { memoryLogger } from "#server/logger.ts";
import { loadAssets } from "#server/ssr/assets.ts";
import type { Running } from "#tests/support/binary.ts";
import { parseXml } from "#tests/support/page.ts";
import { type RawResponse, rawRequest } from "#tests/support/raw-http.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { serverForTable, signIn, withServer } from "#tests/support/template-site.ts";

const MARKER = /evilmarker/i;
const SITE = "https://guide.example.com";

type Admin = (path: string, init?: RequestInit) => Promise<Response>;

/** Signs the admin in to `server`: requests as the admin from the site's own pages. */
async function signedIn(server: Running): Promise<Admin> {
  const cookie = await signIn(server);
  return (path, init = {}) =>
    fetch(server.url + path, {
      ...init,
      headers: { cookie, origin: server.url, "content-type": "application/json", ...init.headers },
    });
}

/** The address of the client bundle's script, which every page loads. */
async function assetOf(server: Running): Promise<string> {
  return /<script type="module" src="([^"]+)"/.exec(await (await fetch(`${server.url}/terms`)).text())![1]!;
}

// A stack frame: "at fn (/path/file.ts:1:2)", "at /path/file.js:1:2", "at bun:main:1:2".
const STACK_FRAME = /\bat (?:\S+ )?\(?(?:\/|[a-z]+:)[^\s()<>"]*:\d+:\d+/;

/** Nothing of the hostile request, no stack trace, no working directory, no 5xx. */
function expectClean(label: string, status: number, headers: Iterable<[string, string]>, body: string) {
  const text = [...headers].map(([k, v]) => `${k}: ${v}`).join("\n") + body;
  expect([label, status < 500]).toEqual([label, true]);
  expect([label, MARKER.test(text)]).toEqual([label, false]);
  expect([label, STACK_FRAME.test(body) || body.includes(process.cwd())]).toEqual([label, false]);
}

// Every kind of answer a shared cache (ours or a CDN's) may keep.
const PATHS = [
  "/",
  "/blog",
  "/blog/choosing-a-stage-name",
  "/blog/no-such-post",
  "/learn",
  "/learn/1",
  "/quiz",
  "/terms",
  "/privacy",
  "/resources",
  "/no-such-page",
  "/sitemap.xml",
  "/sitemap-pages.xml",
  "/sitemap-posts-1.xml",
  "/blog/rss.xml",
  "/robots.txt",
  "/api/settings",
  "/api/blog/posts",
  "/healthz",
  "/favicon.svg",
];

const HOSTILE: [string, Record<string, string>][] = [
  ["Host", { host: "evilmarker.example" }],
  ["Host with a port", { host: "evilmarker.example:8443" }],
  ["Host in capitals", { host: "EVILMARKER.EXAMPLE" }],
  ["X-Forwarded-Host", { "x-forwarded-host": "evilmarker.example" }],
  [
    "X-Forwarded-Host, -Proto and -Port",
    { "x-forwarded-host": "evilmarker.example", "x-forwarded-proto": "https", "x-forwarded-port": "8443" },
  ],
  ["Forwarded", { forwarded: 'for=1.2.3.4;host="evilmarker.example";proto=https' }],
  ["X-Original-URL", { "x-original-url": "/evilmarker" }],
  ["X-Rewrite-URL", { "x-rewrite-url": "/evilmarker" }],
  ["X-Forwarded-Prefix", { "x-forwarded-prefix": "/evilmarker" }],
  ["X-Host", { "x-host": "evilmarker.example" }],
  ["X-Forwarded-Server", { "x-forwarded-server": "evilmarker.example" }],
  ["Origin and Referer", { origin: "https://evilmarker.example", referer: "https://evilmarker.example/x" }],
  ["X-Forwarded-For", { "x-forwarded-for": "evilmarker.example, 10.0.0.1", "x-real-ip": "evilmarker" }],
  [
    "all at once",
    { host: "evilmarker.example", "x-forwarded-host": "evilmarker.example", forwarded: "host=evilmarker.example" },
  ],
];

/** Empties the page cache the way the site does: any admin write. */
async function emptyCache(admin: Admin, address: string | null) {
  const res = address
    ? await admin("/api/admin/settings/address", { method: "PUT", body: JSON.stringify({ origin: address }) })
    : await admin("/api/admin/settings/address", { method: "DELETE" });
  expect(res.status).toBe(200);
}

async function poisonThenCheck(server: Running, headers: Record<string, string>) {
  const self = `127.0.0.1:${server.port}`;
  for (const path of PATHS) {
    const hostile = await fetch(server.url + path, { headers, redirect: "manual" });
    expectClean(`hostile ${path}`, hostile.status, hostile.headers, await hostile.text());
  }
  // An absolute-form request target names another host too.
  for (const path of ["/", "/blog", "/sitemap.xml", "/sitemap-pages.xml"]) {
    const res = await rawRequest(
      server.port,
      `GET http://evilmarker.example${path} HTTP/1.1\r\nHost: ${self}\r\nConnection: close\r\n\r\n`,
    );
    expectClean(`absolute-form ${path}`, res.status, Object.entries(res.headers), res.body);
  }
  const clean: Record<string, { status: number; body: string; location: string | null }> = {};
  for (const path of PATHS) {
    const res = await fetch(server.url + path, { redirect: "manual" });
    const body = await res.text();
    expectClean(`clean ${path}`, res.status, res.headers, body);
    clean[path] = { status: res.status, body, location: res.headers.get("location") };
  }
  return clean;
}

const bootOrigin = (html: string) =>
  JSON.parse(/<script type="application\/json" id="__boot">(.*?)<\/script>/s.exec(html)![1]!).origin;

/**
 * A site of its own where the address is not known: signing in records the address of the
 * sign-in; forgetting it again puts the site back where a fresh install is, with a session
 * to empty the cache between cases.
 */
async function freshInstall(server: Running): Promise<Admin> {
  const admin = await signedIn(server);
  await emptyCache(admin, null);
  return admin;
}

// The two tables of hostile headers share one server each: every row first puts the site back
// where its table starts (the address, an empty page cache), and a hostile request that
// changed anything fails its own row.
describe("before the public address is known (fresh install, no PUBLIC_URL)", () => {
  const hostileServer = serverForTable();
  test.each(HOSTILE)("%s sent first: the next visitor sees none of it", async (_name, headers) => {
    const server = await hostileServer();
    await freshInstall(server);
    const clean = await poisonThenCheck(server, headers);
    expect(clean["/blog"]!.body).toContain('<link rel="canonical" href="/blog"/>');
    expect(clean["/blog"]!.body).not.toContain('property="og:url"');
    expect(bootOrigin(clean["/blog"]!.body)).toBeNull();
    // The sitemap's index and its parts alike.
    expect(clean["/sitemap.xml"]!.status).toBe(404);
    expect(clean["/sitemap-pages.xml"]!.status).toBe(404);
    expect(clean["/sitemap-posts-1.xml"]!.status).toBe(404);
    expect(clean["/blog/rss.xml"]!.status).toBe(404);
    expect(clean["/robots.txt"]!.body).not.toContain("Sitemap:");
    expect(clean["/blog/no-such-post"]!.location).toBe("/blog");
  });

  test("a failed sign-in with a hostile Host and Origin records nothing", () =>
    withServer(async (server) => {
      const admin = await freshInstall(server);
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          host: "evilmarker.example",
          origin: "http://evilmarker.example",
        },
        body: JSON.stringify({ username: "admin", password: "wrong-password-123" }),
      });
      expect(res.status).toBe(401);
      expect(await (await admin("/api/admin/settings/address")).json()).toEqual({ origin: null, source: "none" });
    }));
});

describe("once the admin has confirmed the public address", () => {
  const confirmedServer = serverForTable();
  test.each(HOSTILE)("%s sent first: every link still starts with the confirmed address", async (_name, headers) => {
    const server = await confirmedServer();
    await emptyCache(await signedIn(server), SITE);
    const clean = await poisonThenCheck(server, headers);
    expect(clean["/blog"]!.body).toContain(`<link rel="canonical" href="${SITE}/blog"/>`);
    expect(clean["/blog"]!.body).toContain(`<meta property="og:url" content="${SITE}/blog"/>`);
    expect(bootOrigin(clean["/blog"]!.body)).toBe(SITE);
    const post = clean["/blog/choosing-a-stage-name"]!.body;
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(post)![1]!);
    expect(jsonLd[0].mainEntityOfPage).toBe(`${SITE}/blog/choosing-a-stage-name`);
    const locs = (path: string) =>
      [...parseXml(clean[path]!.body).getElementsByTagName("loc")].map((l) => l.textContent);
    // The index names its parts at the confirmed address; each part's every address starts with it.
    expect(locs("/sitemap.xml")).toEqual([`${SITE}/sitemap-pages.xml`, `${SITE}/sitemap-posts-1.xml`]);
    expect(locs("/sitemap-pages.xml").length).toBeGreaterThan(10);
    expect(locs("/sitemap-posts-1.xml")).toContain(`${SITE}/blog/choosing-a-stage-name`);
    for (const path of ["/sitemap-pages.xml", "/sitemap-posts-1.xml"])
      expect([path, locs(path).every((l) => l?.startsWith(`${SITE}/`))]).toEqual([path, true]);
    const links = [...parseXml(clean["/blog/rss.xml"]!.body).getElementsByTagName("link")].map((l) => l.textContent);
    expect(links.every((l) => l?.startsWith(`${SITE}/`))).toBe(true);
    expect(clean["/robots.txt"]!.body).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});

// Each malformed Host, on every kind of route: a 400 with a short plain message, checked
// before anything else reads the request.
const ROUTES = [
  "GET /healthz",
  "GET /",
  "GET /blog/choosing-a-stage-name",
  "GET /no-such-page",
  "GET /favicon.svg",
  "GET /assets/",
  "GET /api/settings",
  "GET /api/nope",
  "GET /api/admin/settings",
  "PUT /api/admin/settings",
  "POST /api/auth/login",
  "POST /api/quiz/result",
  "POST /api/upload",
  "GET /uploads/abc.png",
  "GET /sitemap.xml",
  "GET /sitemap-posts-1.xml",
  "GET /robots.txt",
  "HEAD /",
  "OPTIONS /api/settings",
  "DELETE /",
];

const BAD_HOSTS: [string, string][] = [
  ["empty", "Host: \r\n"],
  ["only spaces", "Host:    \r\n"],
  ["a space inside", "Host: a b\r\n"],
  ["port out of range", "Host: evilmarker.example:99999\r\n"],
  ["port zero", "Host: evilmarker.example:0\r\n"],
  ["empty port", "Host: evilmarker.example:\r\n"],
  ["port not a number", "Host: evilmarker.example:abc\r\n"],
  ["two ports", "Host: evilmarker.example:80:80\r\n"],
  ["unclosed IPv6", "Host: [::1\r\n"],
  ["IPv6 without brackets", "Host: ::1\r\n"],
  ["text after IPv6", "Host: [::1]x\r\n"],
  ["user info", "Host: user@evilmarker.example\r\n"],
  ["a path", "Host: evilmarker.example/x\r\n"],
  ["a query", "Host: evilmarker.example?x\r\n"],
  ["a backslash", "Host: evilmarker.example\\x\r\n"],
  ["percent-encoded", "Host: %65vilmarker.example\r\n"],
  ["an empty label", "Host: evilmarker..example\r\n"],
  ["a leading hyphen", "Host: -evilmarker.example\r\n"],
  ["a tab inside", "Host: evil\tmarker.example\r\n"],
  ["a control character", "Host: evil\x01marker.example\r\n"],
  ["non-ASCII bytes", "Host: \xe9vilmarker.example\r\n"],
  ["very long", `Host: ${"a".repeat(300)}.example\r\n`],
  ["extremely long", `Host: ${"a".repeat(6000)}\r\n`],
  ["two Host headers", "Host: evilmarker.example\r\nHost: 127.0.0.1\r\n"],
  ["a list in one header", "Host: 127.0.0.1, evilmarker.example\r\n"],
];

describe("a missing or malformed Host is a 400 on every route", () => {
  const badHostServer = serverForTable();
  test.each(BAD_HOSTS)("%s", async (_name, hostLines) => {
    const server = await badHostServer();
    const asset = await assetOf(server);
    for (const route of ROUTES) {
      const [method, path] = route.split(" ");
      const target = path === "/assets/" ? asset : path;
      const res = await rawRequest(
        server.port,
        Buffer.from(
          `${method} ${target} HTTP/1.1\r\n${hostLines}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
          "latin1",
        ),
      );
      expect([route, res.status]).toEqual([route, 400]);
      expect([route, res.body.length < 200, MARKER.test(res.raw)]).toEqual([route, true, false]);
      expect([route, STACK_FRAME.test(res.body) || /node_modules|<html/i.test(res.body)]).toEqual([route, false]);
    }
  });

  test("no Host at all, in HTTP/1.1 and HTTP/1.0", () =>
    withServer(async (server) => {
      for (const route of ROUTES) {
        const [method, path] = route.split(" ");
        for (const version of ["1.1", "1.0"]) {
          const res = await rawRequest(server.port, `${method} ${path} HTTP/${version}\r\nConnection: close\r\n\r\n`);
          expect([route, version, res.status]).toEqual([route, version, 400]);
          expect(res.body.length).toBeLessThan(200);
        }
      }
    }));

  test("the message is short and plain", () =>
    withServer(async (server) => {
      const res = await rawRequest(server.port, "GET /healthz HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n");
      expect(res.headers["content-type"]).toStartWith("text/plain");
      expect(res.body).toBe("Bad request: the Host header is missing or malformed.\n");
      // The server still serves everyone else.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    }));

  const wellFormedServer = serverForTable();

  test.each([
    ["localhost", "localhost"],
    ["an IPv4 address with the port", "127.0.0.1:PORT"],
    ["IPv6 loopback", "[::1]:PORT"],
    ["a container name with an underscore", "cam_guide:3000"],
    ["capitals", "GUIDE.EXAMPLE.COM"],
    ["a trailing dot", "guide.example.com."],
    ["an absolute-form target", "ABSOLUTE"],
  ])("a well-formed Host is served: %s", async (_name, host) => {
    const server = await wellFormedServer();
    const self = `127.0.0.1:${server.port}`;
    const line =
      host === "ABSOLUTE"
        ? `GET http://guide.example.com/healthz HTTP/1.1\r\nHost: ${self}`
        : `GET /healthz HTTP/1.1\r\nHost: ${host.replace("PORT", String(server.port))}`;
    const res = await rawRequest(server.port, `${line}\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(200);
  });
});

// Elysia's router looks for the path from the 12th character of the URL on: with "Host: x",
// /zz/api/admin/links was routed to /api/admin/links while the admin guard read the real path,
// and answered a guest with the links (a write went through too); /assets/… answered the
// not-found page. A Host too short to be routed as written is now a 400 everywhere.
describe("a Host of under four characters is a 400 on every route, never routed by another path", () => {
  // ("1" is not among them: the URL parser reads it as the address 0.0.0.1, routed as written.)
  const SHORT = ["x", "_", "ab", "pi", "abc", "a.b", "x:1", "A"];
  const PATHS = [
    "GET /zz/api/admin/links",
    "GET /a/api/admin/links",
    "GET /zzz/api/admin/links",
    "GET /z/z/api/admin/links",
    "POST /zz/api/admin/link",
    "GET /api/admin/links",
    "GET /assets/",
    "GET /seed/offers/first-stream.mp4",
    "GET /healthz",
    "GET /",
  ];

  // Every write here must be refused, and each case looks for its own link only.
  const shortHostServer = serverForTable();
  test.each(SHORT)("Host: %s", async (host) => {
    const server = await shortHostServer();
    const asset = await assetOf(server);
    for (const route of PATHS) {
      const [method, path] = route.split(" ");
      const target = path === "/assets/" ? asset : path;
      const body =
        method === "POST"
          ? JSON.stringify({ slug: `short-${host}`, destination: "https://evil.example.com/", active: true })
          : "";
      const res = await rawRequest(
        server.port,
        `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\n${body ? `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` : ""}Connection: close\r\n\r\n${body}`,
      );
      expect([route, res.status, res.body]).toEqual([
        route,
        400,
        "Bad request: this server does not answer a Host of fewer than four characters (its port included); use its full name or its address.\n",
      ]);
    }
    const admin = await signedIn(server);
    const links = (await (await admin("/api/admin/links")).json()) as { slug: string }[];
    expect(links.map((link) => link.slug)).not.toContain(`short-${host}`);
  });

  const longerHostServer = serverForTable();
  test.each(["abcd", "ab:1", "[::]", "a.bc", "1"])(
    "Host: %s (four characters or more) is routed as written",
    async (host) => {
      const server = await longerHostServer();
      const asset = await assetOf(server);
      const ask = (path: string) =>
        rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect((await ask("/zz/api/admin/links")).status).toBe(404);
      expect((await ask("/api/admin/links")).status).toBe(401);
      const script = await ask(asset);
      expect([script.status, script.headers["content-type"]]).toEqual([200, "text/javascript; charset=utf-8"]);
      expect((await ask("/healthz")).status).toBe(200);
    },
  );
});

describe("production unless told otherwise", () => {
  // Bun's developer error page (a stack and the working directory) is off unless NODE_ENV=development.
  test.each([
    [undefined, false],
    [true, true],
  ] as const)("development: %p -> Bun.serve development %p", async (development, expected) => {
    const uploadsDir = scratchDir("uploads");
    const app = createApp({
      database: openMemoryDatabase(),
      secret: "x".repeat(40),
      uploadsDir,
      storage: new StorageHealth({ dir: uploadsDir, databaseFile: null, logger: memoryLogger() }),
      config: { publicUrl: null, ...(development === undefined ? {} : { development }) },
      assets: loadAssets(),
      logger: memoryLogger(),
    });
    app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      expect(app.server?.development).toBe(expected);
    } finally {
      await app.server?.stop(true);
    }
  });

  test("the executable started without NODE_ENV answers a bad request without a stack", () =>
    withServer(async (server) => {
      const res: RawResponse = await rawRequest(
        server.port,
        "GET / HTTP/1.1\r\nHost: user@evilmarker.example\r\nConnection: close\r\n\r\n",
      );
      expect(res.status).toBe(400);
      expect(res.body).not.toContain("<!doctype html>");
    }));
});
