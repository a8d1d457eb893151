import { expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const offer = {
  title: "Offer",
  description: "Offer text",
  imageUrl: null,
  videoUrl: null,
  useEmbed: false,
  embedCode: null,
  linkUrl: "https://example.com/x",
  linkText: "Go",
  moduleId: 2,
  isActive: true,
};
const product = {
  id: "custom_ab12cd34",
  name: "Ring light",
  description: "A soft, even light for your face.",
  link: "https://example.com/ring",
  price: "$40",
  badge: "ESSENTIAL",
  archetype: "Couple",
  isDefault: false,
  moduleId: null,
};
const settings = {
  brandName: "Velvet Start",
  platformA: { name: "Alpha", url: "https://alpha.example" },
  platformB: { name: "Beta", url: "https://beta.example" },
  bannerPlatform: "b",
};
const post = {
  title: "A New Post",
  slug: "a-new-post",
  content: "<p>Hello</p>",
  excerpt: "",
  category: null,
  coverImage: null,
  published: true,
  metaDescription: "",
  metaKeywords: "",
};

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
