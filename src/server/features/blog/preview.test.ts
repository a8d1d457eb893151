// The admin's post preview: a draft, a scheduled post or the editor's unsaved form shown as
// its public page will be, to the signed-in admin only; never cached or indexed.
import { describe, expect, test } from "bun:test";
import { adminApp, SAME_ORIGIN } from "#tests/support/admin.ts";
import { postInput } from "#tests/support/admin-inputs.ts";
import { createCategory, createPost } from "#tests/support/factories.ts";

const NOW = new Date("2031-05-01T12:00:00Z");

async function site() {
  const t = await adminApp({ testHooks: { clock: () => NOW } });
  await createCategory(t.db, { name: "Tips", slug: "tips" });
  const draft = await createPost(t.db, {
    title: "A Draft About Lighting",
    slug: "draft-lighting",
    category: "tips",
    published: false,
    content: "<p>Soft light from a window.</p>",
  });
  const scheduled = await createPost(t.db, {
    title: "A Scheduled Post",
    slug: "scheduled-post",
    published: true,
    publishAt: new Date("2031-06-01T08:30:00Z"),
  });
  await createPost(t.db, { title: "A Public Neighbour", slug: "neighbour", category: "tips" });
  return { ...t, draft, scheduled };
}

const form = (post: Record<string, unknown>, id?: number) =>
  new URLSearchParams({ post: JSON.stringify(post), ...(id ? { id: String(id) } : {}) }).toString();

describe("the post preview", () => {
  test("shows a draft to the admin as its public page, marked, with the way back, never stored or indexed", async () => {
    const t = await site();
    const res = await t.asAdmin(`/admin/preview/post/${t.draft.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-robots-tag")).toContain("noindex");
    const html = await res.text();
    expect(html).toContain("Preview — not published");
    expect(html).toContain("A Draft About Lighting");
    expect(html).toContain("Soft light from a window.");
    expect(html).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(html).toContain(`href="/admin/posts/${t.draft.id}"`);
    // Related posts as the public page would list them.
    expect(html).toContain("A Public Neighbour");
    // The page's own parts: the same layout as the public page.
    expect(html).toContain("← Back to Blog");
    // The public page still does not show it.
    expect((await t.request("/blog/draft-lighting")).status).toBe(302);
  });

  test("names a scheduled post's date", async () => {
    const t = await site();
    const html = await (await t.asAdmin(`/admin/preview/post/${t.scheduled.id}`)).text();
    expect(html).toContain("scheduled");
    expect(html).toContain("June 1, 2031");
    expect(html).toContain("08:30 UTC");
  });

  test("is the site's 404 page for anyone else, and for a post that does not exist", async () => {
    const t = await site();
    for (const res of [
      await t.request(`/admin/preview/post/${t.draft.id}`),
      await t.request(`/admin/preview/post/${t.draft.id}`, { headers: { cookie: "cg_session=forged" } }),
      await t.asAdmin("/admin/preview/post/999999"),
      await t.asAdmin("/admin/preview/post/abc"),
      await t.request("/admin/preview/post", {
        method: "POST",
        headers: { ...SAME_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: form(postInput({ title: "Sneaky" })),
      }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const html = await res.text();
      expect(html).not.toContain("A Draft About Lighting");
      expect(html).not.toContain("Sneaky");
    }
  });

  test("shows the editor's unsaved form, cleaned as when saved, without saving anything", async () => {
    const t = await site();
    const body = postInput({
      title: "Unsaved Title Here",
      slug: "draft-lighting",
      content: '<p>New words <script>alert(1)</script><a href="https://example.com">a link</a></p>',
      category: "tips",
      published: false,
    });
    const res = await t.asAdmin("/admin/preview/post", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form(body, t.draft.id),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain("Unsaved Title Here");
    expect(html).toContain("unsaved changes");
    expect(html).toContain("a link");
    expect(html).not.toContain("alert(1)");
    // The real post is unchanged.
    const post = await (await t.asAdmin(`/api/admin/blog/post/${t.draft.id}`)).json();
    expect(post.title).toBe("A Draft About Lighting");
  });

  test("an unsaved form with problems is a 4xx page naming them; from another site a 403", async () => {
    const t = await site();
    const post = (body: string, headers: Record<string, string> = {}) =>
      t.asAdmin("/admin/preview/post", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body,
      });
    const bad = await post(form(postInput({ slug: "Not A Slug" })));
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("slug");
    expect((await post("post=%7Bnot-json")).status).toBe(400);
    expect((await post(form(postInput({ category: "nope" })))).status).toBe(422);
    const foreign = await t.request("/admin/preview/post", {
      method: "POST",
      headers: {
        cookie: t.cookie,
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: form(postInput()),
    });
    expect(foreign.status).toBe(403);
  });
});
