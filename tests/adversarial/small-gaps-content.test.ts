// Smaller gaps around content: Accept-Encoding is read as HTTP means it, images are
// accepted only where the site's security policy shows them, and a draft's related
// posts answer exactly like an unknown post. Static files and uploads answer odd
// addresses and planted links without a 5xx or a leak.
import { describe, expect, test } from "bun:test";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { SITE_IMAGE_MESSAGE } from "#shared/schema/common.ts";
import { adminApp } from "#tests/support/admin.ts";
import { offerInput, postInput, productInput } from "#tests/support/admin-inputs.ts";
import { siteApp } from "#tests/support/app.ts";
import { createCategory, createPost } from "#tests/support/factories.ts";

function decode(encoding: string | null, body: Uint8Array): string {
  const bytes = Buffer.from(body);
  if (encoding === "br") return brotliDecompressSync(bytes).toString("utf8");
  if (encoding === "gzip") return gunzipSync(bytes).toString("utf8");
  return bytes.toString("utf8");
}

// [Accept-Encoding, the coding expected (null: none), or 406]
const ENCODINGS: [string | null, "br" | "gzip" | null | 406][] = [
  [null, null],
  ["", null],
  ["gzip, deflate, br", "br"],
  ["br", "br"],
  ["BR", "br"],
  ["GZIP", "gzip"],
  ["GZip;Q=1", "gzip"],
  ["x-gzip", "gzip"],
  ["br;q=0, gzip", "gzip"],
  ["br;q=0", null],
  ["gzip;q=0, br;q=0", null],
  ["br;q=0.2, gzip;q=0.9", "gzip"],
  ["br;q=0.9, gzip;q=0.2", "br"],
  ["gzip;q=0.5, br;q=0.5", "br"],
  ["*", "br"],
  ["*;q=0.3, br;q=0", "gzip"],
  ["deflate", null],
  ["compress, deflate;q=0.5", null],
  ["gzip;q=0.1, identity;q=1", null],
  ["identity;q=0, gzip", "gzip"],
  ["identity;q=0, *", "br"],
  ["identity;q=0", 406],
  ["*;q=0", 406],
  ["br;q=0, gzip;q=0, identity;q=0", 406],
  ["gzip;q=1.5, br;q=-1", null],
  ["gzip;q=nonsense", null],
  ["gzip ;  q=0.7 , br ; q=0.6", "gzip"],
  [" ,, gzip ,, ", "gzip"],
  ["br;level=9", "br"],
  ["br;q=0.5;q=0", null],
  ["LONG", "gzip"],
];

describe("Accept-Encoding: case, q-values, * and identity are honoured", () => {
  test.each(ENCODINGS)("%p", async (name, expected) => {
    // "LONG": two thousand unknown codings before the one that counts.
    const header = name === "LONG" ? `${"x, ".repeat(2000)}gzip` : name;
    const { request } = await siteApp();
    const html = await (await request("/learn")).text();
    const asset = /<script type="module" src="([^"]+)"/.exec(html)![1]!;
    const plain = {
      page: await (await request("/learn")).text(),
      asset: await (await request(asset)).text(),
    };
    for (const [what, path] of [
      ["page", "/learn"],
      ["asset", asset],
    ] as const) {
      const res = await request(path, { headers: header === null ? {} : { "accept-encoding": header } });
      if (expected === 406) {
        expect([what, res.status]).toEqual([what, 406]);
        expect(await res.text()).toContain("Accept-Encoding");
        continue;
      }
      expect([what, res.status, res.headers.get("content-encoding")]).toEqual([what, 200, expected]);
      expect(res.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
      // The body is really in that coding, and it is the same page.
      expect(decode(expected, new Uint8Array(await res.arrayBuffer()))).toBe(plain[what]);
    }
  });
});

const IMAGE_PATH = "/uploads/0123456789abcdef.png";

// Addresses a page on this site could not show: the CSP allows images from 'self' only.
const OFF_SITE = [
  "https://images.example/a.png",
  "http://images.example/a.png",
  "HTTPS://IMAGES.EXAMPLE/A.PNG",
  "//images.example/a.png",
  "/\\images.example/a.png",
  "\\\\images.example/a.png",
  "javascript:alert(1)",
  "data:image/png;base64,iVBORw0KGgo=",
  "ftp://images.example/a.png",
  "uploads/a.png",
  " /uploads/a.png",
  "/uploads/a b.png",
  "/uploads/a.png\n",
  `/${"a".repeat(2048)}`,
];

const IMAGE_FIELDS: [string, string, string, (image: string | null) => unknown, string][] = [
  ["post cover", "/api/admin/blog/post", "coverImage", (image) => postInput({ coverImage: image }), "blog_posts"],
  [
    "offer image",
    "/api/admin/affiliate-offer",
    "imageUrl",
    (image) => offerInput({ imageUrl: image }),
    "affiliate_offers",
  ],
  [
    "product image",
    "/api/admin/recommended-product",
    "imageUrl",
    (image) => productInput({ imageUrl: image }),
    "recommended_products",
  ],
];

describe("image fields take only images this site can show", () => {
  test.each(OFF_SITE)("%p is refused at the field, nothing stored", async (image) => {
    const app = await adminApp();
    for (const [what, path, field, body, table] of IMAGE_FIELDS) {
      const before = app.sqlite.query(`SELECT * FROM ${table}`).all();
      const res = await app.asAdmin(path, { method: "POST", json: body(image) });
      expect([what, res.status]).toEqual([what, 422]);
      expect((await res.json()).details).toContainEqual({ field, message: SITE_IMAGE_MESSAGE });
      expect(app.sqlite.query(`SELECT * FROM ${table}`).all()).toEqual(before);
    }
  });

  test.each([IMAGE_PATH, "/seed/blog/choosing-a-stage-name.jpg", null, ""])("%p is accepted", async (image) => {
    const app = await adminApp();
    for (const [what, path, , body] of IMAGE_FIELDS) {
      const res = await app.asAdmin(path, { method: "POST", json: body(image) });
      expect([what, res.status]).toEqual([what, 201]);
    }
  });

  test("updates are checked too", async () => {
    const app = await adminApp();
    const post = await (await app.asAdmin("/api/admin/blog/post", { method: "POST", json: postInput() })).json();
    const res = await app.asAdmin(`/api/admin/blog/post/${post.id}`, {
      method: "PUT",
      json: postInput({ coverImage: "https://images.example/a.png" }),
    });
    expect(res.status).toBe(422);
    const product = productInput({ id: "lamp_1234" });
    expect((await app.asAdmin("/api/admin/recommended-product", { method: "POST", json: product })).status).toBe(201);
    const update = await app.asAdmin("/api/admin/recommended-product/lamp_1234", {
      method: "PUT",
      json: { ...product, imageUrl: "javascript:alert(1)" },
    });
    expect(update.status).toBe(422);
  });
});

describe("images inside a post's content", () => {
  test.each([
    "https://images.example/a.png",
    "http://images.example/a.png",
    "//images.example/a.png",
    "/\\images.example/a.png",
    "&#104;ttps://images.example/a.png",
  ])("<img src=%p> is refused at content", async (src) => {
    const app = await adminApp();
    const res = await app.asAdmin("/api/admin/blog/post", {
      method: "POST",
      json: postInput({ content: `<p>Hi</p><img alt="x" src="${src}">` }),
    });
    expect(res.status).toBe(422);
    const [detail] = (await res.json()).details;
    expect(detail.field).toBe("content");
    expect(detail.message).toStartWith("Images in the content must be uploaded here");
  });

  test.each([IMAGE_PATH, "relative/a.png", "data:image/png;base64,iVBORw0KGgo="])(
    "<img src=%p> is accepted",
    async (src) => {
      const app = await adminApp();
      const res = await app.asAdmin("/api/admin/blog/post", {
        method: "POST",
        json: postInput({ content: `<p>Hi</p><img alt="x" src="${src}">` }),
      });
      expect(res.status).toBe(201);
    },
  );
});

describe("an offer's video file over plain http (blocked by media-src) is refused at its field", () => {
  test.each([
    ["http://videos.example/a.mp4", 422],
    ["HTTP://videos.example/a.webm", 422],
    ["https://videos.example/a.mp4", 201],
    ["/uploads/0123456789abcdef.mp4", 201],
    ["https://youtu.be/dQw4w9WgXcQ", 201],
  ] as const)("%p -> %p", async (videoUrl, status) => {
    const app = await adminApp();
    const res = await app.asAdmin("/api/admin/affiliate-offer", { method: "POST", json: offerInput({ videoUrl }) });
    expect(res.status).toBe(status);
    if (status === 422) expect((await res.json()).details[0].field).toBe("videoUrl");
  });
});

describe("a draft's related posts answer exactly like an unknown post", () => {
  async function blog() {
    const app = await siteApp();
    const cat = await createCategory(app.db, { name: "Tips", slug: "tips" });
    await createPost(app.db, { slug: "published-one", category: cat.slug });
    await createPost(app.db, { slug: "published-two", category: cat.slug });
    await createPost(app.db, { slug: "secret-draft", category: cat.slug, published: false });
    await createPost(app.db, { slug: "draft-without-category", category: null, published: false });
    return app;
  }

  const answer = async (res: Response) => ({
    status: res.status,
    type: res.headers.get("content-type"),
    cache: res.headers.get("cache-control"),
    body: await res.text(),
  });

  test.each(["secret-draft", "draft-without-category"])(
    "%s: the same 404 as a slug that never existed",
    async (slug) => {
      const { request } = await blog();
      const unknown = await answer(await request("/api/blog/post/never-existed/related"));
      expect(unknown.status).toBe(404);
      expect(await answer(await request(`/api/blog/post/${slug}/related`))).toEqual(unknown);
      // And the post itself, as before.
      expect((await request(`/api/blog/post/${slug}`)).status).toBe(404);
    },
  );

  test("a published post still lists its related posts, never the draft", async () => {
    const { request } = await blog();
    const res = await request("/api/blog/post/published-one/related");
    expect(res.status).toBe(200);
    const slugs = ((await res.json()) as { slug: string }[]).map((p) => p.slug);
    expect(slugs).toEqual(["published-two"]);
  });

  test("the draft's page redirects like an unknown post's", async () => {
    const { request } = await blog();
    const draft = await request("/blog/secret-draft");
    const unknown = await request("/blog/never-existed");
    expect([draft.status, draft.headers.get("location")]).toEqual([unknown.status, unknown.headers.get("location")]);
  });
});

describe("static files and uploads: odd addresses and planted files", () => {
  test.each(["/favicon.svg/", "/favicon.svg/.", "/favicon.ico/", "/favicon.svg?x=1"])(
    "GET and HEAD %s: the icon or a 404, never a 5xx",
    async (path) => {
      const t = await siteApp();
      for (const method of ["GET", "HEAD"]) {
        const res = await t.request(path, { method });
        expect([200, 404]).toContain(res.status);
      }
    },
  );

  test.each(["bytes=abc", "items=0-1", "bytes= 1-2x", "bytes=0-1,3-4", "bytes=-"])(
    "a Range header HTTP lets a server ignore (%s): the whole file, 200",
    async (range) => {
      const t = await siteApp();
      const res = await t.request("/favicon.svg", { headers: { range } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-range")).toBeNull();
    },
  );

  test("a Range beyond the end of the file is 416", async () => {
    const t = await siteApp();
    expect((await t.request("/favicon.svg", { headers: { range: "bytes=999999-" } })).status).toBe(416);
  });

  test("a link planted in the uploads folder is never followed, even when it has an upload's name", async () => {
    const t = await siteApp();
    const secret = join(t.uploadsDir, "..", "planted-secret");
    writeFileSync(secret, "the session secret");
    symlinkSync(secret, join(t.uploadsDir, "CCCCCCCCCCCCCCCCCCCCCC.png"));
    const res = await t.request("/uploads/CCCCCCCCCCCCCCCCCCCCCC.png");
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("the session secret");
  });
});
