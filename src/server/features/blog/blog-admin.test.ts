import { describe, expect, test } from "bun:test";
import { postInput } from "#tests/support/admin-inputs.ts";
import { createCategory, createPost } from "#tests/support/factories.ts";
import { runAdminRefusals, runScenarios, type Scenario, scenarioApp } from "#tests/support/scenario.ts";

const post = postInput({
  content: "<p>Hello <script>x()</script></p>",
  excerpt: "Short teaser",
  category: "tips-and-tricks",
});

// One post and one category for the addresses below to name.
const rows: Scenario["setup"] = async ({ db }) => {
  const category = await createCategory(db, { name: "Tips and Tricks", slug: "tips-and-tricks" });
  const existing = await createPost(db, { category: category.slug });
  return { post: existing.id, category: category.id };
};

runAdminRefusals(
  "blog",
  {
    record: "post",
    path: "/api/admin/blog/post",
    body: post,
    others: [
      { name: "open post", method: "GET", path: "/api/admin/blog/post/{post}" },
      { name: "posts per category", method: "GET", path: "/api/admin/blog/category-posts" },
      {
        name: "create category",
        method: "POST",
        path: "/api/admin/blog/category",
        body: { name: "Safety", slug: "safety" },
      },
      { name: "delete category", method: "DELETE", path: "/api/admin/blog/category/{category}" },
    ],
  },
  rows,
);

runScenarios(
  "a post with a bad field: 422 naming it, nothing stored",
  (
    [
      [{ ...post, title: "" }, "title"],
      [{ ...post, slug: "Not A Slug" }, "slug"],
      [{ ...post, content: "" }, "content"],
      [{ ...post, published: "yes" }, "published"],
      [{ ...post, category: "no-such-category" }, "category"],
      // Not a day, or a year PostgreSQL would read back 1,900 years late, or out of its range.
      [{ ...post, publishAt: "2030-02-30T00:00:00Z" }, "publishAt"],
      [{ ...post, publishAt: "0050-06-01T00:00:00.000Z" }, "publishAt"],
      [{ ...post, publishAt: "-000001-01-01T00:00:00.000Z" }, "publishAt"],
      [{ ...post, publishAt: "+275760-09-13T00:00:00.000Z" }, "publishAt"],
    ] as const
  ).map(([body, field]) => ({
    name: field,
    who: "admin",
    method: "POST",
    path: "/api/admin/blog/post",
    body,
    setup: rows,
    status: 422,
    rows: { blog_posts: 0 },
    check: (res) => expect(JSON.stringify(res.json().details)).toContain(field),
  })),
);

runScenarios(
  "a non-numeric post id is 422",
  ["abc", "1.5", "-1"].map((id) => ({
    name: id,
    who: "admin",
    method: "DELETE",
    path: `/api/admin/blog/post/${id}`,
    status: 422,
  })),
);

describe("blog admin API as the admin", () => {
  test("posts: create (sanitised), duplicate slug 409, update, list with drafts, open by id, delete, unknown 404", async () => {
    const api = await scenarioApp({ admin: true });
    await createCategory(api.db, { name: "Tips and Tricks", slug: "tips-and-tricks" });
    // The same post twice: made (sanitised), then its slug taken.
    const send = { who: "admin", method: "POST", path: "/api/admin/blog/post", body: post } as const;
    const created = await api.check({
      ...send,
      status: 201,
      contains: { content: "<p>Hello </p>" },
      rows: { blog_posts: 1 },
    });
    const { id } = created.json<{ id: number }>();
    await api.check({ path: "/api/blog/post/a-new-post", status: 200 });

    const taken = { error: 'A post with the slug "a-new-post" already exists.' };
    await api.check({ ...send, status: 409, contains: taken, rows: { blog_posts: 0 } });

    await api.check({
      who: "admin",
      method: "PUT",
      path: `/api/admin/blog/post/${id}`,
      body: { ...post, title: "Renamed", published: false },
      status: 200,
    });
    await api.check({ path: "/api/blog/post/a-new-post", status: 404 });
    const all = (await api.check({ who: "admin", path: "/api/admin/blog/posts", status: 200 })).json<{
      posts: { id: number; title: string; published: boolean }[];
    }>().posts;
    expect(all.find((x) => x.id === id)!.title).toBe("Renamed");
    expect(all.some((x) => !x.published)).toBe(true);
    await api.check({ who: "admin", path: `/api/admin/blog/post/${id}`, status: 200, contains: { title: "Renamed" } });

    await api.check({
      who: "admin",
      method: "DELETE",
      path: `/api/admin/blog/post/${id}`,
      status: 200,
      rows: { blog_posts: -1 },
    });
    await api.check({ who: "admin", method: "DELETE", path: `/api/admin/blog/post/${id}`, status: 404 });
    await api.check({ who: "admin", path: `/api/admin/blog/post/${id}`, status: 404 });
    await api.check({
      who: "admin",
      method: "PUT",
      path: "/api/admin/blog/post/99999",
      body: post,
      status: 404,
      rows: { blog_posts: 0 },
    });
  });

  test("categories: create, duplicate 409, delete leaves posts Uncategorized", async () => {
    const api = await scenarioApp({ admin: true });
    const income = await createCategory(api.db, { name: "Income Strategies", slug: "income-strategies" });
    await createPost(api.db, { category: income.slug });
    await createPost(api.db, { category: income.slug, published: false });
    // In this order: made, then its slug taken, then refused empty.
    for (const [body, status, made] of [
      [{ name: "Safety", slug: "safety" }, 201, 1],
      [{ name: "Again", slug: "safety" }, 409, 0],
      [{ name: "", slug: "" }, 422, 0],
    ] as const) {
      const category = { who: "admin", method: "POST", path: "/api/admin/blog/category" } as const;
      await api.check({ ...category, body, status, rows: { blog_categories: made } });
    }
    await api.check({
      who: "admin",
      method: "DELETE",
      path: `/api/admin/blog/category/${income.id}`,
      status: 200,
      rows: { blog_categories: -1, blog_posts: 0 },
    });
    expect(
      await api.testDb.rows(
        "SELECT CAST(count(*) AS INTEGER) AS n FROM blog_posts WHERE category = 'income-strategies'",
      ),
    ).toEqual([{ n: 0 }]);
    expect(
      await api.testDb.rows("SELECT CAST(count(*) AS INTEGER) AS n FROM blog_posts WHERE category IS NULL"),
    ).toEqual([{ n: 2 }]);
    await api.check({ who: "admin", method: "DELETE", path: `/api/admin/blog/category/${income.id}`, status: 404 });
  });
});

// Named as a scenario ("… -> 409"), so `bun run test:postgres` runs it too: PostgreSQL runs the
// requests' transactions side by side, and each may find the slug free before another writes it.
describe("the same slug sent at the same moment", () => {
  test("eight categories renamed to one slug, eight made with another: one wins, the rest 409: PUT /api/admin/blog/category -> 409", async () => {
    const api = await scenarioApp({ admin: true });
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push((await createCategory(api.db, { name: `C${i}`, slug: `c-${i}` })).id);
    const send = (method: string, path: string, body: unknown) =>
      api.request(path, {
        method,
        headers: { cookie: api.cookie!, origin: "http://localhost", "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const renamed = await Promise.all(
      ids.map((id) => send("PUT", `/api/admin/blog/category/${id}`, { name: "Same", slug: "same-slug" })),
    );
    expect(renamed.map((r) => r.status).sort()).toEqual([200, ...Array(7).fill(409)]);
    const made = await Promise.all(
      ids.map(() => send("POST", "/api/admin/blog/category", { name: "New", slug: "new-slug" })),
    );
    expect(made.map((r) => r.status).sort()).toEqual([201, ...Array(7).fill(409)]);
    for (const res of [...renamed, ...made].filter((r) => r.status === 409))
      expect(((await res.json()) as { error: string }).error).toMatch(/already|same name or address/);
    expect(
      await api.testDb.rows("SELECT slug FROM blog_categories WHERE slug IN ('same-slug', 'new-slug') ORDER BY slug"),
    ).toEqual([{ slug: "new-slug" }, { slug: "same-slug" }]);
  });
});
