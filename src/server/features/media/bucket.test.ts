// Deleting uploads kept in a bucket (S3_BUCKET), in-process on SQLite with a local S3-compatible
// server (tests/support/s3.ts): a deletion is whole the moment it is answered, even when the
// bucket fails part of the way, and what the bucket still holds is never served and is swept.
// tests/uploads-in-a-bucket.test.ts runs the executable; tests/postgres-site.pg.test.ts three.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MediaItem } from "#shared/features/media/contract.ts";
import { adminApp } from "#tests/support/admin.ts";
import { testImage, uploadForm } from "#tests/support/images.ts";
import { startBucket, type TestBucket } from "#tests/support/s3.ts";
import { finishBucketDeletions, logBucketDeletionsTo } from "./registry.ts";
import { uploadDeletions } from "./table.ts";

let bucket: TestBucket;
beforeAll(async () => {
  bucket = await startBucket("cam-guide-deletions");
});
afterAll(() => bucket.close());

type Admin = Awaited<ReturnType<typeof adminApp>>;
const inBucket = (name: string) => bucket.client.exists(`${bucket.prefix}${name}`);

/** An uploaded image: its library item and the names of all its files (the original and its copies). */
async function uploaded(t: Admin, width: number): Promise<{ item: MediaItem; names: string[] }> {
  const res = await t.asAdmin("/api/upload", {
    method: "POST",
    body: uploadForm(await testImage(width, 300), "photo.jpg"),
  });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: number };
  const item = ((await (await t.asAdmin("/api/admin/media")).json()) as MediaItem[]).find((i) => i.id === id)!;
  const names = [item.name, ...item.variants.map((v) => v.url.split("/").pop()!)];
  expect(names.length).toBeGreaterThan(1);
  for (const name of names) expect(await inBucket(name)).toBe(true);
  return { item, names };
}

describe("deleting an upload kept in a bucket", () => {
  test("with the bucket out of reach, the deletion is answered done: no file is served, and what the bucket kept leaves it once it is back", async () => {
    const t = await adminApp({ uploadBucket: bucket.config });
    logBucketDeletionsTo(t.logger);
    const { item, names } = await uploaded(t, 1200);
    await bucket.close();
    try {
      const res = await t.asAdmin(`/api/admin/media/${item.id}?force=1`, { method: "DELETE" });
      expect(res.status).toBe(200);
      expect(await (await t.asAdmin("/api/admin/media")).json()).toEqual([]);
      // Said in the log: a bucket that never lets files go (a key without the right) is seen.
      expect(t.logger.lines.join("\n")).toContain("the bucket did not remove");
    } finally {
      await bucket.resume();
    }
    // The bucket kept every file, and none is served: not fetched into the folder again.
    for (const name of names) {
      expect(await inBucket(name)).toBe(true);
      expect((await t.request(`/uploads/${name}`)).status).toBe(404);
    }
    // Written down, they are removed on the next try (a minute later, or at the next start).
    const pending = await t.db.select({ name: uploadDeletions.name }).from(uploadDeletions);
    expect(pending.map((r) => r.name).sort()).toEqual(expect.arrayContaining([...names].sort()));
    expect(await finishBucketDeletions(t.db, t.uploadsDir)).toBe(pending.length);
    for (const name of names) expect(await inBucket(name)).toBe(false);
    expect(await t.db.select().from(uploadDeletions)).toEqual([]);
  });

  test("a deletion takes every file out of the bucket before it is answered; the upload beside it stays whole", async () => {
    const t = await adminApp({ uploadBucket: bucket.config });
    const kept = await uploaded(t, 900);
    const gone = await uploaded(t, 1000);
    expect((await t.asAdmin(`/api/admin/media/${gone.item.id}?force=1`, { method: "DELETE" })).status).toBe(200);
    for (const name of gone.names) expect(await inBucket(name)).toBe(false);
    for (const name of kept.names) {
      expect(await inBucket(name)).toBe(true);
      expect((await t.request(`/uploads/${name}`)).status).toBe(200);
    }
    // Nothing is left written down, and nothing of the upload beside it.
    expect(await t.db.select().from(uploadDeletions)).toEqual([]);
    expect(await finishBucketDeletions(t.db, t.uploadsDir)).toBe(0);
    for (const name of kept.names) expect(await inBucket(name)).toBe(true);
  });

  test("a file in this instance's folder or in the bucket that the library does not list is never served", async () => {
    const t = await adminApp({ uploadBucket: bucket.config });
    const { names } = await uploaded(t, 800);
    const image = await testImage(100, 100);
    // As a fetch that finished after another instance deleted its upload would leave it.
    const stale = "AAAAAAAAAAAAAAAAAAAAAA.jpg";
    writeFileSync(join(t.uploadsDir, stale), image);
    expect((await t.request(`/uploads/${stale}`)).status).toBe(404);
    // In the bucket only, with no row: not fetched.
    const orphan = "BBBBBBBBBBBBBBBBBBBBBB.jpg";
    await bucket.client.write(`${bucket.prefix}${orphan}`, image);
    expect((await t.request(`/uploads/${orphan}`)).status).toBe(404);
    // A copy's name of a listed upload that its row does not list: not served either.
    const unlistedCopy = `${names[0]!.split(".")[0]}-w77.webp`;
    writeFileSync(join(t.uploadsDir, unlistedCopy), image);
    expect((await t.request(`/uploads/${unlistedCopy}`)).status).toBe(404);
    // The listed files are.
    for (const name of names) expect((await t.request(`/uploads/${name}`)).status).toBe(200);
  });
});
