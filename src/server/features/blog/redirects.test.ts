import { describe, expect, test } from "bun:test";
import { postInput } from "#tests/support/admin-inputs.ts";
import { createCategory, createPost } from "#tests/support/factories.ts";
import { runScenarios, type ScenarioApp, scenarioApp } from "#tests/support/scenario.ts";

// Old blog addresses: a published post's changed slug, a renamed or deleted category. Each old
// address forwards for good (301) to where its content lives now, the owner sees the list and
// may delete a redirect.

const admin = { who: "admin" } as const;

/** The category renamed (name and slug) through the admin API. */
async function renameCategoryOf(api: ScenarioApp, id: number, name: string, slug: string, status = 200) {
  return api.check({ ...admin, method: "PUT", path: `/api/admin/blog/category/${id}`, body: { name, slug }, status });
}

async function movePost(api: ScenarioApp, id: number, slug: string, published = true) {
  return api.check({
    ...admin,
    method: "PUT",
    path: `/api/admin/blog/post/${id}`,
    body: postInput({ title: "A post that moved", slug, published }),
    status: 200,
  });
}

/**
 * A PUT as the signed-in admin whose answer is not checked here: for two changes sent side by
 * side, where which one comes first is not known in advance.
 */
const putAsAdmin = (api: ScenarioApp, path: string, body: unknown) =>
  api.request(path, {
    method: "PUT",
    headers: { cookie: api.cookie!, origin: "http://localhost", "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const forwards = (api: ScenarioApp, path: string, to: string) =>
  api.check({ path, status: 301, responseHeaders: { location: to } });

describe("a post's changed address", () => {
  test("forwards for good, straight to the newest address, and the owner can list and delete it", async () => {
    const api = await scenarioApp({ admin: true });
    const post = await createPost(api.db, { slug: "first-address" });
    await movePost(api, post.id, "second-address");
    await forwards(api, "/blog/first-address", "/blog/second-address");
    await api.check({ path: "/blog/second-address", status: 200, contains: ["A post that moved"] });
    // The browser asks the same question when it follows an old link inside the site.
    await api.check({ path: "/api/blog/moved/post/first-address", status: 200, json: { to: "/blog/second-address" } });

    // A second change: both old addresses lead straight to the third, never through a chain.
    await movePost(api, post.id, "third-address");
    await forwards(api, "/blog/first-address", "/blog/third-address");
    await forwards(api, "/blog/second-address", "/blog/third-address");

    // Back to its first address: that one answers again, and no redirect leaves from it.
    await movePost(api, post.id, "first-address");
    await api.check({ path: "/blog/first-address", status: 200 });
    const listed = (await api.check({ ...admin, path: "/api/admin/blog/redirects", status: 200 })).json<
      { id: number; kind: string; fromSlug: string; toSlug: string }[]
    >();
    expect(listed.map((r) => [r.kind, r.fromSlug, r.toSlug]).sort()).toEqual([
      ["post", "second-address", "first-address"],
      ["post", "third-address", "first-address"],
    ]);

    // Deleted by the owner: the old address no longer forwards (an unknown post goes to the blog).
    const third = listed.find((r) => r.fromSlug === "third-address")!;
    await api.check({
      ...admin,
      method: "DELETE",
      path: `/api/admin/blog/redirect/${third.id}`,
      status: 200,
      rows: { blog_redirects: -1 },
    });
    await api.check({ path: "/blog/third-address", status: 302, responseHeaders: { location: "/blog" } });
    await api.check({ ...admin, method: "DELETE", path: `/api/admin/blog/redirect/${third.id}`, status: 404 });
  });

  test("a draft's address was never public: changing it leaves no redirect", async () => {
    const api = await scenarioApp({ admin: true });
    const draft = await createPost(api.db, { slug: "draft-address", published: false });
    await movePost(api, draft.id, "new-draft-address", false);
    expect(await api.testDb.rows("SELECT CAST(count(*) AS INTEGER) AS n FROM blog_redirects")).toEqual([{ n: 0 }]);
  });

  test("a new post at an old address takes it back; a deleted post's redirects go with it", async () => {
    const api = await scenarioApp({ admin: true });
    const moved = await createPost(api.db, { slug: "old-address" });
    await movePost(api, moved.id, "new-address");
    await api.check({
      ...admin,
      method: "POST",
      path: "/api/admin/blog/post",
      body: postInput({ title: "A new post in an old place", slug: "old-address", published: true }),
      status: 201,
      rows: { blog_redirects: -1 },
    });
    await api.check({ path: "/blog/old-address", status: 200, contains: ["A new post in an old place"] });

    const other = await createPost(api.db, { slug: "gone-soon" });
    await movePost(api, other.id, "gone-now");
    await api.check({
      ...admin,
      method: "DELETE",
      path: `/api/admin/blog/post/${other.id}`,
      status: 200,
      rows: { blog_posts: -1, blog_redirects: -1 },
    });
    await api.check({ path: "/blog/gone-soon", status: 302, responseHeaders: { location: "/blog" } });
  });
});

describe("a category's address", () => {
  test("renamed: its posts follow and its old list forwards to the new one, the search kept", async () => {
    const api = await scenarioApp({ admin: true });
    const category = await createCategory(api.db, { name: "Money", slug: "money" });
    const post = await createPost(api.db, { category: "money" });
    await renameCategoryOf(api, category.id, "Earning Well", "earning-well");
    expect(await api.testDb.rows(`SELECT category FROM blog_posts WHERE id = ${post.id}`)).toEqual([
      { category: "earning-well" },
    ]);
    await forwards(api, "/blog?category=money", "/blog?category=earning-well");
    await forwards(api, "/blog?category=money&q=tips", "/blog?category=earning-well&q=tips");
    await api.check({ path: "/blog?category=earning-well", status: 200, contains: [post.title] });
    // Only the name changed: nothing moves.
    await renameCategoryOf(api, category.id, "Earning", "earning-well");
    expect(await api.testDb.rows("SELECT CAST(count(*) AS INTEGER) AS n FROM blog_redirects")).toEqual([{ n: 1 }]);
  });

  test("deleted: the answer counts its posts, which stay, and its list forwards to the whole blog", async () => {
    const api = await scenarioApp({ admin: true });
    const category = await createCategory(api.db, { name: "Safety", slug: "safety" });
    await createPost(api.db, { category: "safety" });
    await createPost(api.db, { category: "safety", published: false });
    await api.check({
      ...admin,
      method: "DELETE",
      path: `/api/admin/blog/category/${category.id}`,
      status: 200,
      json: { message: "Category deleted; its 2 posts are now Uncategorized", posts: 2 },
      rows: { blog_posts: 0, blog_categories: -1, blog_redirects: 1 },
    });
    await forwards(api, "/blog?category=safety", "/blog");
    // A category made again under that slug takes its address back.
    await api.check({
      ...admin,
      method: "POST",
      path: "/api/admin/blog/category",
      body: { name: "Safety", slug: "safety" },
      status: 201,
      rows: { blog_redirects: -1 },
    });
    await api.check({ path: "/blog?category=safety", status: 200 });
  });
});

runScenarios(
  "renaming a category wrongly: a clear 4xx, nothing changed",
  (
    [
      ["to a slug another category has", { name: "Taken", slug: "taken" }, "{id}", 409],
      ["with an empty name", { name: "", slug: "fine" }, "{id}", 422],
      ["with a name of spaces", { name: "   ", slug: "fine" }, "{id}", 422],
      ["with a name of zero-width characters", { name: "\u200b\u200b", slug: "fine" }, "{id}", 422],
      ["with a slug that is not one", { name: "Fine", slug: "Not A Slug" }, "{id}", 422],
      ["that does not exist", { name: "Fine", slug: "fine" }, "99999", 404],
    ] as const
  ).map(([name, body, id, status]) => ({
    name,
    who: "admin",
    method: "PUT",
    path: `/api/admin/blog/category/${id}`,
    body,
    setup: async ({ db }) => {
      await createCategory(db, { name: "Taken", slug: "taken" });
      const mine = await createCategory(db, { name: "Mine", slug: "mine" });
      return { id: mine.id };
    },
    status,
    unchanged: true,
  })),
);

describe("changes sent side by side", () => {
  test("renames of one category: each acknowledged old address forwards to where it ended", async () => {
    const api = await scenarioApp({ admin: true });
    const category = await createCategory(api.db, { name: "Start", slug: "start" });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => renameCategoryOf(api, category.id, `Name ${i}`, `name-${i}`)),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const [final] = await api.testDb.rows<{ slug: string }>(
      `SELECT slug FROM blog_categories WHERE id = ${category.id}`,
    );
    const targets = await api.testDb.rows<{ from_slug: string; to_slug: string }>(
      "SELECT from_slug, to_slug FROM blog_redirects",
    );
    // Every slug the category had but the last forwards straight to the last.
    expect(targets.length).toBe(12);
    expect(new Set(targets.map((t) => t.to_slug))).toEqual(new Set([final!.slug]));
  });

  test("a post's slug changes: each old address leads to the post, never to nothing", async () => {
    const api = await scenarioApp({ admin: true });
    const post = await createPost(api.db, { slug: "origin" });
    await Promise.all(Array.from({ length: 6 }, (_, i) => movePost(api, post.id, `moved-${i}`)));
    const [{ slug }] = (await api.testDb.rows<{ slug: string }>(
      `SELECT slug FROM blog_posts WHERE id = ${post.id}`,
    )) as [{ slug: string }];
    await forwards(api, "/blog/origin", `/blog/${slug}`);
    const targets = await api.testDb.rows("SELECT DISTINCT to_slug FROM blog_redirects");
    expect(targets).toEqual([{ to_slug: slug }]);
  });

  test("the same new slug twice, and a rename beside a delete: 200 once, then 409 or 404, never a 5xx", async () => {
    const api = await scenarioApp({ admin: true });
    const a = await createCategory(api.db, { name: "A", slug: "a" });
    const b = await createCategory(api.db, { name: "B", slug: "b" });
    // Sent by hand: which of the two comes first is not known in advance.
    const rename = (id: number, slug: string) =>
      putAsAdmin(api, `/api/admin/blog/category/${id}`, { name: "Same", slug });
    const same = await Promise.all([a, b].map((c) => rename(c.id, "same")));
    expect(same.map((r) => r.status).sort()).toEqual([200, 409]);

    // A rename beside a delete: renamed then deleted (200, 200), or deleted then not found (404).
    const doomed = await createCategory(api.db, { name: "Doomed", slug: "doomed" });
    const mixed = await Promise.all([
      api.check({ ...admin, method: "DELETE", path: `/api/admin/blog/category/${doomed.id}`, status: 200 }),
      rename(doomed.id, "saved"),
    ]);
    expect([200, 404]).toContain(mixed[1].status);
    // A 200 is the renamed category itself, never an empty answer for a category already gone.
    if (mixed[1].status === 200) expect((await mixed[1].json()).slug).toBe("saved");
    await forwards(api, "/blog?category=doomed", "/blog");
  });

  test("a post saved while its category is deleted: saved first (then Uncategorized) or a 422 at Category", async () => {
    const api = await scenarioApp({ admin: true });
    const category = await createCategory(api.db, { name: "Going", slug: "going" });
    const post = await createPost(api.db, { slug: "staying", category: "going" });
    // Sent by hand: which of the two comes first is not known in advance.
    const [, saved] = await Promise.all([
      api.check({ ...admin, method: "DELETE", path: `/api/admin/blog/category/${category.id}`, status: 200 }),
      putAsAdmin(
        api,
        `/api/admin/blog/post/${post.id}`,
        postInput({ title: "Saved in a category that went", slug: "staying", category: "going" }),
      ),
    ]);
    if (saved.status === 422) {
      expect((await saved.json()).details).toEqual([{ field: "category", message: "Choose an existing category" }]);
    } else expect(saved.status).toBe(200);
    // Either way the post is there, in no category.
    expect(await api.testDb.rows(`SELECT category FROM blog_posts WHERE id = ${post.id}`)).toEqual([
      { category: null },
    ]);
  });
});

test("an old address's 301 is never kept by a browser: undoing the change cannot make a loop", async () => {
  const api = await scenarioApp({ admin: true });
  const post = await createPost(api.db, { slug: "here" });
  await movePost(api, post.id, "there");
  await api.check({
    path: "/blog/here",
    status: 301,
    responseHeaders: { location: "/blog/there", "cache-control": "no-store" },
  });
});
