import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MediaItem } from "#shared/features/media/contract.ts";
import { adminApp } from "#tests/support/admin.ts";
import { createOffer, createPost, createProduct, createSettings, createSitePage } from "#tests/support/factories.ts";
import { testImage, uploadForm } from "#tests/support/images.ts";
import { registerExistingUploads } from "./registry.ts";
import { isFinishedUpload } from "./uploads.ts";

type Admin = Awaited<ReturnType<typeof adminApp>>;

async function upload(t: Admin, bytes: Uint8Array, name = "photo.jpg", type = "image/jpeg") {
  const res = await t.asAdmin("/api/upload", { method: "POST", body: uploadForm(bytes, name, type) });
  return {
    status: res.status,
    body: (await res.json()) as {
      url: string;
      id: number;
      width: number;
      height: number;
      existing?: boolean;
      error?: string;
    },
  };
}

async function library(t: Admin): Promise<MediaItem[]> {
  const res = await t.asAdmin("/api/admin/media");
  expect(res.status).toBe(200);
  return res.json();
}

/** A PNG whose header claims `width` × `height` pixels, with no pixel data to speak of. */
function claimedPng(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(17);
  const view = new DataView(ihdr.buffer);
  ihdr.set(new TextEncoder().encode("IHDR"));
  view.setUint32(4, width);
  view.setUint32(8, height);
  ihdr.set([8, 2, 0, 0, 0], 12);
  const chunk = new Uint8Array(4 + 17 + 4);
  const chunkView = new DataView(chunk.buffer);
  chunkView.setUint32(0, 13);
  chunk.set(ihdr, 4);
  chunkView.setUint32(21, Bun.hash.crc32(ihdr));
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return new Uint8Array([...signature, ...chunk, ...new Uint8Array(64)]);
}

describe("uploads are recorded in the media library", () => {
  test("a 4000 px photo gets its size and WebP copies at 480, 960 and 1600 px, served and backed up", async () => {
    const t = await adminApp({ seed: false });
    const { status, body } = await upload(t, await testImage(4000, 3000));
    expect(status).toBe(201);
    expect(body).toMatchObject({ width: 4000, height: 3000 });
    const [item] = await library(t);
    expect(item).toMatchObject({
      id: body.id,
      url: body.url,
      kind: "image",
      mime: "image/jpeg",
      width: 4000,
      height: 3000,
    });
    expect(item!.variants.map((v) => [v.width, v.height])).toEqual([
      [480, 360],
      [960, 720],
      [1600, 1200],
    ]);
    expect(item!.thumbUrl).toBe(item!.variants[0]!.url);
    for (const variant of item!.variants) {
      const name = variant.url.split("/").pop()!;
      // Served like the upload, and a finished upload for the backups.
      expect(isFinishedUpload(t.uploadsDir, name)).toBe(true);
      const served = await t.request(variant.url);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/webp");
      const bytes = new Uint8Array(await served.arrayBuffer());
      expect(bytes.length).toBe(variant.size);
      const meta = await new Bun.Image(bytes).metadata();
      expect(meta).toMatchObject({ format: "webp", width: variant.width, height: variant.height });
    }
    expect(readdirSync(t.uploadsDir)).toHaveLength(4);
  });

  test("a copy is never wider than the original: a 1000 px image gets 480 and 960 only; a small one none", async () => {
    const t = await adminApp({ seed: false });
    await upload(t, await testImage(1000, 1500, "png"), "tall.png", "image/png");
    await upload(t, await testImage(300, 200, "png"), "small.png", "image/png");
    const [small, tall] = await library(t);
    expect(tall!.variants.map((v) => [v.width, v.height])).toEqual([
      [480, 720],
      [960, 1440],
    ]);
    expect(small).toMatchObject({ width: 300, height: 200, variants: [] });
    expect(small!.thumbUrl).toBe(small!.url);
  });

  test("a damaged image is a 422 and an image of absurd size a 413; nothing is stored or recorded", async () => {
    const t = await adminApp({ seed: false });
    const good = await testImage(200, 200, "png");
    // The PNG's signature and header, then garbage where the pixels should be.
    const damaged = new Uint8Array([...good.subarray(0, 40), ...new Uint8Array(500).fill(7)]);
    const broken = await upload(t, damaged, "broken.png", "image/png");
    expect(broken.status).toBe(422);
    expect(broken.body.error).toContain("could not be read");
    const huge = await upload(t, claimedPng(20_000, 20_000), "huge.png", "image/png");
    expect(huge.status).toBe(413);
    expect(huge.body.error).toContain("megapixels");
    expect(readdirSync(t.uploadsDir)).toEqual([]);
    expect(await library(t)).toEqual([]);
  });

  test("a video is listed without a size or thumbnail", async () => {
    const t = await adminApp({ seed: false });
    const mp4 = await Bun.file(join(import.meta.dir, "../../../../public/seed/offers/first-stream.mp4")).bytes();
    expect((await upload(t, mp4, "clip.mp4", "video/mp4")).status).toBe(201);
    const [item] = await library(t);
    expect(item).toMatchObject({ kind: "video", mime: "video/mp4", width: null, thumbUrl: null, variants: [] });
  });

  test("files uploaded before the library existed are recorded by the start's run, not by listing", async () => {
    const t = await adminApp({ seed: false });
    writeFileSync(join(t.uploadsDir, "AAAAAAAAAAAAAAAAAAAAAA.jpg"), await testImage(1200, 800));
    // Listing never makes copies (it would wait on every image being uploaded at the time).
    expect(await library(t)).toEqual([]);
    expect(await registerExistingUploads(t.db, t.uploadsDir)).toMatchObject({ recorded: 1 });
    const [item] = await library(t);
    expect(item).toMatchObject({ name: "AAAAAAAAAAAAAAAAAAAAAA.jpg", width: 1200, height: 800 });
    expect(item!.variants.map((v) => v.width)).toEqual([480, 960]);
    // Listed again: recorded once.
    expect(await library(t)).toHaveLength(1);
  });
});

describe("the library keeps each file once, under the name it came with", () => {
  test("the sender's file name is shown and searched; the same bytes again are the existing item, stored once", async () => {
    const t = await adminApp({ seed: false });
    const bytes = await testImage(600, 400);
    const first = await upload(t, bytes, "webcam.jpg");
    expect(first.status).toBe(201);
    const again = await upload(t, bytes, "webcam copy.jpg");
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, url: first.body.url, existing: true });
    const other = await upload(t, await testImage(640, 400), "\u0007ring\tlight.jpg");
    expect(other.status).toBe(201);
    // A direction override would show "evil\u202Egnp.exe" as "evilexe.png": invisible characters go.
    const reversed = await upload(t, await testImage(660, 400), "evil\u202Egnp.exe\u200B");
    expect(reversed.status).toBe(201);
    const items = await library(t);
    expect(items.map((i) => i.originalName).sort()).toEqual(["evilgnp.exe", "ringlight.jpg", "webcam.jpg"]);
    // One original and its copies per item: nothing of the second webcam.jpg was kept.
    const originals = readdirSync(t.uploadsDir).filter((f) => /^[A-Za-z0-9_-]{22}\.[a-z0-9]+$/.test(f));
    expect(originals).toHaveLength(3);
  });

  test("an item whose file went is no copy to reuse: the same bytes are stored again", async () => {
    const t = await adminApp({ seed: false });
    const bytes = await testImage(600, 400);
    const first = await upload(t, bytes, "a.jpg");
    rmSync(join(t.uploadsDir, first.body.url.split("/").pop()!));
    const again = await upload(t, bytes, "a.jpg");
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
  });
});

describe("where an upload is used, and deleting it", () => {
  test("usage is found in a post's content and cover, an offer, a product and a page", async () => {
    const t = await adminApp({ seed: false });
    const a = (await upload(t, await testImage(600, 400))).body;
    // Other bytes: the same ones would be the same item.
    const b = (await upload(t, await testImage(640, 400))).body;
    const post = await createPost(t.db, {
      title: "Lighting",
      content: `<p><img src="${a.url}" alt=""></p>`,
      coverImage: b.url,
    });
    const offer = await createOffer(t.db, { title: "Ring light", imageUrl: a.url });
    await createProduct(t.db, { name: "Webcam", imageUrl: b.url });
    await createSitePage(t.db, { slug: "about", title: "About", body: `<img src="${a.url}">` });
    const items = await library(t);
    const usage = (id: number) => items.find((i) => i.id === id)!.usage;
    expect(usage(a.id)).toEqual([
      { kind: "post", title: "Lighting", field: "content", href: `/admin/posts/${post.id}` },
      { kind: "offer", title: "Ring light", field: "image", href: `/admin/offers/${offer.id}` },
      { kind: "page", title: "About", field: "body", href: "/admin/pages/about" },
    ]);
    expect(usage(b.id)).toEqual([
      { kind: "post", title: "Lighting", field: "cover", href: `/admin/posts/${post.id}` },
      { kind: "product", title: "Webcam", field: "image", href: "/admin/products" },
    ]);
  });

  test("an unused upload is deleted with its copies and its row", async () => {
    const t = await adminApp({ seed: false });
    await createSettings(t.db);
    const { body } = await upload(t, await testImage(2000, 1000));
    expect(readdirSync(t.uploadsDir)).toHaveLength(4);
    const res = await t.asAdmin(`/api/admin/media/${body.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(readdirSync(t.uploadsDir)).toEqual([]);
    expect(await library(t)).toEqual([]);
    expect((await t.request(body.url)).status).toBe(404);
    expect((await t.asAdmin(`/api/admin/media/${body.id}`, { method: "DELETE" })).status).toBe(404);
  });

  test("a used upload is refused with 409 and where it is used; confirmed, it is deleted", async () => {
    const t = await adminApp({ seed: false });
    const { body } = await upload(t, await testImage(1000, 500));
    await createOffer(t.db, { title: "Ring light", imageUrl: body.url });
    const refused = await t.asAdmin(`/api/admin/media/${body.id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    const answer = await refused.json();
    expect(answer.error).toContain("“Ring light”");
    expect(answer.details).toEqual([expect.objectContaining({ kind: "offer", title: "Ring light", field: "image" })]);
    expect(readdirSync(t.uploadsDir)).toHaveLength(3);
    expect(await library(t)).toHaveLength(1);
    const confirmed = await t.asAdmin(`/api/admin/media/${body.id}?force=1`, { method: "DELETE" });
    expect(confirmed.status).toBe(200);
    expect(readdirSync(t.uploadsDir)).toEqual([]);
    expect(existsSync(join(t.uploadsDir, body.url.split("/").pop()!))).toBe(false);
  });

  test("another spelling of the address (percent escapes, ./ and ../ segments) is still found as a use", async () => {
    const t = await adminApp({ seed: false });
    // The name's first character as a percent escape, then dot segments.
    const escaped = (url: string) => `/uploads/%${url.charCodeAt(9).toString(16)}${url.slice(10)}`;
    const spellings = [
      escaped,
      (url: string) => url.replace("/uploads/", "/uploads/./"),
      (url: string) => url.replace("/uploads/", "/uploads/../uploads/"),
    ];
    for (const [index, spell] of spellings.entries()) {
      const { body } = await upload(t, await testImage(600, 300));
      const address = spell(body.url);
      expect(address).not.toBe(body.url);
      // The browser reaches the same file by this spelling.
      expect(new URL(decodeURIComponent(address), "http://x").pathname).toBe(body.url);
      await createPost(t.db, {
        title: `Spelled ${index}`,
        slug: `spelled-${index}`,
        content: `<p><img src="${address}" alt=""></p>`,
      });
      const refused = await t.asAdmin(`/api/admin/media/${body.id}`, { method: "DELETE" });
      expect([address, refused.status]).toEqual([address, 409]);
    }
  });

  test("the alt text is saved; too long is a 422 that changes nothing", async () => {
    const t = await adminApp({ seed: false });
    const { body } = await upload(t, await testImage(100, 100));
    const saved = await t.asAdmin(`/api/admin/media/${body.id}`, { method: "PUT", json: { alt: "  A ring light  " } });
    expect(saved.status).toBe(200);
    expect((await saved.json()).alt).toBe("A ring light");
    const long = await t.asAdmin(`/api/admin/media/${body.id}`, { method: "PUT", json: { alt: "x".repeat(301) } });
    expect(long.status).toBe(422);
    expect((await library(t))[0]!.alt).toBe("A ring light");
  });

  test("only the admin: a visitor gets 401 and nothing is deleted", async () => {
    const t = await adminApp({ seed: false });
    const { body } = await upload(t, await testImage(100, 100));
    const headers = { origin: "http://localhost" };
    expect((await t.request("/api/admin/media", { headers })).status).toBe(401);
    expect((await t.request(`/api/admin/media/${body.id}?force=1`, { method: "DELETE", headers })).status).toBe(401);
    expect(
      (
        await t.request(`/api/admin/media/${body.id}`, {
          method: "PUT",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ alt: "x" }),
        })
      ).status,
    ).toBe(401);
    expect(readdirSync(t.uploadsDir)).toHaveLength(1);
  });
});

describe("public pages serve images at a size fit for where they appear", () => {
  test("a post's content image and cover get srcset, sizes, width and height; a phone can pick ≤ 960 px", async () => {
    const t = await adminApp({ seed: false });
    await createSettings(t.db);
    const photo = (await upload(t, await testImage(4000, 3000))).body;
    const cover = (await upload(t, await testImage(2400, 1260))).body;
    await createPost(t.db, {
      slug: "with-photo",
      title: "With a photo",
      coverImage: cover.url,
      content: `<p>Before.</p><p><img src="${photo.url}" alt="A ring light"></p>`,
    });
    const html = await (await t.request("/blog/with-photo")).text();
    const page = new HTMLRewriter();
    const images: Record<string, string | null>[] = [];
    page.on("img", {
      element(el) {
        images.push(
          Object.fromEntries(
            ["src", "srcset", "sizes", "width", "height", "alt", "class"].map((n) => [n, el.getAttribute(n)]),
          ),
        );
      },
    });
    page.transform(html);
    const content = images.find((i) => i.src === photo.url)!;
    expect(content).toMatchObject({ width: "4000", height: "3000", alt: "A ring light" });
    expect(content.sizes).toBeTruthy();
    const candidates = content.srcset!.split(",").map((c) => Number(c.trim().split(" ")[1]!.replace("w", "")));
    expect(candidates).toEqual([480, 960, 1600, 4000]);
    expect(Math.min(...candidates)).toBeLessThanOrEqual(960);
    const coverImg = images.find((i) => i.src === cover.url)!;
    expect(coverImg).toMatchObject({ width: "2400", height: "1260" });
    expect(coverImg.srcset).toContain("-w960.webp 960w");
    // The blog list's card too.
    const list = (await (await t.request("/api/blog/posts")).json()).posts;
    expect(list[0].coverFit).toMatchObject({ width: 2400, height: 1260 });
  });

  test("offers and products carry their picture's size and copies", async () => {
    const t = await adminApp({ seed: false });
    const photo = (await upload(t, await testImage(1800, 1200))).body;
    await createOffer(t.db, { imageUrl: photo.url, moduleId: 1 });
    await createProduct(t.db, { imageUrl: photo.url, archetype: "Couple" });
    const [offer] = await (await t.request("/api/module/1/affiliate-offers")).json();
    expect(offer.imageFit).toMatchObject({ width: 1800, height: 1200 });
    expect(offer.imageFit.srcset).toContain("480w");
    const [product] = await (await t.request("/api/recommended-products/Couple")).json();
    expect(product.imageFit).toMatchObject({ width: 1800, height: 1200 });
  });
});
