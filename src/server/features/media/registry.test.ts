import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { adminApp } from "#tests/support/admin.ts";
import { testImage, uploadForm } from "#tests/support/images.ts";
import { withUploadName } from "./name-lock.ts";
import { reconcileUploads, registerExistingUploads, registerUpload } from "./registry.ts";
import { deleteMedia, listMedia } from "./service.ts";
import { media } from "./table.ts";

type Admin = Awaited<ReturnType<typeof adminApp>>;

/** A promise and the function that settles it: a step the test lets go of when it chooses. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

async function upload(t: Admin, bytes: Uint8Array) {
  const res = await t.asAdmin("/api/upload", { method: "POST", body: uploadForm(bytes, "a.jpg") });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { url: string; id: number };
  return { ...body, name: body.url.split("/").pop()! };
}

/** What receiveUpload hands over for a file already in the folder under `name`. */
const stored = (name: string) => ({
  url: `/uploads/${name}`,
  name,
  type: "image/jpeg",
  size: 1,
  originalName: null,
  sha256: "0".repeat(64),
});

const files = (t: Admin) => readdirSync(t.uploadsDir).sort();

describe("one upload's steps never interleave", () => {
  test("steps on one upload run in turn (its original and copies share the queue); others run alongside", async () => {
    const order: string[] = [];
    const first = gate();
    const a = withUploadName("/d", "AAAAAAAAAAAAAAAAAAAAAA.jpg", async () => {
      await first.opened;
      order.push("a1");
    });
    const b = withUploadName("/d", "AAAAAAAAAAAAAAAAAAAAAA-w480.webp", async () => {
      order.push("a2");
      throw new Error("a failed step");
    });
    const c = withUploadName("/d", "AAAAAAAAAAAAAAAAAAAAAA.jpg", async () => order.push("a3"));
    // Another upload, and the same name in another folder, do not wait.
    await withUploadName("/d", "BBBBBBBBBBBBBBBBBBBBBB.jpg", async () => order.push("b"));
    await withUploadName("/e", "AAAAAAAAAAAAAAAAAAAAAA.jpg", async () => order.push("other folder"));
    first.open();
    await a;
    await expect(b).rejects.toThrow("a failed step");
    await c;
    expect(order).toEqual(["b", "other folder", "a1", "a2", "a3"]);
  });

  test("a listing while an upload registers does not wait for it, never records it itself, and then lists it once", async () => {
    const t = await adminApp({ seed: false });
    const name = "Registering00000000000.jpg";
    writeFileSync(join(t.uploadsDir, name), await testImage(1200, 800));
    const order: string[] = [];
    const held = gate();
    // The upload holds its name from the rename on, as receiveUpload does.
    const registering = withUploadName(t.uploadsDir, name, async () => {
      await held.opened;
      const row = await registerUpload(t.db, t.uploadsDir, stored(name));
      order.push("registered");
      return row;
    });
    const during = await listMedia(t.db, t.uploadsDir);
    order.push("listed");
    held.open();
    const row = await registering;
    expect(order).toEqual(["listed", "registered"]);
    expect(during).toEqual([]);
    const after = await listMedia(t.db, t.uploadsDir);
    expect(after.map((i) => [i.id, i.size])).toEqual([[row.id, 1]]);
  });

  test("an upload whose row cannot be written leaves no file: it is never recorded later", async () => {
    const t = await adminApp({ seed: false });
    t.sqlite.run("CREATE TRIGGER refuse BEFORE INSERT ON media BEGIN SELECT RAISE(FAIL, 'no room for the row'); END");
    const name = "RowRefused000000000000.jpg";
    writeFileSync(join(t.uploadsDir, name), await testImage(1000, 500));
    const registering = withUploadName(t.uploadsDir, name, () => registerUpload(t.db, t.uploadsDir, stored(name)));
    await expect(registering).rejects.toThrow("no room for the row");
    expect(files(t)).toEqual([]);
  });

  test("a delete sent while copies are made waits for them: nothing is left of the upload", async () => {
    const t = await adminApp({ seed: false });
    const { id, name } = await upload(t, await testImage(2000, 1000));
    const copy = join(t.uploadsDir, `${name.slice(0, 22)}-w960.webp`);
    rmSync(copy);
    // The run remakes the missing copy (480, 960, then 1600 px); the delete comes once 960 is back.
    const remaking = registerExistingUploads(t.db, t.uploadsDir);
    while (!existsSync(copy)) await Bun.sleep(1);
    await deleteMedia(t.db, t.uploadsDir, id, true);
    expect(await remaking).toEqual({ recorded: 0, remade: 1 });
    expect(files(t)).toEqual([]);
    expect(await t.db.select().from(media)).toEqual([]);
  });

  test("two deletes at once: one deletes, the other is a 404; an upload and an immediate delete leave nothing", async () => {
    const t = await adminApp({ seed: false });
    const { id } = await upload(t, await testImage(1000, 500));
    const results = await Promise.allSettled([
      deleteMedia(t.db, t.uploadsDir, id, true),
      deleteMedia(t.db, t.uploadsDir, id, true),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({
      status: 404,
    });
    expect(files(t)).toEqual([]);
    expect(await listMedia(t.db, t.uploadsDir)).toEqual([]);
  });
});

describe("the start puts right what a kill left", () => {
  async function site() {
    const t = await adminApp({ seed: false });
    const up = await upload(t, await testImage(1700, 850));
    const id = up.name.slice(0, 22);
    const copies = [480, 960, 1600].map((w) => `${id}-w${w}.webp`);
    return { t, ...up, copies, aside: `.deleting-${up.name}` };
  }

  test("killed after the original was set aside, before the row went: the deletion is finished", async () => {
    const { t, name, aside } = await site();
    renameSync(join(t.uploadsDir, name), join(t.uploadsDir, aside));
    expect(await reconcileUploads(t.db, t.uploadsDir)).toEqual({ finished: 1, orphans: 0, missing: 0 });
    expect(files(t)).toEqual([]);
    expect(await t.db.select().from(media)).toEqual([]);
  });

  test("killed after the row went, before the files: the deletion is finished", async () => {
    const { t, id, name, aside } = await site();
    renameSync(join(t.uploadsDir, name), join(t.uploadsDir, aside));
    await t.db.delete(media).where(eq(media.id, id));
    expect(await reconcileUploads(t.db, t.uploadsDir)).toEqual({ finished: 1, orphans: 0, missing: 0 });
    expect(files(t)).toEqual([]);
  });

  test("killed after some copies went: the copies left, belonging to nothing, are removed", async () => {
    const { t, id, name, copies } = await site();
    rmSync(join(t.uploadsDir, name));
    await t.db.delete(media).where(eq(media.id, id));
    rmSync(join(t.uploadsDir, copies[0]!));
    expect(await reconcileUploads(t.db, t.uploadsDir)).toEqual({ finished: 0, orphans: 2, missing: 0 });
    expect(files(t)).toEqual([]);
  });

  test("a copy its row does not list goes; the copies of an original waiting to be recorded stay for it", async () => {
    const { t, name, copies } = await site();
    const unlisted = `${name.slice(0, 22)}-w300.webp`;
    writeFileSync(join(t.uploadsDir, unlisted), "a copy no row lists");
    writeFileSync(join(t.uploadsDir, "Unrecorded000000000000.jpg"), await testImage(1000, 500));
    writeFileSync(join(t.uploadsDir, "Unrecorded000000000000-w480.webp"), "made again when it is recorded");
    expect(await reconcileUploads(t.db, t.uploadsDir)).toEqual({ finished: 0, orphans: 1, missing: 0 });
    expect(files(t)).toEqual(
      [...copies, name, "Unrecorded000000000000.jpg", "Unrecorded000000000000-w480.webp"].sort(),
    );
  });

  test("a set-aside original put back by hand is kept; a row whose original went is kept and counted", async () => {
    const { t, name, aside, copies } = await site();
    writeFileSync(join(t.uploadsDir, aside), "the same file, set aside");
    expect(await reconcileUploads(t.db, t.uploadsDir)).toEqual({ finished: 0, orphans: 0, missing: 0 });
    expect(files(t)).toEqual([...copies, name].sort());

    rmSync(join(t.uploadsDir, name));
    expect(await reconcileUploads(t.db, t.uploadsDir)).toEqual({ finished: 0, orphans: 0, missing: 1 });
    const [item] = await listMedia(t.db, t.uploadsDir);
    expect(item).toMatchObject({ name, missing: true });
    // Its copies stay with it until the admin deletes the entry.
    expect(files(t)).toEqual(copies.sort());
    await deleteMedia(t.db, t.uploadsDir, item!.id, true);
    expect(files(t)).toEqual([]);
  });

  test("killed during a registration (original in place, a copy written, no row): recorded whole", async () => {
    const t = await adminApp({ seed: false });
    const name = "Interrupted00000000000.jpg";
    writeFileSync(join(t.uploadsDir, name), await testImage(2000, 1000));
    // A stale copy from the cut-short registration: made again, never trusted.
    writeFileSync(join(t.uploadsDir, "Interrupted00000000000-w480.webp"), "half a copy");
    expect(await registerExistingUploads(t.db, t.uploadsDir)).toEqual({ recorded: 1, remade: 0 });
    const [row] = await t.db.select().from(media);
    expect(row!.variants.map((v) => v.width)).toEqual([480, 960, 1600]);
    for (const v of row!.variants) expect((await Bun.file(join(t.uploadsDir, v.name)).bytes()).length).toBe(v.size);
    expect(existsSync(join(t.uploadsDir, name))).toBe(true);
  });
});
