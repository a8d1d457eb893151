// Slow and greedy clients against the compiled executable, started under `ulimit -n 256` so
// that running out of file descriptors is near: bodies sent a byte at a time, headers that
// never end, one address opening hundreds of connections, admin work that takes longer than
// Bun's idle timeout, and the descriptors running out for real. Every client is a plain socket
// from its own loopback address (Linux answers on all of 127/8), so each case is a network of
// its own and the cases run side by side.
//
// Five servers: three with the production limits (idle timeout 30 s: small bodies whole within
// 10 s), one for slow clients and one for each crowd (their descriptors counted apart); one started with the tests' seam
// CAM_GUIDE_TEST_IDLE_TIMEOUT=8 (bodies within 3 s, answers within 5 s, larger bodies 64 KiB
// per 8 s) behind a trusted proxy; and one that is made to run out of descriptors.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBuilt, type Running, startServer } from "#tests/support/binary.ts";
import { testImage } from "#tests/support/images.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { until } from "#tests/support/site-files.ts";
import { keptConnection, type SlowAnswer, slowDownload, slowRequest } from "#tests/support/slow-client.ts";

// The slow cases take their time on purpose (a 10 s deadline, a 12 s header timeout), side by side.
setDefaultTimeout(40_000);

const PASSWORD = "durable-password-123";
const FD_LIMIT = 256;
const CLIP = new Uint8Array(
  readFileSync(join(import.meta.dir, "..", "..", "public", "seed", "offers", "first-stream.mp4")),
);

let plain: Running;
let crowded: Running;
/** The kept-alive crowd's own server: its connections must not count against the sign-in flood's descriptors. */
let kept: Running;
let short: Running;
let starved: Running;
/** The admin's session on `short`. */
let cookie: string;
const dirs: Record<string, string> = {};

/**
 * "At once", for an answer that must not wait for a body: half the 10 s a small body is given on
 * the production limits, so waiting for that deadline still fails, and a busy machine does not.
 */
const AT_ONCE_MS = 5_000;

beforeAll(async () => {
  ensureBuilt();
  const start = (name: string, env: Record<string, string> = {}) => {
    dirs[name] = scratchDir(name);
    return startServer(dirs[name], env, { openFileLimit: FD_LIMIT });
  };
  [plain, crowded, kept, short, starved] = await Promise.all([
    start("plain"),
    start("crowded"),
    start("kept"),
    start("short", { CAM_GUIDE_TEST_IDLE_TIMEOUT: "8", TRUSTED_PROXIES: "127.0.0.1" }),
    start("starved"),
  ]);
  cookie = await signIn(short);
}, 30_000);

afterAll(() => {
  for (const server of [plain, crowded, kept, short, starved]) server?.proc.kill("SIGKILL");
});

/** The descriptors the server holds now. */
const descriptors = (server: Running) => readdirSync(`/proc/${server.proc.pid}/fd`).length;

/** A request head with a body of `length` bytes (or chunked). */
function head(server: Running, method: string, path: string, headers: Record<string, string> = {}, length?: number) {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${server.port}`, `Origin: ${server.url}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (length !== undefined) lines.push(`Content-Length: ${length}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

const bytes = (text: string) => [...text];
const SIGN_IN = JSON.stringify({ username: "admin", password: PASSWORD });
const WRONG = JSON.stringify({ username: "admin", password: "not-the-password" });
const QUIZ = JSON.stringify({ archetype: "Girl Next Door", answers: Array(15).fill("A") });
const EARNINGS = JSON.stringify({
  tier: "Casual Starter",
  estimatedEarnings: "$30 – $470 a month",
  score: 15,
  answers: Array(15).fill(1),
});
const BEACON = JSON.stringify({ events: [{ metric: "pageview", key: "home" }] });
const JSON_TYPE = { "Content-Type": "application/json" };
const FORM_TYPE = { "Content-Type": "application/x-www-form-urlencoded" };

async function signIn(server: Running, from = "127.0.0.1"): Promise<string> {
  const res = await slowRequest({
    port: server.port,
    from,
    head: head(server, "POST", "/api/auth/login", JSON_TYPE, SIGN_IN.length) + SIGN_IN,
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.body}`);
  const session = res.headers["set-cookie"]!.split("\n").find((cookie) => cookie.startsWith("cg_session="));
  return session!.split(";")[0]!;
}

/** The error sentence of a refusal, whether JSON or a page. */
const said = (answer: SlowAnswer) =>
  answer.headers["content-type"]?.includes("json") ? JSON.parse(answer.body).error : answer.body;

// ---------------------------------------------------------------------------------------------
// Bodies that trickle

/** What a slow client saw, in the terms the cases assert. */
function outcome(answer: SlowAnswer) {
  return {
    status: answer.status,
    connection: answer.headers.connection ?? null,
    // Left open, a connection would close only at Bun's idle timeout, 8 s at the least: 3 s
    // tells the two apart on a busy machine too.
    closedAtOnce: answer.closedAfter !== null && answer.closedAfter - (answer.answeredAfter ?? 0) < 3_000,
  };
}

/** Runs every case at once (each from its own address) and answers each one's result by name. */
async function sideBySide<T>(cases: Record<string, (from: string) => Promise<T>>, firstAddress: number) {
  const names = Object.keys(cases);
  const results = await Promise.all(names.map((name, i) => cases[name]!(`127.0.0.${firstAddress + i}`)));
  return Object.fromEntries(names.map((name, i) => [name, results[i]!]));
}

const expectAll = <T>(results: Record<string, T>, expected: T) =>
  expect(results).toEqual(Object.fromEntries(Object.keys(results).map((name) => [name, expected])));

describe("a body that trickles is answered 408 within its deadline and its connection closed", () => {
  test.concurrent("public bodies a byte every 2 s, or stopping: 408 after 10 s (production limits), closed", async () => {
    const trickle = (path: string, type: Record<string, string>, body: string) => (from: string) =>
      slowRequest({
        port: plain.port,
        from,
        head: head(plain, "POST", path, type, body.length),
        body: bytes(body),
        every: 2000,
      });
    const once = (text: string) => (from: string) => slowRequest({ port: plain.port, from, head: text });
    const answers = await sideBySide(
      {
        "a JSON sign-in": trickle("/api/auth/login", JSON_TYPE, WRONG),
        "a sign-in form": trickle("/api/auth/login", FORM_TYPE, "username=admin&password=not-the-password"),
        "a quiz result": trickle("/api/quiz/result", JSON_TYPE, QUIZ),
        "the quiz's last step without JavaScript": trickle("/quiz", FORM_TYPE, `answers=${"A".repeat(15)}`),
        "a calculator result": trickle("/api/earnings/result", JSON_TYPE, EARNINGS),
        "the calculator's last step without JavaScript": trickle("/quiz/earnings", FORM_TYPE, "answers=1"),
        "the visit-count beacon": trickle("/api/analytics", JSON_TYPE, BEACON),
        "a chunked sign-in, a chunk every 2 s": (from) =>
          slowRequest({
            port: plain.port,
            from,
            head: head(plain, "POST", "/api/auth/login", { ...JSON_TYPE, "Transfer-Encoding": "chunked" }),
            body: bytes(WRONG).map((c) => `1\r\n${c}\r\n`),
            every: 2000,
          }),
        "headers, then not one byte of the body": once(head(plain, "POST", "/api/quiz/result", JSON_TYPE, QUIZ.length)),
        "half a body, then nothing": once(
          head(plain, "POST", "/api/auth/login", JSON_TYPE, WRONG.length) + WRONG.slice(0, 20),
        ),
      },
      10,
    );
    expectAll(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, outcome(answer)])), {
      status: 408,
      connection: "close",
      closedAtOnce: true,
    });
    for (const answer of Object.values(answers)) {
      expect(said(answer)).toContain("took more than 10 seconds to arrive");
      expect(answer.answeredAfter!).toBeGreaterThan(9_500);
      expect(answer.answeredAfter!).toBeLessThan(14_000);
    }
  });

  test.concurrent("a request that does not need its body is answered at once, and closed", async () => {
    const refused = (path: string) => (from: string) =>
      slowRequest({
        port: plain.port,
        from,
        head: head(plain, "POST", path, JSON_TYPE, 1000),
        body: bytes("x".repeat(20)),
        every: 2000,
      });
    const answers = await sideBySide(
      {
        "an admin change without a session": refused("/api/admin/link"),
        "an upload without a session": refused("/api/upload"),
        "a write to an address that does not exist": refused("/api/nothing-here"),
        "a page asked for with a body": (from) =>
          slowRequest({
            port: plain.port,
            from,
            head: head(plain, "GET", "/healthz", JSON_TYPE, 1000),
            body: bytes("x".repeat(20)),
            every: 2000,
          }),
        "a sign-out with a body it does not read": refused("/api/auth/logout"),
      },
      20,
    );
    expect(Object.values(answers).map((a) => a.status)).toEqual([401, 401, 404, 200, 200]);
    for (const answer of Object.values(answers)) {
      expect(outcome(answer)).toMatchObject({ connection: "close", closedAtOnce: true });
      // Long before the body could arrive, and well inside the 10 s a body is given: a busy
      // machine (the whole suite side by side) has taken 3 s to answer.
      expect(answer.answeredAfter!).toBeLessThan(AT_ONCE_MS);
    }
  });
});

describe("headers that trickle: Bun closes the connection, without an answer, within about 12 s", () => {
  test.concurrent("a byte a second or every 3 s, nothing at all, half a request line", async () => {
    const slowHead = (every: number) => (from: string) =>
      slowRequest({
        port: plain.port,
        from,
        head: head(plain, "GET", "/", { "X-Padding": "x".repeat(40) }),
        headerEvery: every,
      });
    const answers = await sideBySide(
      {
        "a header byte every second": slowHead(1000),
        "a header byte every 3 seconds": slowHead(3000),
        "a connection that sends nothing": (from) => slowRequest({ port: plain.port, from, head: "" }),
        "half a request line": (from) => slowRequest({ port: plain.port, from, head: "GET / HT" }),
      },
      30,
    );
    expectAll(
      Object.fromEntries(
        Object.entries(answers).map(([name, a]) => [
          name,
          { status: a.status, closedInTime: a.closedAfter !== null && a.closedAfter > 7_500 && a.closedAfter < 14_000 },
        ]),
      ),
      { status: 0, closedInTime: true },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// One address against everyone else

describe("one address cannot hold the server (ulimit -n 256)", () => {
  test.concurrent("120 sign-ins trickled from one address: 64 are held, the rest refused at once; others sign in", async () => {
    let most = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, descriptors(crowded));
    }, 100);
    // Each claims another address in X-Forwarded-For: no proxy is trusted, so none is believed.
    const flood = Array.from({ length: 120 }, (_, i) =>
      slowRequest({
        port: crowded.port,
        from: "127.0.0.2",
        head: head(
          crowded,
          "POST",
          "/api/auth/login",
          { ...JSON_TYPE, "X-Forwarded-For": `198.51.100.${i}` },
          WRONG.length,
        ),
        body: bytes(WRONG),
        every: 2000,
      }),
    );
    await Bun.sleep(1_000);
    // Another address is served meanwhile, and signs in.
    const page = await slowRequest({ port: crowded.port, head: head(crowded, "GET", "/", { Connection: "close" }) });
    expect(page.status).toBe(200);
    expect(page.answeredAfter!).toBeLessThan(AT_ONCE_MS);
    expect(await signIn(crowded)).toStartWith("cg_session=");
    const answers = await Promise.all(flood);
    clearInterval(sampler);
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 408)).toHaveLength(64);
    expect(refused).toHaveLength(56);
    for (const answer of refused) {
      expect(answer.answeredAfter!).toBeLessThan(AT_ONCE_MS);
      expect(answer.headers.connection).toBe("close");
      expect(answer.headers["retry-after"]).toBe("5");
      expect(said(answer)).toContain("Too many requests from your network are still open");
    }
    expect(most).toBeLessThan(FD_LIMIT - 40);
  });

  test.concurrent("100 kept-alive connections from one address: 64 stay open, the rest are closed after their answer", async () => {
    const connections = await Promise.all(Array.from({ length: 100 }, () => keptConnection(kept.port, "127.0.0.3")));
    const ask = (open: typeof connections) => Promise.all(open.map((c) => c.ask(head(kept, "GET", "/healthz"))));
    const closing = (answers: Awaited<ReturnType<typeof ask>>) =>
      answers.filter((a) => a.headers.connection === "close").length;
    const answers = await ask(connections);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // A connection answered first and idle for half a second while later ones arrive is taken as
    // let go (a busy machine answers the 100 over more than that): it is closed by its next
    // answer instead. Either way 36 close, and the 64 left are kept.
    const first = closing(answers);
    expect(first).toBeLessThanOrEqual(36);
    await until(
      "the closing answers' connections closed",
      () => connections.filter((c) => c.closed()).length === first,
    );
    const second = await ask(connections.filter((c) => !c.closed()));
    expect(second.every((a) => a.status === 200)).toBe(true);
    expect(first + closing(second)).toBe(36);
    await until("36 connections closed", () => connections.filter((c) => c.closed()).length === 36);
    // The 64 open ones still work, and another address is served.
    const again = await ask(connections.filter((c) => !c.closed()));
    expect(again).toHaveLength(64);
    expect(again.every((a) => a.status === 200 && a.headers.connection === undefined)).toBe(true);
    const other = await slowRequest({
      port: kept.port,
      from: "127.0.0.9",
      head: head(kept, "GET", "/healthz", { Connection: "close" }),
    });
    expect(other.status).toBe(200);
    for (const c of connections) c.socket.destroy();
  });

  test.concurrent("a network of eight phones behind one address, six connections each: every request served, none closed", async () => {
    const phones = await Promise.all(Array.from({ length: 48 }, () => keptConnection(plain.port, "127.0.0.4")));
    for (const path of ["/", "/healthz", "/api/blog/posts", "/learn"]) {
      const answers = await Promise.all(phones.map((p) => p.ask(head(plain, "GET", path))));
      expect(answers.map((a) => a.status)).toEqual(phones.map(() => 200));
      expect(answers.some((a) => a.headers.connection === "close")).toBe(false);
    }
    for (const p of phones) p.socket.destroy();
  });
});

// ---------------------------------------------------------------------------------------------
// Long admin work (idle timeout 8 s through the tests' seam)

const BOUNDARY = "----connections-test";
function multipart(file: Uint8Array, filename: string): Uint8Array {
  return new Uint8Array(
    Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  );
}
function video(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(CLIP);
  return bytes;
}
/** `bytes` cut into pieces of `size`. */
function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  return Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}
const uploadHead = (server: Running, cookie: string, length: number) =>
  head(
    server,
    "POST",
    "/api/upload",
    { Cookie: cookie, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
    length,
  );

describe("admin work longer than the idle timeout is not cut while it moves (idle timeout 8 s)", () => {
  test.concurrent("an upload arriving slowly for 13 s (80 KB a second) is stored", async () => {
    const body = multipart(video(1024 * 1024), "slow.mp4");
    const answer = await slowRequest({
      port: short.port,
      head: uploadHead(short, cookie, body.length),
      body: pieces(body, 20 * 1024),
      every: 250,
      giveUpAfter: 40_000,
    });
    expect(answer.status).toBe(201);
    expect(answer.answeredAfter!).toBeGreaterThan(12_000);
    expect(JSON.parse(answer.body).url).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.mp4$/);
  });

  test.concurrent("an admin save whose body comes at 15 KB a second, below Bun's own 16 KB rule, is taken", async () => {
    const markdown = JSON.stringify({ markdown: `${"A paragraph of text. ".repeat(6000)}` });
    const answer = await slowRequest({
      port: short.port,
      head: head(short, "POST", "/api/admin/editor/preview", { ...JSON_TYPE, Cookie: cookie }, markdown.length),
      body: pieces(new TextEncoder().encode(markdown), 7_500),
      every: 500,
      giveUpAfter: 40_000,
    });
    expect(answer.status).toBe(200);
    expect(answer.answeredAfter!).toBeGreaterThan(8_000);
    expect(JSON.parse(answer.body).html).toContain("A paragraph of text.");
  });

  test.concurrent("a file read slowly for longer than the idle timeout arrives whole", async () => {
    const body = multipart(video(12 * 1024 * 1024), "big.mp4");
    const stored = await slowRequest({
      port: short.port,
      head: uploadHead(short, cookie, body.length),
      body: [body],
      every: 0,
    });
    expect(stored.status).toBe(201);
    const { url } = JSON.parse(stored.body);
    const read = await slowDownload(short.port, url, 1.2 * 1024 * 1024);
    expect(read).toMatchObject({ status: 200, bytes: 12 * 1024 * 1024 });
    expect(read.ms).toBeGreaterThan(8_000);
  });

  // Alone, not beside the other cases: resizing four such images fills both cores for
  // seconds, and the cases beside it that time the server's answers (408 within 3 s) would
  // then measure the machine. On the production limits (answers within 20 s): four at once on
  // two busy cores can take longer than the seam's 5 s, which is not what this case is about.
  test("the media list answers at once while large images are being uploaded and resized", async () => {
    const plainCookie = await signIn(plain, "127.0.9.1");
    const image = multipart(await testImage(6000, 6000), "big.jpg");
    const started = performance.now();
    let took = 0;
    const uploads = Promise.all(
      Array.from({ length: 4 }, () =>
        slowRequest({
          port: plain.port,
          head: uploadHead(plain, plainCookie, image.length),
          body: [image],
          every: 0,
          giveUpAfter: 60_000,
        }),
      ),
    );
    const lists: SlowAnswer[] = [];
    let done = false;
    void uploads.then(() => {
      took = performance.now() - started;
      done = true;
    });
    while (!done) {
      lists.push(
        await slowRequest({
          port: plain.port,
          head: head(plain, "GET", "/api/admin/media", { Cookie: plainCookie, Connection: "close" }),
        }),
      );
      await Bun.sleep(200);
    }
    expect((await uploads).map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) {
      expect(list.status).toBe(200);
      // Listing used to make every new image's copies again and wait for them: the first list
      // took as long as the uploads themselves. Now it only waits for busy cores (well under
      // 4 s on a quiet machine, where the uploads take about 8 s; on a busy one both grow).
      expect(list.answeredAfter!).toBeLessThan(Math.max(4_000, took * 0.75));
    }
  });

  test.concurrent("an upload that stalls after its first 64 KB is answered 408, and nothing is kept", async () => {
    const body = multipart(video(1024 * 1024), "stalled.mp4");
    const answer = await slowRequest({
      port: short.port,
      head: uploadHead(short, cookie, body.length),
      body: [body.subarray(0, 80 * 1024), ...pieces(body.subarray(80 * 1024, 80 * 1024 + 30), 1)],
      every: 1000,
      giveUpAfter: 40_000,
    });
    expect([answer.status, answer.headers.connection]).toEqual([408, "close"]);
    expect(said(answer)).toMatch(/stalled: less than 64 KB arrived in 8 seconds/);
    expect(answer.answeredAfter!).toBeLessThan(14_000);
    // Its temporary file is gone (the other uploads running beside it finish within 20 s).
    const parts = () => readdirSync(join(dirs.short!, "uploads")).filter((name) => name.endsWith(".part"));
    for (let i = 0; i < 200 && parts().length > 0; i++) await Bun.sleep(100);
    expect(parts()).toEqual([]);
  });

  test.concurrent("a small body follows the shorter limits too: 408 within 3 s", async () => {
    const answer = await slowRequest({
      port: short.port,
      from: "127.0.0.1",
      head: head(short, "POST", "/api/quiz/result", { ...JSON_TYPE, "X-Forwarded-For": "198.51.100.40" }, QUIZ.length),
      body: bytes(QUIZ),
      every: 1000,
    });
    expect(answer.status).toBe(408);
    expect(said(answer)).toContain("took more than 3 seconds to arrive");
    expect(answer.answeredAfter!).toBeLessThan(5_000);
  });
});

describe("behind a trusted proxy each forwarded client has its own share", () => {
  test.concurrent("100 slow sign-ins forwarded for one client: 64 held, 36 refused; another client signs in", async () => {
    const forwarded = (address: string) => ({ ...JSON_TYPE, "X-Forwarded-For": address });
    const flood = Array.from({ length: 100 }, () =>
      slowRequest({
        port: short.port,
        head: head(short, "POST", "/api/auth/login", forwarded("203.0.113.5"), WRONG.length),
        body: bytes(WRONG),
        every: 1000,
      }),
    );
    await Bun.sleep(500);
    const other = await slowRequest({
      port: short.port,
      head: head(short, "POST", "/api/auth/login", forwarded("198.51.100.7"), SIGN_IN.length) + SIGN_IN,
    });
    expect(other.status).toBe(200);
    const statuses = (await Promise.all(flood)).map((a) => a.status);
    expect([statuses.filter((s) => s === 408).length, statuses.filter((s) => s === 429).length]).toEqual([64, 36]);
  });

  test.concurrent("the proxy's own connections are never told to close, however many", async () => {
    const links = await Promise.all(Array.from({ length: 80 }, () => keptConnection(short.port)));
    const answers = await Promise.all(
      links.map((link, i) => link.ask(head(short, "GET", "/healthz", { "X-Forwarded-For": `198.51.100.${i + 100}` }))),
    );
    expect(answers.every((a) => a.status === 200 && a.headers.connection === undefined)).toBe(true);
    for (const link of links) link.socket.destroy();
  });
});

// ---------------------------------------------------------------------------------------------
// Out of file descriptors

describe("running out of file descriptors is reported as such, and the server recovers", () => {
  test("with every descriptor taken: /healthz says so, writes to the database still work, files wait", async () => {
    const server = starved;
    const session = await signIn(server);
    // A file on disk of each kind the server sends: an upload and a backup.
    const image = await fetch(`${server.url}/api/upload`, {
      method: "POST",
      headers: { cookie: session, origin: server.url, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: new Uint8Array(multipart(await testImage(40, 30, "png"), "kept.png")),
    });
    expect(image.status).toBe(201);
    const uploaded = ((await image.json()) as { url: string }).url;
    const backup = "cam-guide-2026-01-02T03-04-05Z.manual.tar";
    mkdirSync(join(dirs.starved!, "backups"), { recursive: true });
    writeFileSync(join(dirs.starved!, "backups", backup), new Uint8Array(10_240));
    const page = await (await fetch(server.url)).text();
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(page)![1]!;
    // Connections opened before the descriptors run out, to ask questions while they are out.
    // Each is used once first: a connection the server has not taken from the kernel's queue yet
    // would wait there with the rest.
    const [health, quiz, upload, files] = await Promise.all([1, 2, 3, 4].map(() => keptConnection(server.port)));
    for (const connection of [health, quiz, upload, files])
      expect((await connection!.ask(head(server, "GET", "/healthz"))).status).toBe(200);
    // Twelve networks, 25 kept-alive connections each (under the cap of 64 per address): each
    // asks for /healthz and stays open for the idle timeout. Past 256 descriptors the rest wait
    // in the kernel's queue, unanswered.
    const hoard = Array.from({ length: 300 }, (_, i) =>
      keptConnection(server.port, `127.0.1.${i % 12}`).then(
        (connection) => {
          connection.socket.write(head(server, "GET", "/healthz"));
          return connection;
        },
        () => null,
      ),
    );
    const healthz = async () => health!.ask(head(server, "GET", "/healthz"));
    let during = await healthz();
    for (let i = 0; i < 100 && during.status === 200; i++) {
      await Bun.sleep(100);
      during = await healthz();
    }
    expect(during.status).toBe(503);
    expect(JSON.parse(during.body).error).toMatch(
      /^The server has run out of file descriptors \(limit 256, in use 25\d\)\.$/,
    );
    // The database's files are open already: a result is still saved, and no write is refused as a storage fault.
    const saved = await quiz!.ask(head(server, "POST", "/api/quiz/result", JSON_TYPE, QUIZ.length) + QUIZ);
    expect(saved.status).toBe(201);
    // An upload needs a new file: refused for what it is, to be tried again.
    const body = multipart(video(100 * 1024), "wait.mp4");
    const refused = await upload!.ask(
      new Uint8Array(Buffer.concat([Buffer.from(uploadHead(server, session, body.length)), body])),
    );
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).error).toContain("too many connections and files open");
    expect(refused.body).not.toMatch(/storage|disk|cannot be written/);
    // Files the server holds in memory (the built client, the seed's media) are still sent;
    // one it must open (an upload, a backup) is a 503 saying why, to retry: never a 404 or a 500.
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const answer = await files!.ask(head(server, "GET", path, headers));
      return [path, answer.status, answer.headers["content-type"], answer.headers["retry-after"], answer.body];
    };
    expect((await get(stylesheet)).slice(0, 3)).toEqual([stylesheet, 200, "text/css; charset=utf-8"]);
    expect((await get("/seed/offers/first-stream.mp4")).slice(0, 3)).toEqual([
      "/seed/offers/first-stream.mp4",
      200,
      "video/mp4",
    ]);
    expect((await get("/favicon.svg")).slice(0, 2)).toEqual(["/favicon.svg", 200]);
    const busy =
      "The server has too many connections and files open to send this file now. Please try again in a minute.\n";
    for (const [path, headers] of [
      [uploaded, {}],
      [uploaded, { Range: "bytes=0-9" }],
      [`/api/admin/backups/files/${backup}`, { Cookie: session }],
    ] as const)
      expect(await get(path, headers)).toEqual([path, 503, "text/plain; charset=utf-8", "60", busy]);
    // As the attack asked, with a one-letter Host: refused for that (Elysia would route it by
    // another path), never a page saying the file is not there. (It closes this connection.)
    const short = await files!.ask(`GET ${stylesheet} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect([short.status, short.headers["content-type"]]).toEqual([400, "text/plain; charset=utf-8"]);

    for (const connection of await Promise.all(hoard)) connection?.socket.destroy();
    let after = await healthz();
    for (let i = 0; i < 100 && after.status !== 200; i++) {
      await Bun.sleep(100);
      after = await healthz();
    }
    expect(after.status).toBe(200);
    const again = await keptConnection(server.port);
    for (const [path, headers, type] of [
      [uploaded, {}, "image/png"],
      [`/api/admin/backups/files/${backup}`, { Cookie: session }, "application/x-tar"],
    ] as const) {
      const answer = await again.ask(head(server, "GET", path, headers));
      expect([path, answer.status, answer.headers["content-type"]]).toEqual([path, 200, type]);
    }
    again.socket.destroy();
    const stored = await (await keptConnection(server.port)).ask(
      new Uint8Array(Buffer.concat([Buffer.from(uploadHead(server, session, body.length)), body])),
    );
    expect(stored.status).toBe(201);
    for (const c of [health, quiz, upload, files]) c!.socket.destroy();
    server.proc.kill("SIGKILL");
    const log = await new Response(server.proc.stderr).text();
    expect(log).toContain("the server may hold only 256 connections and open files at once (ulimit -n)");
    expect(log.match(/the server has run out of file descriptors \(limit 256/g)).toHaveLength(1);
    expect(log).toContain("LimitNOFILE=");
    expect(log).not.toContain("data cannot be kept");
  });
});
