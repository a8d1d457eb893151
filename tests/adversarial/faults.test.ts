// Faults are reported honestly: the compiled executable, as a real process, with its database
// files deleted or replaced under it, on a disk that fills up, and with uploads cut short by the
// client or by a kill -9. Nothing the server acknowledges is lost, nothing it cannot keep is
// acknowledged, and nothing partial is ever served or backed up.
//
// The full disk is real where the machine allows it: a small tmpfs mounted for the test (root,
// or CAP_SYS_ADMIN). Elsewhere the same cases run under a file size limit (RLIMIT_FSIZE, set
// with `ulimit -f` on the spawned executable), where the kernel refuses writes past the limit
// with EFBIG just as a full disk refuses them with ENOSPC. Test names say which one ran.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTar } from "#server/lib/tar.ts";
import { offerInput, postInput, productInput, settingsInput } from "#tests/support/admin-inputs.ts";
import { BINARY, ensureBuilt, type Running, type StartOptions, startServer } from "#tests/support/binary.ts";
import { scratchDir } from "#tests/support/scratch.ts";

const PASSWORD = "durable-password-123";
const MB = 1024 * 1024;
const root = join(import.meta.dir, "..", "..");
const UPLOAD_NAME = /^[A-Za-z0-9_-]{22}\.(png|jpg|gif|webp|mp4|webm|ogg)$/;
const TEMP_NAME = /^\.upload-.*\.part$/;

beforeAll(() => ensureBuilt(), 180_000);

// ---------------------------------------------------------------------------------------------
// A server process whose output is read as it comes (a full pipe would stall it).

interface Server extends Running {
  dir: string;
  output(): string;
  stop(): Promise<number>;
}

const running = new Set<Server>();

async function start(dir: string, options: StartOptions = {}): Promise<Server> {
  const server = await startServer(dir, { ADMIN_PASSWORD: PASSWORD }, options);
  let output = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += new TextDecoder().decode(chunk);
  };
  void drain(server.proc.stdout);
  void drain(server.proc.stderr);
  const handle: Server = {
    ...server,
    dir,
    output: () => output,
    async stop() {
      running.delete(handle);
      if (server.proc.exitCode === null) server.proc.kill("SIGTERM");
      return server.proc.exited;
    },
  };
  running.add(handle);
  return handle;
}

afterAll(async () => {
  for (const server of running) {
    server.proc.kill("SIGKILL");
    await server.proc.exited;
  }
});

/** Runs a command of the executable to its end. */
function command(dir: string, ...args: string[]) {
  const result = Bun.spawnSync([BINARY, ...args], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dir, ADMIN_PASSWORD: PASSWORD },
  });
  return { code: result.exitCode, out: result.stdout.toString() + result.stderr.toString() };
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username: "admin", password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** A request from the admin's own pages. */
function asAdmin(server: Server, cookie: string) {
  return (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    headers.set("cookie", cookie);
    headers.set("origin", server.url);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    return fetch(server.url + path, {
      ...init,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
  };
}

const QUIZ = { archetype: "Girl Next Door", answers: Array(15).fill("A") };
const EARNINGS = {
  tier: "Casual Starter",
  estimatedEarnings: "$30 – $470 a month",
  score: 15,
  answers: Array(15).fill(1),
};

function postJson(url: string, path: string, body: unknown) {
  return fetch(url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

// ---------------------------------------------------------------------------------------------
// Upload bodies: a real PNG and MP4 header, padded; multipart built by hand so it can be cut.

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const CLIP = new Uint8Array(readFileSync(join(root, "public", "seed", "offers", "first-stream.mp4")));

/** A video of `size` bytes; `mark` in its last byte makes it another file (the library keeps the same bytes once). */
function video(size: number, mark = 0): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(CLIP);
  bytes[size - 1] = mark;
  return bytes;
}

/** The PNG with a byte after its end (which decoders ignore): another file to the library. */
const OTHER_PNG = Uint8Array.from([...PNG, 1]);

const BOUNDARY = "----faults-test-boundary";
const HEAD = (filename: string) =>
  new TextEncoder().encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
const TAIL = new TextEncoder().encode(`\r\n--${BOUNDARY}--\r\n`);
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

function multipart(file: Uint8Array, filename = "file.bin"): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.concat([HEAD(filename), file, TAIL]));
}

/** The body as a stream, so it is sent chunked, without a Content-Length: the size is learnt only by reading. */
function chunked(bytes: Uint8Array, piece = 256 * 1024): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + piece));
      at += piece;
    },
  });
}

function upload(admin: ReturnType<typeof asAdmin>, body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>) {
  return admin("/api/upload", { method: "POST", headers: { "content-type": MULTIPART }, body });
}

/** Everything in DATA_DIR/uploads, temporary names included. */
function uploadsIn(dir: string): string[] {
  try {
    return readdirSync(join(dir, "uploads")).sort();
  } catch {
    return [];
  }
}

/** Polls until `check` holds, or fails after `ms`. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await Bun.sleep(25);
  }
  throw new Error(`timed out waiting until ${what}`);
}

const health = async (url: string) => {
  const res = await fetch(`${url}/healthz`);
  return {
    status: res.status,
    cache: res.headers.get("cache-control"),
    body: (await res.json()) as Record<string, string>,
  };
};

/** Starts an upload over a raw connection: the request line, headers and `sent` bytes of a body declared as `declared`. */
function rawUpload(server: Server, cookie: string, body: Uint8Array, sent: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1", () => {
      socket.write(
        `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nCookie: ${cookie}\r\nOrigin: ${server.url}\r\n` +
          `Content-Type: ${MULTIPART}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, sent), () => resolve(socket));
    });
    socket.on("error", reject);
  });
}

/** The entries of a backup archive. */
async function archived(file: string): Promise<string[]> {
  const names: string[] = [];
  await readTar(file, async (name) => {
    names.push(name);
  });
  return names.sort();
}

// ---------------------------------------------------------------------------------------------
// Every kind of write the site has, valid, so that without the refusal each would change data.

type Write = [name: string, send: (admin: ReturnType<typeof asAdmin>, url: string) => Promise<Response>];

function writeKinds(productId: string): Write[] {
  return [
    ["a quiz result (public)", (_, url) => postJson(url, "/api/quiz/result", QUIZ)],
    ["an earnings result (public)", (_, url) => postJson(url, "/api/earnings/result", EARNINGS)],
    ["a sign-in", (_, url) => postJson(url, "/api/auth/login", { username: "admin", password: PASSWORD })],
    [
      "a new blog post",
      (admin) => admin("/api/admin/blog/post", { method: "POST", json: postInput({ slug: "fault-post" }) }),
    ],
    [
      "a blog post edit",
      (admin) => admin("/api/admin/blog/post/1", { method: "PUT", json: postInput({ slug: "edited-post" }) }),
    ],
    ["a blog post deletion", (admin) => admin("/api/admin/blog/post/2", { method: "DELETE" })],
    [
      "a new category",
      (admin) => admin("/api/admin/blog/category", { method: "POST", json: { name: "Faults", slug: "faults" } }),
    ],
    ["a new offer", (admin) => admin("/api/admin/affiliate-offer", { method: "POST", json: offerInput() })],
    [
      "an offer edit",
      (admin) => admin("/api/admin/affiliate-offer/1", { method: "PUT", json: offerInput({ title: "Edited" }) }),
    ],
    ["an offer deletion", (admin) => admin("/api/admin/affiliate-offer/2", { method: "DELETE" })],
    ["a new product", (admin) => admin("/api/admin/recommended-product", { method: "POST", json: productInput() })],
    [
      "a product edit",
      (admin) =>
        admin(`/api/admin/recommended-product/${productId}`, {
          method: "PUT",
          json: productInput({ id: productId, name: "Edited" }),
        }),
    ],
    [
      "a product deletion",
      (admin) => admin(`/api/admin/recommended-product/${encodeURIComponent(productId)}`, { method: "DELETE" }),
    ],
    [
      "the settings",
      (admin) => admin("/api/admin/settings", { method: "PUT", json: settingsInput({ brandName: "Changed" }) }),
    ],
    ["an image upload", (admin) => upload(admin, multipart(PNG, "a.png"))],
    ["a video upload (chunked)", (admin) => upload(admin, chunked(multipart(video(2 * MB), "v.mp4")))],
    // Last: a successful sign-out ends the session the others use.
    ["a sign-out", (admin) => admin("/api/auth/logout", { method: "POST" })],
  ];
}

/** What the admin and a visitor can see of the data, to prove a refused write changed nothing. */
async function siteState(server: Server, cookie: string) {
  const admin = asAdmin(server, cookie);
  const read = async (path: string) => (await admin(path)).json();
  // Each post whole, as its editor opens it (the list holds no text), from every page of the list.
  const posts: unknown[] = [];
  for (let page = 1, pages = 1; page <= pages; page++) {
    const list = await read(`/api/admin/blog/posts?page=${page}`);
    pages = list.pages;
    for (const { id } of list.posts as { id: number }[]) posts.push(await read(`/api/admin/blog/post/${id}`));
  }
  return {
    posts,
    categories: await read("/api/blog/categories"),
    offers: await read("/api/admin/affiliate-offers"),
    products: await read("/api/admin/recommended-products"),
    settings: await read("/api/admin/settings"),
    uploads: uploadsIn(server.dir),
  };
}

async function firstProduct(server: Server, cookie: string): Promise<string> {
  const products = (await (await asAdmin(server, cookie)("/api/admin/recommended-products")).json()) as {
    id: string;
  }[];
  return products[0]!.id;
}

// ---------------------------------------------------------------------------------------------

describe("the database deleted while the server runs", () => {
  let server: Server;
  let cookie: string;
  let writes: Write[];
  let before: string;
  const backupFile = join(scratchDir("faults-backup"), "before.tar");

  beforeAll(async () => {
    const dir = join(scratchDir("faults"), "data");
    server = await start(dir);
    cookie = await signIn(server.url);
    writes = writeKinds(await firstProduct(server, cookie));
    before = ((await (await postJson(server.url, "/api/quiz/result", QUIZ)).json()) as { id: string }).id;
    expect(command(dir, "backup", backupFile).code).toBe(0);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(join(dir, `app.db${suffix}`));
  }, 30_000);

  test("/healthz answers 503 with the reason, not cached", async () => {
    const answer = await health(server.url);
    expect(answer.status).toBe(503);
    expect(answer.cache).toBe("no-store");
    expect(answer.body.status).toBe("unavailable");
    expect(answer.body.error).toMatch(/app\.db is missing/);
  });

  test("every kind of write answers 503 with Retry-After, and none 201", async () => {
    const answers: string[] = [];
    for (const [name, send] of writes) {
      const res = await send(asAdmin(server, cookie), server.url);
      const body = (await res.json()) as { error?: string };
      answers.push(`${name}: ${res.status} ${res.headers.get("retry-after")} ${body.error?.slice(0, 40)}`);
    }
    for (const answer of answers) expect(answer).toMatch(/: 503 \d+ Nothing was saved: the database file/);
    expect(answers).toHaveLength(writes.length);
  }, 30_000);

  test("no upload was stored, not even under a temporary name", () => {
    expect(uploadsIn(server.dir)).toEqual([]);
  });

  test.each([
    ["/", [200, 503]],
    ["/blog", [200, 503]],
    ["/api/blog/posts", [200, 503]],
    // 404 while no public address is known (the admin signed in at 127.0.0.1, a local address).
    ["/sitemap.xml", [200, 404, 503]],
    ["/sitemap-pages.xml", [200, 404, 503]],
    ["/sitemap-posts-1.xml", [200, 404, 503]],
  ])("a read of %s is honest (what the open file holds) or 503, never a 500", async (path, allowed) => {
    expect(allowed).toContain((await fetch(server.url + path)).status);
  });

  test("a result saved before the deletion still reads back while the server runs", async () => {
    expect((await fetch(`${server.url}/api/quiz/result/${before}`)).status).toBe(200);
  });

  test("the reason is logged once, not once per refused request", () => {
    expect(server.output().match(/data cannot be kept: refusing every change/g)).toHaveLength(1);
    // The visit counts that reads would have written say so at most once too.
    expect(server.output().match(/visit counts are not written/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });

  test("the server still stops cleanly", async () => {
    expect(await server.stop()).toBe(0);
  });

  test("a restart refuses (exit 1), names the fix, and does not create an empty site", async () => {
    const proc = Bun.spawn([BINARY], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dir, PORT: String(server.port), HOST: "127.0.0.1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(1);
    const message = await new Response(proc.stderr).text();
    expect(message).toContain("app.db is missing");
    expect(message).toContain("cam-guide restore");
    expect(message).toContain("cam-guide new-database");
    expect(existsSync(join(server.dir, "app.db"))).toBe(false);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  }, 20_000);

  test.each([
    ["seed", ["seed"]],
    ["admin reset-password", ["admin", "reset-password"]],
  ])("`cam-guide %s` refuses too, and creates nothing", (_, args) => {
    const result = command(server.dir, ...args);
    expect(result.code).not.toBe(0);
    expect(result.out).toContain("app.db is missing");
    expect(existsSync(join(server.dir, "app.db"))).toBe(false);
  });

  test("restoring the backup brings the site back with its data", async () => {
    const dir = join(scratchDir("faults-restored"), "data");
    mkdirSync(dir, { recursive: true });
    for (const name of ["site-created", "jwt-secret"]) copyFileSync(join(server.dir, name), join(dir, name));
    expect(command(dir, "restore", backupFile).code).toBe(0);
    const restored = await start(dir);
    try {
      expect((await fetch(`${restored.url}/api/quiz/result/${before}`)).status).toBe(200);
    } finally {
      await restored.stop();
    }
  }, 30_000);

  test("`cam-guide new-database` starts over on purpose: a new, empty site that then starts", async () => {
    const result = command(server.dir, "new-database");
    expect(result.code).toBe(0);
    expect(result.out).toContain("new, empty database");
    expect(command(server.dir, "new-database").code).toBe(1);
    const fresh = await start(server.dir);
    try {
      expect((await fetch(`${fresh.url}/api/quiz/result/${before}`)).status).toBe(404);
      expect((await postJson(fresh.url, "/api/quiz/result", QUIZ)).status).toBe(201);
    } finally {
      await fresh.stop();
    }
  }, 30_000);
});

describe("the database files changed under the server", () => {
  const changes: [string, (dir: string) => void, RegExp][] = [
    ["app.db alone deleted (its log left)", (dir) => rmSync(join(dir, "app.db")), /app\.db is missing/],
    ["the write-ahead log deleted", (dir) => rmSync(join(dir, "app.db-wal")), /app\.db-wal is missing/],
    ["app.db renamed", (dir) => renameSync(join(dir, "app.db"), join(dir, "app.db.old")), /app\.db is missing/],
    [
      "app.db replaced by a copy of itself",
      (dir) => {
        copyFileSync(join(dir, "app.db"), join(dir, "copy"));
        renameSync(join(dir, "copy"), join(dir, "app.db"));
      },
      /app\.db was replaced/,
    ],
    [
      "app.db replaced by an empty file",
      (dir) => {
        rmSync(join(dir, "app.db"));
        writeFileSync(join(dir, "app.db"), "");
      },
      /app\.db was replaced/,
    ],
    [
      "app.db replaced by another site's database",
      (dir) => {
        const other = join(scratchDir("faults-other"), "data");
        expect(command(other, "seed").code).toBe(0);
        renameSync(join(other, "app.db"), join(dir, "app.db"));
      },
      /app\.db was replaced/,
    ],
    ["the whole data folder moved away", (dir) => renameSync(dir, `${dir}-moved`), /app\.db is missing|cannot be/],
  ];

  test.each(changes)(
    "%s: /healthz 503 with the reason; a quiz result, an admin change and an upload 503; the new file untouched",
    async (_, change, reason) => {
      const dir = join(scratchDir("faults"), "data");
      const server = await start(dir);
      try {
        const cookie = await signIn(server.url);
        const admin = asAdmin(server, cookie);
        change(dir);
        const fileNow = existsSync(join(dir, "app.db")) ? readFileSync(join(dir, "app.db")) : null;
        const answer = await health(server.url);
        expect(answer.status).toBe(503);
        expect(answer.body.error).toMatch(reason);
        for (const res of [
          await postJson(server.url, "/api/quiz/result", QUIZ),
          await admin("/api/admin/settings", { method: "PUT", json: settingsInput({ brandName: "Changed" }) }),
          await upload(admin, multipart(PNG, "a.png")),
        ]) {
          expect(res.status).toBe(503);
          expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
        }
        // The file now in place got none of the refused writes.
        if (fileNow) expect(readFileSync(join(dir, "app.db"))).toEqual(fileNow);
        expect(uploadsIn(dir)).toEqual([]);
      } finally {
        await server.stop();
      }
    },
    30_000,
  );

  test("moved away and back: every write refused meanwhile changed nothing, then each is accepted", async () => {
    const dir = join(scratchDir("faults"), "data");
    const server = await start(dir);
    try {
      const cookie = await signIn(server.url);
      const writes = writeKinds(await firstProduct(server, cookie));
      const before = await siteState(server, cookie);
      const files = ["app.db", "app.db-wal", "app.db-shm"];
      for (const name of files) renameSync(join(dir, name), join(dir, `${name}.aside`));
      for (const [name, send] of writes)
        expect(`${name}: ${(await send(asAdmin(server, cookie), server.url)).status}`).toBe(`${name}: 503`);
      for (const name of files) renameSync(join(dir, `${name}.aside`), join(dir, name));
      expect((await health(server.url)).status).toBe(200);
      expect(await siteState(server, cookie)).toEqual(before);
      // The same requests were real writes: with the files back, each one is accepted.
      for (const [name, send] of writes)
        expect(`${name}: ${(await send(asAdmin(server, cookie), server.url)).ok}`).toBe(`${name}: true`);
      expect(await siteState(server, await signIn(server.url))).not.toEqual(before);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// A full disk: a real tmpfs where mounting is allowed, else a file size limit on the process.

interface Disk {
  /** Which fault ran, for the test names. */
  mode: string;
  dir: string;
  /** Makes the disk full for the server (restarting it under a limit when that is the mode). */
  fill(server: Server): Promise<Server>;
  /** Leaves about `bytes` of room. */
  leave(server: Server, bytes: number): Promise<Server>;
  /** Gives the room back. */
  release(server: Server): Promise<Server>;
  /** How a server starts on this disk now (under the present file size limit, in that mode). */
  startOptions(): StartOptions;
  cleanup(): void;
}

function canMount(): boolean {
  const probe = mkdtempSync(join(tmpdir(), "cam-guide-mount-probe-"));
  try {
    const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], { stderr: "ignore" });
    if (mounted.exitCode !== 0) return false;
    Bun.spawnSync(["umount", probe]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

function tmpfsDisk(): Disk {
  const mount = mkdtempSync(join(tmpdir(), "cam-guide-full-disk-"));
  const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", mount]);
  if (mounted.exitCode !== 0) throw new Error(`mount failed: ${mounted.stderr}`);
  const filler = join(mount, "filler");
  const free = () => {
    const { bavail, bsize } = statfsSync(mount);
    return Number(bavail) * Number(bsize);
  };
  const fillTo = (room: number) => {
    rmSync(filler, { force: true });
    const fd = openSync(filler, "w");
    const block = new Uint8Array(64 * 1024);
    try {
      while (free() > room) {
        const want = Math.min(block.length, free() - room);
        writeSync(fd, block, 0, Math.max(4096, want - (want % 4096)));
      }
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOSPC") throw error;
    } finally {
      closeSync(fd);
    }
  };
  return {
    mode: "a 48 MB tmpfs mounted for the test",
    dir: join(mount, "data"),
    async fill(server) {
      fillTo(0);
      expect(free()).toBe(0);
      return server;
    },
    async leave(server, bytes) {
      fillTo(bytes);
      return server;
    },
    async release(server) {
      rmSync(filler, { force: true });
      return server;
    },
    startOptions: () => ({ healthy: false }),
    cleanup() {
      let result = Bun.spawnSync(["umount", mount]);
      if (result.exitCode !== 0) result = Bun.spawnSync(["umount", "-l", mount]);
      rmSync(mount, { recursive: true, force: true });
    },
  };
}

function fileSizeLimitDisk(why: string): Disk {
  const dir = join(scratchDir("faults-fsize"), "data");
  const largest = () =>
    Math.max(
      ...["app.db", "app.db-wal"].map((name) => (existsSync(join(dir, name)) ? statSync(join(dir, name)).size : 0)),
    );
  let limit: number | undefined;
  const restart = async (server: Server, fileSizeLimit?: number) => {
    await server.stop();
    limit = fileSizeLimit;
    return start(dir, { healthy: false, fileSizeLimit });
  };
  return {
    mode: `simulated by a file size limit (RLIMIT_FSIZE): ${why}`,
    dir,
    fill: (server) => restart(server, 64 * 1024),
    leave: (server, bytes) => restart(server, largest() + bytes),
    release: (server) => restart(server),
    startOptions: () => ({ healthy: false, fileSizeLimit: limit }),
    cleanup() {},
  };
}

// FULL_DISK=fsize runs the fallback on a machine that could mount, to check the fallback itself.
const disk: Disk =
  process.env.FULL_DISK === "fsize"
    ? fileSizeLimitDisk("forced by FULL_DISK=fsize")
    : canMount()
      ? tmpfsDisk()
      : fileSizeLimitDisk("this machine does not allow mounting a tmpfs");
console.log(`full disk cases: ${disk.mode}`);
afterAll(() => disk.cleanup());

describe(`a full disk (${disk.mode})`, () => {
  let server: Server;
  let cookie: string;
  let writes: Write[];
  let kept: string[];
  const acknowledged: string[] = [];

  beforeAll(async () => {
    server = await start(disk.dir);
    cookie = await signIn(server.url);
    writes = writeKinds(await firstProduct(server, cookie));
    const res = await upload(asAdmin(server, cookie), multipart(PNG, "kept.png"));
    expect(res.status).toBe(201);
    kept = uploadsIn(disk.dir);
    for (let i = 0; i < 20; i++) {
      const saved = await postJson(server.url, "/api/quiz/result", QUIZ);
      expect(saved.status).toBe(201);
      acknowledged.push(((await saved.json()) as { id: string }).id);
    }
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
  });

  describe("with no room left", () => {
    beforeAll(async () => {
      server = await disk.fill(server);
      await until("/healthz notices", async () => (await health(server.url)).status === 503);
    }, 30_000);

    test("/healthz answers 503 naming the full disk, not cached", async () => {
      const answer = await health(server.url);
      expect(answer).toMatchObject({ status: 503, cache: "no-store" });
      expect(answer.body.error).toMatch(/full|file size limit/);
    });

    test("every kind of write answers 507 with Retry-After, never 500 or 201", async () => {
      const answers: string[] = [];
      // Signing in with the password stores nothing: it is not refused (tests/adversarial/anonymous-writes.test.ts).
      for (const [name, send] of writes.filter(([name]) => name !== "a sign-in")) {
        const res = await send(asAdmin(server, cookie), server.url);
        const body = (await res.json()) as { error?: string };
        answers.push(`${name}: ${res.status} ${res.headers.get("retry-after")} ${body.error?.slice(0, 18)}`);
      }
      for (const answer of answers) expect(answer).toMatch(/: 507 \d+ Nothing was saved:/);
    }, 30_000);

    test("the refused uploads left no file, temporary or final", () => {
      expect(uploadsIn(disk.dir)).toEqual(kept);
    });

    test.each(["/", "/blog", "/api/blog/posts", `/uploads/`])(
      "a read of %s still answers without a 5xx",
      async (path) => {
        const target = path === "/uploads/" ? `/uploads/${kept[0]}` : path;
        expect((await fetch(server.url + target)).status).toBe(200);
      },
    );

    test("a restart on the full disk refuses with a clear message (exit 1) or serves with /healthz 503: never a crash", async () => {
      await server.stop();
      try {
        server = await start(disk.dir, disk.startOptions());
        expect((await health(server.url)).status).toBe(503);
        expect((await postJson(server.url, "/api/quiz/result", QUIZ)).status).toBe(507);
      } catch (error) {
        const message = (error as Error).message;
        expect(message).toContain("exited early with 1");
        expect(message).toMatch(/The disk holding it is full/);
        // A sentence for the operator, not a stack trace.
        expect(message).not.toMatch(/\n\s+at /);
      }
    }, 30_000);

    test("once there is room again, /healthz and writes recover", async () => {
      server = await disk.release(server);
      if (server.proc.exitCode !== null) server = await start(disk.dir);
      await until("/healthz recovers", async () => (await health(server.url)).status === 200);
      const saved = await postJson(server.url, "/api/quiz/result", QUIZ);
      expect(saved.status).toBe(201);
      acknowledged.push(((await saved.json()) as { id: string }).id);
    }, 30_000);
  });

  describe("with room for small writes but not for a large upload", () => {
    beforeAll(async () => {
      server = await disk.leave(server, 3 * MB);
      await until("/healthz answers 200", async () => (await health(server.url)).status === 200);
    }, 30_000);

    test("an 8 MB video with its Content-Length is refused up front: 507, nothing written", async () => {
      const res = await upload(asAdmin(server, cookie), multipart(video(8 * MB), "big.mp4"));
      expect(res.status).toBe(507);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(((await res.json()) as { error: string }).error).toMatch(/not enough|file size limit/);
      expect(uploadsIn(disk.dir)).toEqual(kept);
    });

    test("an 8 MB video sent chunked fails when the disk refuses a write: 507, the partial file removed", async () => {
      const res = await upload(asAdmin(server, cookie), chunked(multipart(video(8 * MB), "big.mp4")));
      expect(res.status).toBe(507);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(uploadsIn(disk.dir)).toEqual(kept);
      expect(server.proc.exitCode).toBeNull();
    });

    test("the room the partial file took is given back: /healthz 200 and a small image still uploads", async () => {
      expect((await health(server.url)).status).toBe(200);
      const res = await upload(asAdmin(server, cookie), multipart(OTHER_PNG, "small.png"));
      expect(res.status).toBe(201);
      const { url } = (await res.json()) as { url: string };
      expect((await fetch(server.url + url)).status).toBe(200);
      kept = uploadsIn(disk.dir);
      expect(kept).toHaveLength(2);
      expect(kept.every((name) => UPLOAD_NAME.test(name))).toBe(true);
    });

    test("a backup taken now holds the database and the completed uploads only", async () => {
      const file = join(scratchDir("faults-backup"), "after-full.tar");
      expect(command(disk.dir, "backup", file).code).toBe(0);
      expect(await archived(file)).toEqual(["app.db", "jwt-secret", ...kept.map((name) => `uploads/${name}`)].sort());
    });
  });

  describe("writes until the disk fills", () => {
    const answered = new Map<string, number>();

    beforeAll(async () => {
      server = await disk.leave(server, 1.15 * MB);
      await until("/healthz answers 200", async () => (await health(server.url)).status === 200);
    }, 30_000);

    test("admin writes in parallel batches: 201 until the disk is full, then 507, never a 500", async () => {
      const admin = asAdmin(server, cookie);
      const content = `<p>${"words that fill the disk ".repeat(7600)}</p>`;
      // Eight at once pass the check at the door together, so the last of them meet the full
      // disk inside SQLite itself (SQLITE_FULL, or EFBIG under a file size limit).
      let refused = false;
      for (let batch = 0; batch < 20 && !refused; batch++) {
        await Promise.all(
          Array.from({ length: 8 }, async (_, i) => {
            const slug = `filling-${batch}-${i}`;
            const res = await admin("/api/admin/blog/post", { method: "POST", json: postInput({ slug, content }) });
            answered.set(slug, res.status);
            if (res.status !== 201) refused = true;
          }),
        );
      }
      const statuses = [...new Set(answered.values())].sort();
      expect(statuses).toEqual([201, 507]);
      // How many of the refused posts got past the door and failed inside SQLite (for the record).
      const inside = server
        .output()
        .match(/request failed on the storage method=POST url=\S+\/api\/admin\/blog\/post/g);
      console.log(`full disk: ${inside?.length ?? 0} refused posts failed inside SQLite, the others at the door`);
    }, 60_000);

    test("a quiz result once the disk is full: 507 with Retry-After", async () => {
      server = await disk.fill(server);
      const res = await postJson(server.url, "/api/quiz/result", QUIZ);
      expect(res.status).toBe(507);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    }, 30_000);

    test("after a restart with room again, every write answered 201 is there and no refused one is", async () => {
      server = await disk.release(server);
      await server.stop();
      server = await start(disk.dir);
      for (const [slug, status] of answered) {
        const found = (await fetch(`${server.url}/api/blog/post/${slug}`)).status;
        expect(
          `${slug}: ${status === 201 ? "kept" : "refused"} ${found === 200 ? "present" : found === 404 ? "absent" : found}`,
        ).toBe(`${slug}: ${status === 201 ? "kept present" : "refused absent"}`);
      }
      for (const id of acknowledged) expect((await fetch(`${server.url}/api/quiz/result/${id}`)).status).toBe(200);
      expect((await health(server.url)).status).toBe(200);
    }, 30_000);
  });
});

// ---------------------------------------------------------------------------------------------

describe("uploads cut short", () => {
  let server: Server;
  let cookie: string;

  beforeAll(async () => {
    server = await start(join(scratchDir("faults"), "data"));
    cookie = await signIn(server.url);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
  });

  test("the client hangs up halfway (Content-Length declared): the temporary file is removed", async () => {
    const body = multipart(video(8 * MB), "v.mp4");
    const socket = await rawUpload(server, cookie, body, 3 * MB);
    await until("the upload is being written", () => uploadsIn(server.dir).some((n) => TEMP_NAME.test(n)));
    socket.destroy();
    await until("the temporary file is removed", () => uploadsIn(server.dir).length === 0);
    expect((await health(server.url)).status).toBe(200);
  }, 20_000);

  test("the client aborts a streamed upload: nothing is left", async () => {
    const controller = new AbortController();
    const bytes = multipart(video(8 * MB), "v.mp4");
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(stream) {
        if (sent >= 3 * MB) return controller.abort();
        stream.enqueue(bytes.subarray(sent, sent + 256 * 1024));
        sent += 256 * 1024;
      },
    });
    const sending = asAdmin(server, cookie)("/api/upload", {
      method: "POST",
      headers: { "content-type": MULTIPART },
      body,
      signal: controller.signal,
    });
    await expect(sending).rejects.toThrow();
    await until("nothing is left", () => uploadsIn(server.dir).length === 0);
  }, 20_000);

  test.each([
    ["the body ends inside the file", (b: Uint8Array) => b.subarray(0, b.length - TAIL.length - 1000)],
    ["the whole file arrives but not the closing boundary", (b: Uint8Array) => b.subarray(0, b.length - TAIL.length)],
  ])("%s: 400, nothing stored", async (_, cut) => {
    const res = await upload(asAdmin(server, cookie), chunked(cut(multipart(video(2 * MB), "v.mp4"))));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/ended before|interrupted/);
    expect(uploadsIn(server.dir)).toEqual([]);
  });

  test("kill -9 in the middle of an upload: the temporary file is never served nor backed up, and the next start removes it", async () => {
    const socket = await rawUpload(server, cookie, multipart(video(8 * MB), "v.mp4"), 4 * MB);
    await until("the upload is being written", () => {
      const temp = uploadsIn(server.dir).find((n) => TEMP_NAME.test(n));
      return temp !== undefined && statSync(join(server.dir, "uploads", temp)).size > 0;
    });
    const temp = uploadsIn(server.dir).find((n) => TEMP_NAME.test(n))!;
    expect((await fetch(`${server.url}/uploads/${temp}`)).status).toBe(404);
    server.proc.kill("SIGKILL");
    await server.proc.exited;
    running.delete(server);
    socket.destroy();
    // The crash left the partial file behind: exactly what must never be used.
    expect(uploadsIn(server.dir)).toEqual([temp]);
    const file = join(scratchDir("faults-backup"), "after-crash.tar");
    expect(command(server.dir, "backup", file).code).toBe(0);
    expect((await archived(file)).filter((name) => name.startsWith("uploads/"))).toEqual([]);
    server = await start(server.dir);
    expect(uploadsIn(server.dir)).toEqual([]);
    await until("the start reports the removal", () => server.output().includes("removed 1 unfinished upload"));
    expect((await fetch(`${server.url}/uploads/${temp}`)).status).toBe(404);
    // The session survived the crash; uploads work again.
    expect((await upload(asAdmin(server, cookie), multipart(PNG, "after.png"))).status).toBe(201);
  }, 30_000);

  test("an empty file under a server-made name (what a full disk left before) is neither served nor backed up", async () => {
    const empty = "EEEEEEEEEEEEEEEEEEEEEE.mp4";
    writeFileSync(join(server.dir, "uploads", empty), "");
    try {
      expect((await fetch(`${server.url}/uploads/${empty}`)).status).toBe(404);
      const file = join(scratchDir("faults-backup"), "with-empty.tar");
      expect(command(server.dir, "backup", file).code).toBe(0);
      const names = await archived(file);
      expect(names).not.toContain(`uploads/${empty}`);
      expect(names.filter((n) => n.startsWith("uploads/")).length).toBeGreaterThan(0);
    } finally {
      rmSync(join(server.dir, "uploads", empty));
    }
  }, 20_000);

  test("four parallel 40 MB uploads: the server's memory grows by a few MB per upload, not by the files", async () => {
    const status = () => readFileSync(`/proc/${server.proc.pid}/status`, "utf8");
    const mb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status())![1]) / 1024;
    const idle = { rss: mb("VmRSS"), peak: mb("VmHWM") };
    // Resets the peak to the present size (Linux 4.0+), so the peak read after is the uploads' own.
    let reset = true;
    try {
      writeFileSync(`/proc/${server.proc.pid}/clear_refs`, "5");
    } catch {
      reset = false;
    }
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        upload(asAdmin(server, cookie), chunked(multipart(video(40 * MB, i + 1), "big.mp4"), MB)).then((r) => r.status),
      ),
    );
    expect(answers).toEqual([201, 201, 201, 201]);
    const growth = mb("VmHWM") - (reset ? idle.rss : idle.peak);
    console.log(
      `four parallel 40 MB uploads: peak ${Math.round(growth)} MB above ${reset ? "the size before" : "the earlier peak"}`,
    );
    // Holding the files would take 160 MB at the very least (before streaming: about 800 MB);
    // streamed, each upload holds a chunk or two and the collector's garbage (about 10 MB).
    expect(growth).toBeLessThan(100);
  }, 60_000);
});
