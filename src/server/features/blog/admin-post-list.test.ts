// The admin's post list, a page at a time and searched by the server, and the post its editor
// opens by id (docs/decisions/088-admin-post-list-pages.md). Scenario tables: they run on
// SQLite here and on PostgreSQL in `bun run test:postgres`.
import { expect } from "bun:test";
import type { Db } from "#server/db/types.ts";
import type { AdminBlogPost, AdminPostPage } from "#shared/features/blog/contract.ts";
import { createCategory, createPost } from "#tests/support/factories.ts";
import { runScenarios, type Scenario } from "#tests/support/scenario.ts";
import { ADMIN_POSTS_PAGE_SIZE } from "./admin-service.ts";

const LIST = "/api/admin/blog/posts";

/** What a row holds: what the list shows, and nothing read from the text. */
const ROW_FIELDS = ["category", "createdAt", "date", "id", "publishAt", "published", "slug", "title", "updatedAt"];

/**
 * `count` posts, the first made the oldest (a minute apart), each with a long text; answers
 * their ids newest first, as the list orders them.
 */
async function posts(db: Db, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const post = await createPost(db, {
      title: `Post ${i}`,
      slug: `post-${i}`,
      createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)),
      content: `<p>${"Long words of a long post. ".repeat(400)}</p>`,
      contentMarkdown: "Long words of a long post. ".repeat(400),
    });
    ids.push(post.id);
  }
  return ids.reverse();
}

const admin = { who: "admin" } as const;
const page = (res: { json<T>(): T }) => res.json<AdminPostPage>();

runScenarios("the admin's post list: a page at a time, newest first, without the text", [
  {
    ...admin,
    name: "no page asked: the first, its 20 newest rows and the counts",
    path: LIST,
    setup: async ({ db }) => ({ ids: await posts(db, 45) }),
    status: 200,
    check: (res, _api, made) => {
      const answer = page(res);
      expect(ADMIN_POSTS_PAGE_SIZE).toBe(20);
      expect({ ...answer, posts: answer.posts.length }).toEqual({
        posts: 20,
        total: 45,
        page: 1,
        pages: 3,
        pageSize: 20,
      });
      expect(answer.posts.map((p) => p.id)).toEqual((made.ids as number[]).slice(0, 20));
    },
  },
  {
    ...admin,
    name: "the last page: what is left",
    path: `${LIST}?page=3`,
    setup: async ({ db }) => ({ ids: await posts(db, 45) }),
    status: 200,
    check: (res, _api, made) => {
      const answer = page(res);
      expect({ ...answer, posts: answer.posts.length }).toEqual({
        posts: 5,
        total: 45,
        page: 3,
        pages: 3,
        pageSize: 20,
      });
      expect(answer.posts.map((p) => p.id)).toEqual((made.ids as number[]).slice(40));
    },
  },
  {
    ...admin,
    name: "a page past the last: empty, with the real counts",
    path: `${LIST}?page=4`,
    setup: async ({ db }) => ({ ids: await posts(db, 45) }),
    status: 200,
    json: { posts: [], total: 45, page: 4, pages: 3, pageSize: 20 },
  },
  {
    ...admin,
    name: "the highest page the list takes, with no posts at all",
    path: `${LIST}?page=100000`,
    status: 200,
    json: { posts: [], total: 0, page: 100000, pages: 0, pageSize: 20 },
  },
  {
    ...admin,
    name: "posts made in the same instant: the newer id first, no post on two pages",
    path: `${LIST}?page=2`,
    setup: async ({ db }) => {
      const at = new Date("2030-05-01T00:00:00Z");
      const ids: number[] = [];
      for (let i = 0; i < 25; i++) ids.push((await createPost(db, { createdAt: at })).id);
      return { ids: ids.reverse() };
    },
    status: 200,
    check: (res, _api, made) => expect(page(res).posts.map((p) => p.id)).toEqual((made.ids as number[]).slice(20)),
  },
  {
    ...admin,
    name: "a row holds what the list shows, dated as the site dates it: never the text",
    path: LIST,
    setup: async ({ db }) => {
      await createCategory(db, { name: "Tips", slug: "tips" });
      await createPost(db, {
        title: "Scheduled",
        slug: "scheduled",
        category: "tips",
        createdAt: new Date("2030-01-01T00:00:00Z"),
        publishAt: new Date("2031-02-03T04:05:06Z"),
        content: `<p>${"x".repeat(100_000)}</p>`,
        contentMarkdown: "x".repeat(100_000),
      });
      await createPost(db, {
        title: "A draft",
        slug: "a-draft",
        published: false,
        createdAt: new Date("2029-01-01T00:00:00Z"),
      });
    },
    status: 200,
    notContains: ["content", "contentMarkdown", "excerpt", "xxxxxxxxxx"],
    check: (res) => {
      const [scheduled, draft] = page(res).posts;
      expect(Object.keys(scheduled!).sort()).toEqual(ROW_FIELDS);
      expect(scheduled).toMatchObject({
        title: "Scheduled",
        category: "tips",
        published: true,
        publishAt: "2031-02-03T04:05:06.000Z",
        createdAt: "2030-01-01T00:00:00.000Z",
        date: "2031-02-03T04:05:06.000Z",
      });
      expect(draft).toMatchObject({
        slug: "a-draft",
        published: false,
        publishAt: null,
        date: "2029-01-01T00:00:00.000Z",
      });
      // A 100,000-character text does not reach the list.
      expect(res.text.length).toBeLessThan(2_000);
    },
  },
]);

/** Posts whose titles and slugs hold LIKE's own characters, and some that would match them as wildcards. */
const searchable: Scenario["setup"] = async ({ db }) => {
  const made: [string, string][] = [
    ["100% Natural Light", "natural-light"],
    ["1000 Natural Lights", "thousand-lights"],
    ["Snake_case Titles", "snake-case"],
    ["Snakescase Titles", "snakes-case"],
    ["Back\\slash Story", "backslash"],
    ["Ring Light Basics", "ring-light-basics"],
    ["Untitled", "lighting-setup-guide"],
    ["Chat Tips", "chat-tips"],
  ];
  for (const [i, [title, slug]] of made.entries())
    await createPost(db, { title, slug, createdAt: new Date(Date.UTC(2030, 0, 1, i)) });
};

const titles = (res: { json<T>(): T }) => page(res).posts.map((p) => p.title);

runScenarios(
  "the admin's post list searched: title or slug, any case, LIKE's wildcards as plain characters",
  (
    [
      ["light", ["Untitled", "Ring Light Basics", "1000 Natural Lights", "100% Natural Light"]],
      ["LIGHT", ["Untitled", "Ring Light Basics", "1000 Natural Lights", "100% Natural Light"]],
      ["  ring light  ", ["Ring Light Basics"]],
      ["setup-guide", ["Untitled"]],
      ["%", ["100% Natural Light"]],
      ["100%", ["100% Natural Light"]],
      ["_", ["Snake_case Titles"]],
      ["snake_", ["Snake_case Titles"]],
      ["\\", ["Back\\slash Story"]],
      ["no such words", []],
    ] as const
  ).map(
    ([q, found]): Scenario => ({
      ...admin,
      name: `q=${JSON.stringify(q)}`,
      path: `${LIST}?q=${encodeURIComponent(q)}`,
      setup: searchable,
      status: 200,
      check: (res) => {
        expect(titles(res)).toEqual([...found]);
        expect(page(res)).toMatchObject({ total: found.length, pages: found.length === 0 ? 0 : 1, page: 1 });
      },
    }),
  ),
);

runScenarios("the admin's post list searched and paged", [
  {
    ...admin,
    name: "the counts are those of the posts found",
    path: `${LIST}?q=post%201&page=2`,
    // "Post 1" and "Post 10" to "Post 19": 11 of 30.
    setup: async ({ db }) => ({ ids: await posts(db, 30) }),
    status: 200,
    check: (res) => expect(page(res)).toMatchObject({ total: 11, pages: 1, page: 2, posts: [] }),
  },
  {
    ...admin,
    name: "an empty search is no search",
    path: `${LIST}?q=%20%20`,
    setup: async ({ db }) => ({ ids: await posts(db, 3) }),
    status: 200,
    check: (res) => expect(page(res).total).toBe(3),
  },
  {
    ...admin,
    name: "a search of 200 characters is taken",
    path: `${LIST}?q=${"a".repeat(200)}`,
    status: 200,
    json: { posts: [], total: 0, page: 1, pages: 0, pageSize: 20 },
  },
  {
    ...admin,
    name: "a parameter the list does not read is ignored",
    path: `${LIST}?sort=title&page=1`,
    status: 200,
  },
]);

const PAGE_PROBLEM = { field: "page", message: "page must be a whole number from 1 to 100,000" };

runScenarios("the admin's post list refuses a bad page or search: 422 naming the parameter", [
  ...["0", "-1", "abc", "1.5", "100001", "", "01", "1e3", "%201"].map(
    (value): Scenario => ({
      ...admin,
      name: `page=${JSON.stringify(value)}`,
      path: `${LIST}?page=${value}`,
      status: 422,
      json: { error: "Some fields are missing or invalid.", details: [PAGE_PROBLEM] },
    }),
  ),
  {
    ...admin,
    name: "a search of 201 characters",
    path: `${LIST}?q=${"a".repeat(201)}`,
    status: 422,
    json: {
      error: "Some fields are missing or invalid.",
      details: [{ field: "q", message: "q (the search) must be at most 200 characters" }],
    },
  },
]);

runScenarios("the post the editor opens, by id", [
  {
    ...admin,
    name: "the whole post: its text, and its Markdown to edit",
    path: "/api/admin/blog/post/{id}",
    setup: async ({ db }) => {
      const post = await createPost(db, { title: "Whole", content: "<p>Hello <strong>there</strong></p>" });
      return { id: post.id };
    },
    status: 200,
    check: (res, _api, made) =>
      expect(res.json<AdminBlogPost>()).toMatchObject({
        id: made.id,
        title: "Whole",
        content: "<p>Hello <strong>there</strong></p>",
        contentMarkdown: "Hello **there**",
        convertedFromHtml: true,
        readingMinutes: 1,
      }),
  },
  {
    ...admin,
    name: "an id no post has (deleted meanwhile)",
    path: "/api/admin/blog/post/99999",
    status: 404,
    json: { error: "No post with that id: it may have been deleted." },
  },
  ...["abc", "1.5", "-1"].map(
    (id): Scenario => ({
      ...admin,
      name: `the id ${id}`,
      path: `/api/admin/blog/post/${id}`,
      status: 422,
      json: {
        error: "Some fields are missing or invalid.",
        details: [{ field: "id", message: "The id must be a whole number." }],
      },
    }),
  ),
]);

runScenarios("how many posts each category holds, for the category list", [
  {
    ...admin,
    name: "drafts included, Uncategorized and empty categories left out",
    path: "/api/admin/blog/category-posts",
    setup: async ({ db }) => {
      await createCategory(db, { name: "Tips", slug: "tips" });
      await createCategory(db, { name: "Gear", slug: "gear" });
      await createCategory(db, { name: "Empty", slug: "empty" });
      await createPost(db, { category: "tips" });
      await createPost(db, { category: "tips", published: false });
      await createPost(db, { category: "gear" });
      await createPost(db);
    },
    status: 200,
    check: (res) =>
      expect(
        res.json<{ category: string; posts: number }[]>().sort((a, b) => a.category.localeCompare(b.category)),
      ).toEqual([
        { category: "gear", posts: 1 },
        { category: "tips", posts: 2 },
      ]),
  },
]);
