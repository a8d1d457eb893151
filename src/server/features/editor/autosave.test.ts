// The editors' autosave: a copy of the form kept on the server for the signed-in admin only,
// checked, small, never touching the real post or the cached pages, gone once the post is saved.
import { describe, expect, test } from "bun:test";
import { adminApp, SAME_ORIGIN } from "#tests/support/admin.ts";
import { postInput } from "#tests/support/admin-inputs.ts";
import { createPost } from "#tests/support/factories.ts";

const copy = { title: "Half-written title", content: "<p>Draft words</p>", published: false, coverImage: null };

async function put(t: Awaited<ReturnType<typeof adminApp>>, key: string, json: unknown) {
  return t.asAdmin(`/api/admin/autosave/${encodeURIComponent(key)}`, { method: "PUT", json });
}

describe("editor autosave API", () => {
  test("keeps one copy per record, answers it back, and discards it", async () => {
    const t = await adminApp();
    expect(await (await t.asAdmin("/api/admin/autosave/post:new")).json()).toEqual({ autosave: null });
    const first = await put(t, "post:new", { body: copy });
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    await put(t, "post:new", { body: { ...copy, title: "Second try" } });
    const { autosave } = await (await t.asAdmin("/api/admin/autosave/post:new")).json();
    expect(autosave.body.title).toBe("Second try");
    expect(Number.isNaN(Date.parse(autosave.savedAt))).toBe(false);
    expect((await t.asAdmin("/api/admin/autosave/post:new", { method: "DELETE" })).status).toBe(200);
    expect(await (await t.asAdmin("/api/admin/autosave/post:new")).json()).toEqual({ autosave: null });
  });

  test("never changes the real post nor empties the cached pages", async () => {
    const t = await adminApp();
    const post = await createPost(t.db, { title: "The Real Title", slug: "real" });
    await t.request("/blog");
    expect((await t.request("/blog")).headers.get("x-cache")).toBe("hit");
    expect((await put(t, `post:${post.id}`, { body: { ...copy, published: true } })).status).toBe(200);
    expect((await t.request("/blog")).headers.get("x-cache")).toBe("hit");
    const live = await (await t.request("/api/blog/post/real")).json();
    expect(live.title).toBe("The Real Title");
  });

  test("saving the post clears its copy (and a new post's)", async () => {
    const t = await adminApp();
    const post = await createPost(t.db, { slug: "kept" });
    await put(t, `post:${post.id}`, { body: copy });
    await put(t, "post:new", { body: copy });
    const saved = await t.asAdmin(`/api/admin/blog/post/${post.id}`, {
      method: "PUT",
      json: postInput({ slug: "kept" }),
    });
    expect(saved.status).toBe(200);
    expect((await (await t.asAdmin(`/api/admin/autosave/post:${post.id}`)).json()).autosave).toBeNull();
    expect((await (await t.asAdmin("/api/admin/autosave/post:new")).json()).autosave).not.toBeNull();
    await t.asAdmin("/api/admin/blog/post", { method: "POST", json: postInput({ slug: "brand-new" }) });
    expect((await (await t.asAdmin("/api/admin/autosave/post:new")).json()).autosave).toBeNull();
  });

  test.each([
    ["a key that names nothing", "user:1", { body: copy }, 422],
    ["a key with odd characters", "post:../x", { body: copy }, 422],
    ["no body field", "post:new", { title: "x" }, 422],
    ["a nested value", "post:new", { body: { title: { a: 1 } } }, 422],
    [
      "too many fields",
      "post:new",
      { body: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`f${i}`, "x"])) },
      422,
    ],
    ["a body over the limit", "post:new", { body: { content: "x".repeat(300 * 1024) } }, 413],
  ])("refuses %s and stores nothing", async (_name, key, json, status) => {
    const t = await adminApp();
    const res = await put(t, key, json);
    expect(res.status).toBe(status);
    expect((await res.json()).error).toBeTruthy();
    expect(t.sqlite.query("select count(*) as n from editor_autosaves").get()).toEqual({ n: 0 });
  });

  test("is for the signed-in admin from this site only", async () => {
    const t = await adminApp();
    const anonymous = [
      await t.request("/api/admin/autosave/post:new"),
      await t.request("/api/admin/autosave/post:new", {
        method: "PUT",
        headers: { ...SAME_ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ body: copy }),
      }),
      await t.request("/api/admin/autosave/post:new", { method: "DELETE", headers: SAME_ORIGIN }),
    ];
    for (const res of anonymous) expect(res.status).toBe(401);
    const foreign = await t.request("/api/admin/autosave/post:new", {
      method: "PUT",
      headers: { cookie: t.cookie, origin: "https://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ body: copy }),
    });
    expect(foreign.status).toBe(403);
    expect(t.sqlite.query("select count(*) as n from editor_autosaves").get()).toEqual({ n: 0 });
  });
});
