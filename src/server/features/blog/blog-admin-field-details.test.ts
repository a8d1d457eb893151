import { describe, expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";
import { postInput, settingsInput } from "#tests/support/admin-inputs.ts";

const post = postInput({ category: "tips-and-tricks" });

// The admin forms show these details at the named field, so each names one.
describe("blog admin errors name their field", () => {
  test("a post slug already used: 409 naming slug, on create and on update", async () => {
    const { asAdmin } = await adminApp();
    const first = await (await asAdmin("/api/admin/blog/post", { method: "POST", json: post })).json();
    await asAdmin("/api/admin/blog/post", { method: "POST", json: { ...post, slug: "another-post" } });
    const details = [{ field: "slug", message: "Another post already uses this slug" }];

    const created = await asAdmin("/api/admin/blog/post", { method: "POST", json: post });
    expect(created.status).toBe(409);
    expect(await created.json()).toEqual({ error: 'A post with the slug "a-new-post" already exists.', details });
    const updated = await asAdmin(`/api/admin/blog/post/${first.id}`, {
      method: "PUT",
      json: { ...post, slug: "another-post" },
    });
    expect(updated.status).toBe(409);
    expect(await updated.json()).toEqual({ error: 'A post with the slug "another-post" already exists.', details });
  });

  test.each([
    {
      name: "a category that does not exist: 422 naming category",
      path: "/api/admin/blog/post",
      json: { ...post, category: "no-such-category" },
      status: 422,
      answer: {
        error: 'There is no category "no-such-category".',
        details: [{ field: "category", message: "Choose an existing category" }],
      },
    },
    {
      name: "a category slug already used: 409 naming slug",
      path: "/api/admin/blog/category",
      json: { name: "Tips", slug: "tips-and-tricks" },
      status: 409,
      answer: {
        error: 'A category with the slug "tips-and-tricks" already exists.',
        details: [{ field: "slug", message: "Another category already uses this slug" }],
      },
    },
  ])("$name", async ({ path, json, status, answer }) => {
    const { asAdmin } = await adminApp();
    const res = await asAdmin(path, { method: "POST", json });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual(answer);
  });

  test("schema problems name each field once, nested paths with dots", async () => {
    const { asAdmin } = await adminApp();
    const res = await asAdmin("/api/admin/blog/post", {
      method: "POST",
      json: { ...post, title: "", slug: "Not A Slug" },
    });
    expect(res.status).toBe(422);
    expect((await res.json()).details).toEqual([
      { field: "title", message: "Title is required, at most 200 characters" },
      { field: "slug", message: "Slug is required: lower-case letters, digits and single hyphens" },
    ]);
    const settings = await asAdmin("/api/admin/settings", {
      method: "PUT",
      json: settingsInput({
        brandName: "B",
        platformA: { name: "A", url: "nope" },
        platformB: { name: "", url: "https://b.example" },
      }),
    });
    expect((await settings.json()).details).toEqual([
      { field: "platformA.url", message: "Must be a valid URL" },
      { field: "platformB.name", message: "Platform name is required, at most 60 characters" },
    ]);
  });
});
