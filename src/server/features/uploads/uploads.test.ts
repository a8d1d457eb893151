import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { adminApp } from "#tests/support/admin.ts";

const root = join(import.meta.dir, "..", "..", "..", "..");
// A real 1×1 PNG.
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
const MP4 = new Uint8Array(readFileSync(join(root, "public", "seed", "offers", "first-stream.mp4")));

function form(bytes: Uint8Array, name: string, type: string) {
  const data = new FormData();
  data.append("file", new File([new Uint8Array(bytes)], name, { type }));
  return data;
}

describe("POST /api/upload (DECISIONS P16)", () => {
  test("a real PNG is stored under a server-made name and served with its type", async () => {
    const { asAdmin, request, uploadsDir } = await adminApp();
    const res = await asAdmin("/api/upload", { method: "POST", body: form(PNG, "my photo.png", "image/png") });
    expect(res.status).toBe(201);
    const { url } = await res.json();
    expect(url).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.png$/);
    expect(readdirSync(uploadsDir)).toEqual([url.split("/").pop()]);
    const served = await request(url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toContain("immutable");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
  });

  test("a small MP4 is accepted and served in byte ranges", async () => {
    const { asAdmin, request } = await adminApp();
    const res = await asAdmin("/api/upload", { method: "POST", body: form(MP4, "clip.mp4", "video/mp4") });
    expect(res.status).toBe(201);
    const { url } = await res.json();
    expect(url).toEndWith(".mp4");
    const part = await request(url, { headers: { range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-99/${MP4.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(MP4.slice(0, 100));
    expect((await request(url, { headers: { range: "bytes=999999-" } })).status).toBe(416);
  });

  test.each([
    ["a text file named .png", new TextEncoder().encode("just some text, not an image"), "fake.png", "image/png", 415],
    ["an HTML file claiming to be an image", new TextEncoder().encode("<html><script>alert(1)</script></html>"), "x.jpg", "image/jpeg", 415],
    ["an SVG (scripts can hide in it)", new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "x.svg", "image/svg+xml", 415],
    ["a path in the file name", PNG, "../../etc/passwd.png", "image/png", 422],
    ["an empty file", new Uint8Array(), "empty.png", "image/png", 422],
  ])("%s is refused and nothing is stored", async (_, bytes, name, type, status) => {
    const { asAdmin, uploadsDir } = await adminApp();
    const res = await asAdmin("/api/upload", { method: "POST", body: form(bytes, name, type) });
    expect(res.status).toBe(status);
    expect((await res.json()).error).toBeTruthy();
    expect(readdirSync(uploadsDir)).toEqual([]);
  });

  test("an image over 5 MB is refused", async () => {
    const { asAdmin, uploadsDir } = await adminApp();
    const big = new Uint8Array(5 * 1024 * 1024 + 10);
    big.set(PNG);
    const res = await asAdmin("/api/upload", { method: "POST", body: form(big, "big.png", "image/png") });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("Image must be less than 5MB.");
    expect(readdirSync(uploadsDir)).toEqual([]);
  });

  test("a request over the limit is refused from its Content-Length, before the body is read", async () => {
    const { request, cookie } = await adminApp();
    let pulled = 0;
    const body = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
        if (pulled > 4) controller.close();
      },
    });
    const res = await request("/api/upload", {
      method: "POST",
      body,
      headers: { cookie, origin: "http://localhost", "content-type": "multipart/form-data; boundary=x", "content-length": String(200 * 1024 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  test("no field named file: 422; not multipart: 415", async () => {
    const { asAdmin } = await adminApp();
    const data = new FormData();
    data.append("other", new File([PNG], "a.png"));
    expect((await asAdmin("/api/upload", { method: "POST", body: data })).status).toBe(422);
    expect((await asAdmin("/api/upload", { method: "POST", json: { file: "x" } })).status).toBe(415);
  });

  test.each(["nope.png", "../app.db", "%2e%2e%2fapp.db", "AAAAAAAAAAAAAAAAAAAAAA.exe"])("GET /uploads/%s is a 404", async (name) => {
    const { request } = await adminApp();
    expect((await request(`/uploads/${name}`)).status).toBe(404);
  });
});
