// The media library's rows and the files in DATA_DIR/uploads stay in step, whatever the order of
// the admin's requests and wherever the process is killed: the compiled executable, as a real
// process, driven through the real admin API with requests in parallel (uploads while the library
// is listed while the new rows are deleted, twice at once), killed with SIGKILL at each point of
// a registration and of a deletion, and started on folders with planted orphans (copies without
// an original, originals without a row, rows without a file, an interrupted deletion). After
// every answer, and after every restart, each row has its original and its copies and each file
// its row; the start says what it put right, one log line per kind. Every name the server makes
// begins with a letter or a digit, so shell tools never read one as an option.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UPLOAD_NAME } from "#server/features/media/uploads.ts";
import { newFileId } from "#server/lib/ids.ts";
import type { MediaItem } from "#shared/features/media/contract.ts";
import { BINARY, ensureBuilt, type Running, startServer } from "#tests/support/binary.ts";
import { testImage, uploadForm } from "#tests/support/images.ts";
import { scratchDir } from "#tests/support/scratch.ts";

const PASSWORD = "durable-password-123";
const ORIGINAL = /^[A-Za-z0-9_-]{22}\.(png|jpg|gif|webp|mp4|webm|ogg)$/;
const COPY = /^[A-Za-z0-9_-]{22}-w\d+\.webp$/;

beforeAll(() => ensureBuilt(), 180_000);

// ---------------------------------------------------------------------------------------------
// A server process whose output is read as it comes, and the admin's requests to it.

interface Server extends Running {
  dir: string;
  uploads: string;
  output(): string;
  stop(): Promise<number>;
  kill(): Promise<void>;
}

const running = new Set<Server>();

afterAll(async () => {
  for (const server of running) {
    server.proc.kill("SIGKILL");
    await server.proc.exited;
  }
});

async function start(dir: string): Promise<Server> {
  const server = await startServer(dir, { ADMIN_PASSWORD: PASSWORD });
  let output = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += new TextDecoder().decode(chunk);
  };
  void drain(server.proc.stdout);
  void drain(server.proc.stderr);
  const handle: Server = {
    ...server,
    dir,
    uploads: join(dir, "uploads"),
    output: () => output,
    async stop() {
      running.delete(handle);
      if (server.proc.exitCode === null) server.proc.kill("SIGTERM");
      return server.proc.exited;
    },
    async kill() {
      running.delete(handle);
      server.proc.kill("SIGKILL");
      await server.proc.exited;
    },
  };
  running.add(handle);
  return handle;
}

interface Uploaded {
  url: string;
  id: number;
}

let uploadsMade = 0;

/**
 * The file with a few bytes of its own after its end (which images and videos ignore): the
 * library keeps the same bytes once, and these tests need every upload to be a new item.
 */
function distinct(bytes: Uint8Array): Uint8Array {
  const own = new Uint8Array(bytes.length + 4);
  own.set(bytes);
  new DataView(own.buffer).setUint32(bytes.length, ++uploadsMade);
  return own;
}

async function admin(server: Server) {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ username: "admin", password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const send = (path: string, init: RequestInit = {}) =>
    fetch(server.url + path, { ...init, headers: { ...init.headers, cookie, origin: server.url } });
  return {
    send,
    async upload(bytes: Uint8Array, name = "photo.jpg", type = "image/jpeg"): Promise<Uploaded> {
      const res = await send("/api/upload", { method: "POST", body: uploadForm(distinct(bytes), name, type) });
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
      return res.json();
    },
    async list(): Promise<MediaItem[]> {
      const res = await send("/api/admin/media");
      if (res.status !== 200) throw new Error(`list: ${res.status} ${await res.text()}`);
      return res.json();
    },
    async remove(id: number): Promise<number> {
      const res = await send(`/api/admin/media/${id}?force=1`, { method: "DELETE" });
      await res.arrayBuffer();
      return res.status;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// What is on disk: the rows as the database holds them, the files as the folder holds them.

interface Row {
  id: number;
  name: string;
  copies: string[];
}

function rows(dir: string): Row[] {
  const db = new Database(join(dir, "app.db"), { readonly: true });
  try {
    return db
      .query<{ id: number; name: string; variants: string }, []>("SELECT id, name, variants FROM media")
      .all()
      .map((r) => ({
        id: r.id,
        name: r.name,
        copies: (JSON.parse(r.variants) as { name: string }[]).map((v) => v.name),
      }));
  } finally {
    db.close();
  }
}

/**
 * Every way the rows and the files disagree: a row without its original or one of its copies, an
 * original without a row, a copy no row lists, anything else left in the folder. `missing` names
 * originals known to be gone (a row the library keeps and marks).
 */
function disagreements(dir: string, missing: string[] = []): string[] {
  const uploads = join(dir, "uploads");
  const files = new Set(existsSync(uploads) ? readdirSync(uploads) : []);
  const found: string[] = [];
  const names = new Set<string>();
  const listed = new Set<string>();
  for (const row of rows(dir)) {
    names.add(row.name);
    if (!files.has(row.name) && !missing.includes(row.name)) found.push(`row ${row.id} (${row.name}) has no file`);
    for (const copy of row.copies) {
      listed.add(copy);
      if (!files.has(copy)) found.push(`row ${row.id} lists the missing copy ${copy}`);
    }
  }
  for (const file of files) {
    if (ORIGINAL.test(file)) {
      if (!names.has(file)) found.push(`${file} has no row`);
    } else if (COPY.test(file)) {
      if (!listed.has(file)) found.push(`the copy ${file} belongs to no row`);
    } else found.push(`${file} was left behind`);
  }
  return found;
}

/** Polls `check` every millisecond or so until it holds; fails after `ms`. */
async function until(check: () => boolean, ms = 10_000, what = "the condition"): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await Bun.sleep(1);
  }
}

/** Polls an async read until `done` says yes; returns the last answer either way (the test then asserts it). */
async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await Bun.sleep(50);
    value = await read();
  }
  return value;
}

const safeName = (name: string) => /^[A-Za-z0-9]/.test(name);

let photo: Uint8Array;
let small: Uint8Array;
let quick: Uint8Array;
beforeAll(async () => {
  // Large enough that its three copies take a few hundred milliseconds to make.
  photo = await testImage(4000, 3000);
  small = await testImage(2000, 1000);
  // Two copies (480 and 960 px), made in a few tens of milliseconds.
  quick = await testImage(1000, 500);
});

// ---------------------------------------------------------------------------------------------

describe("requests in any order", () => {
  test("uploads while the library is listed while each new row is deleted (twice at once), in loops", async () => {
    const dir = scratchDir("media-interleave");
    const server = await start(dir);
    const api = await admin(server);
    const stray: string[] = [];
    // Two admins' tabs at once, each uploading, listing and deleting in a loop; each tab knows
    // its own uploads by their type.
    const loop = async (rounds: number, bytes: Uint8Array, type: string) => {
      const ext = type === "image/jpeg" ? ".jpg" : `.${type.split("/")[1]}`;
      for (let round = 0; round < rounds; round++) {
        const before = new Set((await api.list()).map((item) => item.id));
        let finished = false;
        const uploading = api.upload(bytes, `photo${ext}`, type).finally(() => {
          finished = true;
        });
        const deletes: Promise<number>[] = [];
        while (!finished && deletes.length === 0)
          for (const item of await api.list())
            if (!before.has(item.id) && item.url.endsWith(ext)) deletes.push(api.remove(item.id), api.remove(item.id));
        const uploaded = await uploading;
        // The row only showed after the answer: deleted right after it, twice at once.
        if (deletes.length === 0) deletes.push(api.remove(uploaded.id), api.remove(uploaded.id));
        const statuses = (await Promise.all(deletes)).sort();
        if (statuses.join() !== "200,404") stray.push(`round ${round}: deletes answered ${statuses.join(", ")}`);
        // Listed again at once: gone, and nothing of it is served.
        if ((await api.list()).some((item) => item.url === uploaded.url))
          stray.push(`round ${round}: ${uploaded.url} is listed after its delete`);
        if ((await fetch(server.url + uploaded.url)).status !== 404)
          stray.push(`round ${round}: ${uploaded.url} is served after its delete`);
      }
    };
    await Promise.all([loop(3, photo, "image/jpeg"), loop(3, await testImage(4000, 3000, "webp"), "image/webp")]);
    expect(stray).toEqual([]);
    expect(disagreements(dir)).toEqual([]);
    expect(rows(dir)).toEqual([]);
    expect(server.output()).not.toMatch(/error/i);
    await server.stop();
  }, 60_000);

  test("uploads kept beside deletes of others: the kept ones stay whole, the deleted ones leave nothing", async () => {
    const dir = scratchDir("media-mixed");
    const server = await start(dir);
    const api = await admin(server);
    const kept: Uploaded[] = [];
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const uploaded = await api.upload(i % 2 === 0 ? quick : small);
        const [items] = await Promise.all([api.list(), i % 3 === 0 ? null : api.remove(uploaded.id)]);
        if (i % 3 === 0) kept.push(uploaded);
        else statuses.push(200);
        expect(items.length).toBeGreaterThan(0);
      }),
    );
    const listed = await api.list();
    expect(listed.map((item) => item.url).sort()).toEqual(kept.map((u) => u.url).sort());
    for (const item of listed) {
      expect(item.missing).toBe(false);
      expect(item.variants.length).toBeGreaterThan(0);
      for (const url of [item.url, ...item.variants.map((v) => v.url)])
        expect([url, (await fetch(server.url + url)).status]).toEqual([url, 200]);
    }
    expect(disagreements(dir)).toEqual([]);
    await server.stop();
  }, 30_000);
});

// ---------------------------------------------------------------------------------------------

describe("kill -9 anywhere: the next start finds each upload whole or gone", () => {
  test("killed while a file arrives, after its rename, after its first copy, after its last copy", async () => {
    const dir = scratchDir("media-kill-register");
    const uploads = join(dir, "uploads");
    const newNames = (before: Set<string>) => readdirSync(uploads).filter((name) => !before.has(name));
    const points: [string, (names: string[]) => boolean][] = [
      ["after the rename, before any copy", (names) => names.some((n) => ORIGINAL.test(n))],
      ["after the first copy", (names) => names.some((n) => COPY.test(n))],
      ["after the last copy", (names) => names.some((n) => n.endsWith("-w1600.webp"))],
    ];
    for (const [point, reached] of points) {
      const server = await start(dir);
      const api = await admin(server);
      const before = new Set(existsSync(uploads) ? readdirSync(uploads) : []);
      const sent = [api.upload(photo).catch(() => null)];
      await until(() => existsSync(uploads) && reached(newNames(before)), 15_000, point);
      await server.kill();
      await Promise.all(sent);
      const again = await start(dir);
      // Files the kill left without a row are recorded by the start, in the background.
      const left = await settled(
        async () => disagreements(dir),
        (problems) => problems.length === 0,
      );
      expect([point, left]).toEqual([point, []]);
      await again.stop();
    }

    // While the body is still arriving: a stream the test holds open.
    const server = await start(dir);
    const boundary = "----held-open";
    let push: (bytes: Uint8Array) => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (bytes) => controller.enqueue(bytes);
      },
    });
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const cookie = (await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ username: "admin", password: PASSWORD }),
    }).then((res) => res.headers.getSetCookie()[0]!.split(";")[0]!)) as string;
    const sending = fetch(`${server.url}/api/upload`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    }).catch(() => null);
    push(new TextEncoder().encode(head));
    push(photo.subarray(0, 100_000));
    await until(() => readdirSync(uploads).some((n) => n.startsWith(".upload-")), 15_000, "the temporary file");
    await server.kill();
    await sending;
    const again = await start(dir);
    await (await admin(again)).list();
    expect(disagreements(dir)).toEqual([]);
    await again.stop();
  }, 90_000);

  test("killed while deletions run: each upload is whole (row, original, copies) or entirely gone", async () => {
    const dir = scratchDir("media-kill-delete");
    const uploads = join(dir, "uploads");
    const image = await testImage(1000, 500);
    for (let attempt = 0; attempt < 2; attempt++) {
      const server = await start(dir);
      const api = await admin(server);
      const made: Uploaded[] = [];
      for (let i = 0; i < 6; i++) made.push(await api.upload(image));
      const files = readdirSync(uploads).length;
      const deletes = made.map((u) => api.remove(u.id).catch(() => 0));
      // Killed as soon as the first file of a delete goes (a little later on each attempt).
      await until(() => readdirSync(uploads).length < files - attempt * 7, 15_000, "a deletion");
      await server.kill();
      await Promise.all(deletes);
      const again = await start(dir);
      const listed = await (await admin(again)).list();
      expect(disagreements(dir)).toEqual([]);
      expect(listed.every((item) => !item.missing)).toBe(true);
      // Whatever was not deleted is whole and served.
      for (const item of listed) expect((await fetch(again.url + item.url)).status).toBe(200);
      // Cleared for the next attempt.
      for (const item of listed) expect(await (await admin(again)).remove(item.id)).toBe(200);
      await again.stop();
    }
  }, 90_000);
});

// ---------------------------------------------------------------------------------------------

describe("the start reconciles the rows with the files and says so", () => {
  test("planted orphans, lost files, lost copies and an interrupted deletion are put right, one log line each", async () => {
    const dir = scratchDir("media-planted");
    const uploads = join(dir, "uploads");
    const first = await start(dir);
    const api = await admin(first);
    const [lost, thinned, interrupted, unrowed, kept] = [
      await api.upload(quick),
      await api.upload(quick),
      await api.upload(quick),
      await api.upload(quick),
      await api.upload(quick),
    ];
    await first.stop();
    const nameOf = (u: Uploaded) => u.url.split("/").pop()!;
    const id = (u: Uploaded) => nameOf(u).slice(0, 22);

    // A row whose original is gone (removed by hand, a folder restored without it).
    rmSync(join(uploads, nameOf(lost)));
    // A row whose smaller copy is gone.
    rmSync(join(uploads, `${id(thinned)}-w960.webp`));
    // A deletion killed after it set the original aside, before the row went.
    renameSync(join(uploads, nameOf(interrupted)), join(uploads, `.deleting-${nameOf(interrupted)}`));
    // An original whose row is gone, with its copies.
    const db = new Database(join(dir, "app.db"));
    db.run("PRAGMA wal_autocheckpoint = 0"); // only the server checkpoints (decision 059)
    db.run("DELETE FROM media WHERE id = ?", [unrowed.id]);
    db.close();
    // Copies whose original and row are gone.
    writeFileSync(join(uploads, "Orphan0000000000000000-w480.webp"), small);
    writeFileSync(join(uploads, "Orphan1111111111111111-w960.webp"), small);
    // A copy at a width the library never listed for an upload it knows.
    writeFileSync(join(uploads, `${id(kept)}-w300.webp`), small);
    // Files from an older release: a name beginning with "-" and one with "_" stay accepted.
    writeFileSync(join(uploads, "-OldName00000000000000.jpg"), quick);
    writeFileSync(join(uploads, "_OldName00000000000000.png"), await testImage(300, 200, "png"));

    const server = await start(dir);
    // Rows for files without one and missing copies are made in the background after the start.
    await settled(
      async () => server.output(),
      (log) => log.includes("had no row in the media library") && log.includes("remade the smaller copies"),
    );
    const listed = await (await admin(server)).list();
    const log = server.output();
    expect(log).toContain("finished 1 deletion of an upload that a stop interrupted");
    expect(log).toContain("removed 3 smaller copies that no upload in the library lists");
    expect(log).toContain("1 upload in the media library has lost its file");
    expect(log).toContain("recorded 3 uploads that had no row in the media library");
    expect(log).toContain("remade the smaller copies of 1 upload");
    expect(log).not.toMatch(/\berror\b/);

    expect(disagreements(dir, [nameOf(lost)])).toEqual([]);
    const byUrl = new Map(listed.map((item) => [item.url, item]));
    expect(byUrl.has(interrupted.url)).toBe(false);
    expect(byUrl.get(lost.url)).toMatchObject({ missing: true });
    expect(byUrl.get(kept.url)).toMatchObject({ missing: false });
    expect(byUrl.get(thinned.url)!.variants.map((v) => v.width)).toEqual([480, 960]);
    expect(byUrl.get(unrowed.url)).toMatchObject({ missing: false, width: 1000, height: 500 });
    for (const old of ["/uploads/-OldName00000000000000.jpg", "/uploads/_OldName00000000000000.png"]) {
      expect(byUrl.get(old)).toMatchObject({ missing: false });
      expect((await fetch(server.url + old)).status).toBe(200);
    }
    expect(existsSync(join(uploads, `${id(interrupted)}-w480.webp`))).toBe(false);
    expect((await fetch(server.url + lost.url)).status).toBe(404);

    // The lost file's entry is deleted like any other; its copies go with it.
    expect(await (await admin(server)).remove(byUrl.get(lost.url)!.id)).toBe(200);
    expect(disagreements(dir)).toEqual([]);
    expect(readdirSync(uploads).some((name) => name.startsWith(id(lost)))).toBe(false);

    // A backup holding the old names restores, and they are served from the restored site.
    const archive = join(scratchDir("media-backup"), "site.tar");
    const made = Bun.spawnSync([BINARY, "backup", archive], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dir },
    });
    expect(made.exitCode).toBe(0);
    await server.stop();
    const restoredDir = scratchDir("media-restored");
    const restored = Bun.spawnSync([BINARY, "restore", archive], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: restoredDir },
    });
    expect([restored.exitCode, restored.stderr.toString()]).toEqual([0, ""]);
    const second = await start(restoredDir);
    expect((await fetch(`${second.url}/uploads/-OldName00000000000000.jpg`)).status).toBe(200);
    expect(disagreements(restoredDir)).toEqual([]);
    // Nothing to put right on a consistent folder: no reconciling lines.
    expect(second.output()).not.toMatch(/smaller copies|lost its file|had no row|interrupted/);
    await second.stop();
  }, 60_000);

  test("deletes sent while the start still makes copies wait for them: nothing is left half-made", async () => {
    const dir = scratchDir("media-start-copies");
    const uploads = join(dir, "uploads");
    const first = await start(dir);
    const api = await admin(first);
    const made: Uploaded[] = [];
    for (let i = 0; i < 3; i++) made.push(await api.upload(small));
    await first.stop();
    // Every copy gone: the start remakes them, in the background, while the server answers.
    for (const name of readdirSync(uploads)) if (COPY.test(name)) rmSync(join(uploads, name));
    // And originals without a row, registered in the background too.
    for (let i = 0; i < 2; i++) writeFileSync(join(uploads, `Planted${i}${"0".repeat(14)}.jpg`), small);

    const server = await start(dir);
    const again = await admin(server);
    const statuses = await Promise.all(made.map((u) => again.remove(u.id)));
    expect(statuses).toEqual([200, 200, 200]);
    // The planted originals are recorded by the start's background run: listed once it is done.
    const listed = await settled(
      () => again.list(),
      (items) => items.length >= 2,
    );
    expect(listed.map((item) => item.name).sort()).toEqual([0, 1].map((i) => `Planted${i}${"0".repeat(14)}.jpg`));
    expect(await Promise.all(listed.map((item) => again.remove(item.id)))).toEqual([200, 200]);
    expect(disagreements(dir)).toEqual([]);
    expect(readdirSync(uploads)).toEqual([]);
    await server.stop();
  }, 60_000);
  test("a backup taken while uploads are deleted succeeds; its restore starts and says what is missing", async () => {
    const dir = scratchDir("media-backup-race");
    const server = await start(dir);
    const api = await admin(server);
    // Videos: nothing to decode, and large enough that the backup is still copying while they go.
    const clip = new Uint8Array(4 * 1024 * 1024);
    clip.set(await Bun.file(join(import.meta.dir, "..", "..", "public", "seed", "offers", "first-stream.mp4")).bytes());
    const made = await Promise.all(Array.from({ length: 10 }, () => api.upload(clip, "clip.mp4", "video/mp4")));
    const archive = join(scratchDir("media-backup-race-out"), "site.tar");
    const backingUp = Bun.spawn([BINARY, "backup", archive], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dir },
      stdout: "pipe",
      stderr: "pipe",
    });
    // Deleted once the backup has begun reading the folder (its snapshot is written first).
    await until(() => readdirSync(join(archive, "..")).length > 0, 10_000, "the backup's start");
    expect(await Promise.all(made.map((u) => api.remove(u.id)))).toEqual(made.map(() => 200));
    const code = await backingUp.exited;
    expect([code, await new Response(backingUp.stderr).text()]).toEqual([0, ""]);
    await server.stop();

    const restoredDir = scratchDir("media-backup-race-restored");
    const restored = Bun.spawnSync([BINARY, "restore", archive], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: restoredDir },
    });
    expect(restored.exitCode).toBe(0);
    const second = await start(restoredDir);
    const listed = await (await admin(second)).list();
    // Whatever the backup caught: each entry is whole, or marked missing and counted at start.
    const missing = listed.filter((item) => item.missing).map((item) => item.name);
    expect(disagreements(restoredDir, missing)).toEqual([]);
    if (missing.length > 0) expect(second.output()).toContain(`${missing.length} upload`);
    for (const item of listed.filter((i) => !i.missing)) expect((await fetch(second.url + item.url)).status).toBe(200);
    await second.stop();
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------

describe("names the server makes", () => {
  test("10,000 generated ids: none begins with '-' or '.', each is 22 URL-safe characters", () => {
    const ids = Array.from({ length: 10_000 }, () => newFileId());
    expect(ids.filter((id) => !safeName(id))).toEqual([]);
    expect(ids.every((id) => /^[A-Za-z0-9_-]{22}$/.test(id) && UPLOAD_NAME.test(`${id}.jpg`))).toBe(true);
    expect(new Set(ids).size).toBe(10_000);
    // Still random in every other place: each of the 64 characters shows up after the first.
    expect(new Set(ids.flatMap((id) => [...id.slice(1, 21)])).size).toBe(64);
  });

  test("every upload and copy the executable names is safe for `rm *`, `ls *` and `tar cf x *`", async () => {
    const dir = scratchDir("media-names");
    const server = await start(dir);
    const api = await admin(server);
    const png = await testImage(8, 8, "png");
    const made: Uploaded[] = [];
    // About 1 in 64 names began with "-" before: 200 uploads found one with a chance of 96%.
    for (let batch = 0; batch < 25; batch++)
      made.push(...(await Promise.all(Array.from({ length: 8 }, () => api.upload(png, "x.png", "image/png")))));
    await api.upload(quick);
    await server.stop();
    const names = readdirSync(join(dir, "uploads"));
    expect(names).toHaveLength(200 + 3);
    expect(names.filter((name) => !safeName(name))).toEqual([]);
    expect(made.map((u) => u.url.split("/").pop()!).filter((name) => !safeName(name))).toEqual([]);

    // The shell's glob hands every name to the tool as it is: none is read as an option.
    const copy = scratchDir("media-shell");
    cpSync(join(dir, "uploads"), copy, { recursive: true });
    const sh = (script: string) => Bun.spawnSync(["sh", "-c", script], { cwd: copy });
    const listing = sh("ls -1 *");
    expect([listing.exitCode, listing.stderr.toString()]).toEqual([0, ""]);
    expect(listing.stdout.toString().trim().split("\n").sort()).toEqual(names.sort());
    expect(sh("tar cf ../media-names.tar *").exitCode).toBe(0);
    const removed = sh("rm *");
    expect([removed.exitCode, removed.stderr.toString()]).toEqual([0, ""]);
    expect(readdirSync(copy)).toEqual([]);
  }, 60_000);
});
