import { expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";
import { offerInput, postInput, productInput, settingsInput } from "#tests/support/admin-inputs.ts";

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const offer = offerInput();
const product = productInput();
const settings = settingsInput();
const post = postInput();

function pngUpload(): FormData {
  const form = new FormData();
  form.append("file", new File([PNG], "a.png", { type: "image/png" }));
  return form;
}

// Every admin write, in every feature: no feature registers the cache drop itself, the
// mount does it for whatever is mounted in it.
const writes: [string, string, () => RequestInit & { json?: unknown }][] = [
  ["POST", "/api/admin/blog/post", () => ({ json: post })],
  ["DELETE", "/api/admin/blog/post/1", () => ({})],
  ["POST", "/api/admin/blog/category", () => ({ json: { name: "Safety", slug: "safety" } })],
  ["POST", "/api/admin/affiliate-offer", () => ({ json: offer })],
  ["POST", "/api/admin/recommended-product", () => ({ json: product })],
  ["DELETE", "/api/admin/recommended-product/essential-key-light", () => ({})],
  ["PUT", "/api/admin/settings", () => ({ json: settings })],
  ["POST", "/api/upload", () => ({ body: pngUpload() })],
];

test.each(writes)("%s %s empties the page cache", async (method, path, init) => {
  const { request, asAdmin } = await adminApp();
  await request("/blog");
  expect((await request("/blog")).headers.get("x-cache")).toBe("hit");
  const res = await asAdmin(path, { method, ...init() });
  expect([res.status, res.headers.get("cache-control")]).toEqual([method === "POST" ? 201 : 200, "no-store"]);
  expect((await request("/blog")).headers.get("x-cache")).toBe("miss");
});

test("reading admin data leaves the cache alone", async () => {
  const { request, asAdmin } = await adminApp();
  await request("/blog");
  expect((await asAdmin("/api/admin/blog/posts")).status).toBe(200);
  expect((await request("/blog")).headers.get("x-cache")).toBe("hit");
});
