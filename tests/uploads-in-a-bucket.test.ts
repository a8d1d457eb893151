// Uploads kept in an S3-compatible bucket (S3_BUCKET): the executable on SQLite with a local
// S3 server (tests/support/s3.ts). An upload is in the bucket before it is answered, is served
// from /uploads/<name> with byte ranges even once the instance's own folder has lost it, and a
// deletion takes it out of the bucket; a backup is copied there too. tests/postgres-site.pg.test.ts has three instances on one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { MediaItem } from "#shared/features/media/contract.ts";
import { ensureBuilt, type Running, SERVER_ADMIN_PASSWORD, startServer, stopServer } from "./support/binary.ts";
import { testImage, uploadForm } from "./support/images.ts";
import { startBucket, type TestBucket } from "./support/s3.ts";
import { scratchDir } from "./support/scratch.ts";

let bucket: TestBucket;
let site: Running;
let dir: string;
let cookie: string;

beforeAll(async () => {
  ensureBuilt();
  bucket = await startBucket();
  dir = scratchDir("bucket-site");
  site = await startServer(dir, bucket.env);
  cookie = await signIn(site);
});

/** The admin's session cookie on `server`. */
async function signIn(server: Running): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ username: "admin", password: SERVER_ADMIN_PASSWORD }),
  });
  return res.headers.getSetCookie()[0]!.split(";")[0]!;
}

afterAll(async () => {
  await stopServer(site);
  await bucket.close();
});

const send = (path: string, init: RequestInit = {}) =>
  fetch(`${site.url}${path}`, { ...init, headers: { cookie, origin: site.url, ...init.headers } });
const inBucket = (name: string) => bucket.client.exists(`${bucket.prefix}${name}`);

describe("uploads kept in a bucket", () => {
  test("an image and its smaller copies are in the bucket once the upload is answered", async () => {
    const res = await send("/api/upload", { method: "POST", body: uploadForm(await testImage(1400, 900), "a.jpg") });
    expect(res.status).toBe(201);
    const [item] = (await (await send("/api/admin/media")).json()) as MediaItem[];
    expect(item?.missing).toBe(false);
    expect(item!.variants.length).toBeGreaterThan(0);
    for (const name of [item!.name, ...item!.variants.map((v) => v.url.split("/").pop()!)])
      expect(await inBucket(name)).toBe(true);
  });

  test("a file this instance's folder lost is fetched from the bucket and served whole and by ranges", async () => {
    const res = await send("/api/upload", { method: "POST", body: uploadForm(await testImage(300, 200), "b.jpg") });
    const { url } = (await res.json()) as { url: string };
    const name = url.split("/").pop()!;
    const whole = new Uint8Array(await (await fetch(`${site.url}${url}`)).arrayBuffer());
    rmSync(join(dir, "uploads", name));
    const again = await fetch(`${site.url}${url}`);
    expect(again.status).toBe(200);
    expect(again.headers.get("cache-control")).toContain("immutable");
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(whole);
    const part = await fetch(`${site.url}${url}`, { headers: { range: "bytes=10-19" } });
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(whole.slice(10, 20));
    // Kept in the folder again; no temporary file left behind.
    expect(readdirSync(join(dir, "uploads")).filter((n) => n.startsWith("."))).toEqual([]);
  });

  test("a deleted upload leaves the bucket and is served no more; an unknown name is a 404, never fetched", async () => {
    const res = await send("/api/upload", { method: "POST", body: uploadForm(await testImage(200, 120), "c.jpg") });
    const { url } = (await res.json()) as { url: string };
    const name = url.split("/").pop()!;
    const item = ((await (await send("/api/admin/media")).json()) as MediaItem[]).find((i) => i.name === name)!;
    expect((await send(`/api/admin/media/${item.id}?force=1`, { method: "DELETE" })).status).toBe(200);
    expect(await inBucket(name)).toBe(false);
    expect((await fetch(`${site.url}${url}`)).status).toBe(404);
    expect((await fetch(`${site.url}/uploads/..%2F..%2Fsecret`)).status).toBe(404);
  });
});

describe("backups off the machine", () => {
  test('"Back up now" on a SQLite site with a bucket puts the backup in it too, whole', async () => {
    const started = await send("/api/admin/backups/run", { method: "POST" });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: number };
    let run: { id: number; status: string; file: string | null; size: number | null } | undefined;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const { runs } = (await (await send("/api/admin/backups")).json()) as { runs: NonNullable<typeof run>[] };
      run = runs.find((r) => r.id === id);
      if (run && run.status !== "running") break;
      await Bun.sleep(100);
    }
    expect(run).toMatchObject({ status: "ok" });
    const kept = await bucket.client.stat(`backups/${run!.file}`);
    expect(kept.size).toBe(run!.size!);
    const local = await (await send(`/api/admin/backups/files/${run!.file}`)).arrayBuffer();
    expect(new Uint8Array(await bucket.client.file(`backups/${run!.file}`).arrayBuffer())).toEqual(
      new Uint8Array(local),
    );
  });
});

describe("a bucket that cannot be reached", () => {
  test("an upload is refused with 503 and nothing is kept; the site goes on serving", async () => {
    const down = await startBucket("cam-guide-down");
    const downDir = scratchDir("bucket-down");
    const other = await startServer(downDir, down.env);
    try {
      await down.close();
      const session = await signIn(other);
      const res = await fetch(`${other.url}/api/upload`, {
        method: "POST",
        headers: { cookie: session, origin: other.url },
        body: uploadForm(await testImage(200, 120), "d.jpg"),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBeTruthy();
      expect(((await res.json()) as { error: string }).error).toContain("could not be reached");
      const listed = await fetch(`${other.url}/api/admin/media`, { headers: { cookie: session } });
      expect(await listed.json()).toEqual([]);
      expect(readdirSync(join(downDir, "uploads")).filter((n) => !n.startsWith("."))).toEqual([]);
      expect((await fetch(`${other.url}/`)).status).toBe(200);
    } finally {
      await stopServer(other);
    }
  });

  test("a deletion while it is out of reach is answered done and served no more; killed before the bucket is back, the next start empties it", async () => {
    const flaky = await startBucket("cam-guide-flaky");
    const flakyDir = scratchDir("bucket-flaky");
    let server = await startServer(flakyDir, flaky.env);
    try {
      const session = await signIn(server);
      const as = (path: string, init: RequestInit = {}) =>
        fetch(`${server.url}${path}`, { ...init, headers: { cookie: session, origin: server.url, ...init.headers } });
      const res = await as("/api/upload", { method: "POST", body: uploadForm(await testImage(1100, 700), "e.jpg") });
      expect(res.status).toBe(201);
      const [item] = (await (await as("/api/admin/media")).json()) as MediaItem[];
      const names = [item!.name, ...item!.variants.map((v) => v.url.split("/").pop()!)];
      await flaky.close();
      expect((await as(`/api/admin/media/${item!.id}?force=1`, { method: "DELETE" })).status).toBe(200);
      for (const name of names) expect((await fetch(`${server.url}/uploads/${name}`)).status).toBe(404);
      // Killed before its minute's retry: nothing in the process remembers what is left.
      server.proc.kill("SIGKILL");
      await server.proc.exited;
      await flaky.resume();
      for (const name of names) expect(await flaky.client.exists(`${flaky.prefix}${name}`)).toBe(true);
      server = await startServer(flakyDir, flaky.env);
      const deadline = Date.now() + 10_000;
      let left = names;
      while (left.length > 0 && Date.now() < deadline) {
        const kept = await Promise.all(left.map((name) => flaky.client.exists(`${flaky.prefix}${name}`)));
        left = left.filter((_, i) => kept[i]);
        if (left.length > 0) await Bun.sleep(50);
      }
      expect(left).toEqual([]);
    } finally {
      await stopServer(server);
      await flaky.close();
    }
  });
});
