import { describe, expect, test } from "bun:test";
import type { Db } from "#server/db/types.ts";
import { postInput } from "#tests/support/admin-inputs.ts";
import { createCategory, createPost } from "#tests/support/factories.ts";
import { parseXml } from "#tests/support/page.ts";
import { runScenarios, type Scenario, scenarioApp } from "#tests/support/scenario.ts";
import { readSitemap } from "#tests/support/sitemap.ts";

const DRAFT = "your-first-week-on-camera";
const SITE = "https://guide.example.com";

/** Three published posts on different days, newest last made, and one draft. */
async function somePosts(db: Db) {
  const tips = await createCategory(db, { name: "Tips and Tricks", slug: "tips-and-tricks" });
  await createPost(db, { slug: "oldest", createdAt: new Date("2026-01-05"), category: tips.slug });
  await createPost(db, { slug: "newest", createdAt: new Date("2026-03-01") });
  await createPost(db, { slug: "middle", createdAt: new Date("2026-02-10"), category: tips.slug });
  await createPost(db, { slug: DRAFT, published: false, createdAt: new Date("2026-04-01") });
}

runScenarios("blog API", [
  {
    name: "the list: published only, newest first, no article bodies nor anything read from them",
    path: "/api/blog/posts",
    setup: ({ db }) => somePosts(db),
    status: 200,
    contains: { posts: [{ slug: "newest" }, { slug: "middle" }, { slug: "oldest" }] },
    notContains: [DRAFT],
    check: (res) => {
      const page = res.json<{ posts: Record<string, unknown>[]; total: number; page: number; pages: number }>();
      expect({ total: page.total, page: page.page, pages: page.pages }).toEqual({ total: 3, page: 1, pages: 1 });
      const posts = page.posts;
      const dates = posts.map((p) => p.createdAt);
      expect([...dates].sort().reverse()).toEqual(dates);
      // What a card shows, and nothing a card does not: no body, no reading time counted from it.
      expect(Object.keys(posts[0]!).sort()).toEqual([
        "category",
        "coverFit",
        "coverImage",
        "createdAt",
        "date",
        "excerpt",
        "id",
        "slug",
        "title",
        "updatedAt",
      ]);
    },
  },
  {
    name: "the categories",
    path: "/api/blog/categories",
    setup: async ({ db }) => {
      await createCategory(db, { name: "Platform Reviews", slug: "platform-reviews" });
      await createCategory(db, { name: "Getting Started", slug: "getting-started" });
    },
    status: 200,
    check: (res) =>
      expect(
        res
          .json<{ slug: string }[]>()
          .map((c) => c.slug)
          .sort(),
      ).toEqual(["getting-started", "platform-reviews"]),
  },
  {
    name: "a published post, sanitised",
    path: "/api/blog/post/platform-reviews",
    setup: async ({ db }) => {
      const category = await createCategory(db, { name: "Platform Reviews", slug: "platform-reviews" });
      await createPost(db, {
        slug: "platform-reviews",
        title: "How to Compare Cam Platforms",
        category: category.slug,
        content: "<p>Compare.</p><script>alert(1)</script>",
      });
    },
    status: 200,
    contains: { title: expect.stringContaining("Compare Cam Platforms"), category: "platform-reviews" },
    notContains: ["<script"],
  },
  ...[DRAFT, "no-such-post", "%3Cscript%3E", "a%2F..%2F..%2Fsettings"].map(
    (slug): Scenario => ({
      name: `${slug}: 404 JSON`,
      path: `/api/blog/post/${slug}`,
      setup: ({ db }) => somePosts(db),
      status: 404,
      json: { error: "No published post with that slug." },
    }),
  ),
  {
    name: "a post is sanitised when served even if stored dirty",
    path: "/api/blog/post/dirty",
    setup: ({ db }) =>
      createPost(db, { slug: "dirty", content: "<p>ok</p><script>alert(1)</script><img src=x onerror=alert(1)>" }),
    status: 200,
    contains: { content: '<p>ok</p><img alt="" src="x" loading="lazy" />' },
  },
]);

const ipsum = (words: string) => `<p>${"Plain words that say little on their own. ".repeat(40)}${words}</p>`;

type Page = { posts: { slug: string; title: string; passage?: string }[]; total: number; page: number; pages: number };

describe("the list's pages and search", () => {
  test("twelve a page, newest first; page 2 holds the rest; a page after the last is a 404", async () => {
    const api = await scenarioApp();
    for (let i = 1; i <= 14; i++)
      await createPost(api.db, { slug: `p${i}`, createdAt: new Date(Date.UTC(2026, 0, i)) });
    const first = (await api.check({ path: "/api/blog/posts", status: 200 })).json<Page>();
    expect(first.posts.map((p) => p.slug)).toEqual([
      "p14",
      "p13",
      "p12",
      "p11",
      "p10",
      "p9",
      "p8",
      "p7",
      "p6",
      "p5",
      "p4",
      "p3",
    ]);
    expect({ total: first.total, pages: first.pages }).toEqual({ total: 14, pages: 2 });
    const second = (await api.check({ path: "/api/blog/posts?page=2", status: 200 })).json<Page>();
    expect(second.posts.map((p) => p.slug)).toEqual(["p2", "p1"]);
    expect(second.page).toBe(2);
    // A page after the last says how many there are.
    expect((await api.check({ path: "/api/blog/posts?page=3", status: 404 })).json()).toEqual({
      error: "There is no page 3: the list has 2 pages.",
    });
  });

  test("an empty blog's first page answers, empty", async () => {
    const api = await scenarioApp();
    expect((await api.check({ path: "/api/blog/posts", status: 200 })).json<Page>()).toEqual({
      posts: [],
      total: 0,
      page: 1,
      pages: 1,
    });
  });

  test.each(["0", "-1", "abc", "1.5", "100000", "01", ""])(
    "page=%p is a 422 that says what a page is",
    async (page) => {
      const api = await scenarioApp();
      const res = await api.check({ path: `/api/blog/posts?page=${page}`, status: 422 });
      expect(res.text).toContain("Page is a whole number from 1");
    },
  );

  test("a search longer than 200 characters is a 422", async () => {
    const api = await scenarioApp();
    const res = await api.check({ path: `/api/blog/posts?q=${"a".repeat(201)}`, status: 422 });
    expect(res.text).toContain("at most 200 characters");
  });

  test("a category's page holds its posts only", async () => {
    const api = await scenarioApp();
    await somePosts(api.db);
    const page = (await api.check({ path: "/api/blog/posts?category=tips-and-tricks", status: 200 })).json<Page>();
    expect(page.posts.map((p) => p.slug)).toEqual(["middle", "oldest"]);
    expect(page.total).toBe(2);
  });

  test("search: any word, in any order, as the start of a word, stemmed; the posts holding most words first; drafts never", async () => {
    const api = await scenarioApp();
    await createPost(api.db, {
      slug: "in-title",
      title: "How to make money on camera",
      createdAt: new Date("2026-01-01"),
    });
    await createPost(api.db, {
      slug: "in-excerpt",
      excerpt: "Money you make in a week, counted.",
      createdAt: new Date("2026-01-02"),
    });
    await createPost(api.db, {
      slug: "in-text",
      content: ipsum("Most models make their money from tips."),
      createdAt: new Date("2026-01-03"),
    });
    await createPost(api.db, {
      slug: "stemmed",
      content: ipsum("What she earned in her first month."),
      createdAt: new Date("2026-01-04"),
    });
    await createPost(api.db, {
      slug: "one-word",
      content: ipsum("Money alone is not the point."),
      createdAt: new Date("2026-01-05"),
    });
    await createPost(api.db, { slug: "draft", title: "Make money drafts", published: false });
    const found = async (q: string) =>
      (await api.check({ path: `/api/blog/posts?q=${encodeURIComponent(q)}`, status: 200 })).json<Page>();
    const slugs = async (q: string) => (await found(q)).posts.map((p) => p.slug);

    // Both words, either order: the title ranks first, then the excerpt, then the text; a post
    // holding one of the words comes after those holding both.
    expect(await slugs("make money")).toEqual(["in-title", "in-excerpt", "in-text", "one-word"]);
    expect(await slugs("MONEY   make")).toEqual(["in-title", "in-excerpt", "in-text", "one-word"]);
    // A word's start finds it; a word's other forms too.
    // ("mon" starts "month" too.)
    expect(await slugs("mon mak")).toEqual(["in-title", "in-excerpt", "in-text", "one-word", "stemmed"]);
    expect(await slugs("earnings")).toEqual(["stemmed"]);
    expect(await slugs("drafts zebra")).toEqual([]);
    expect((await found("make money")).total).toBe(4);
    // A passage of the text shows the words found, marked; a find in the title alone has none.
    const inText = (await found("make money")).posts.find((p) => p.slug === "in-text")!;
    expect(inText.passage).toContain("\u0002make\u0003 their \u0002money\u0003");
    expect((await found("make money")).posts[0]!.passage).toBeUndefined();
  });

  test("a word typed past its stem still finds the posts it starts a word of; nothing found stays nothing", async () => {
    const api = await scenarioApp();
    await createPost(api.db, { slug: "light", title: "Lighting on a budget" });
    await createPost(api.db, { slug: "plan", title: "A plan for the week", content: ipsum("Scheduling your shows.") });
    const slugs = async (q: string) =>
      (await api.check({ path: `/api/blog/posts?q=${encodeURIComponent(q)}`, status: 200 }))
        .json<Page>()
        .posts.map((p) => p.slug);
    // "Lighting" is indexed as "light": "lighti" and "lightin" start no word of the index.
    for (const q of ["lig", "light", "lighti", "lightin", "lighting"])
      expect([q, await slugs(q)]).toEqual([q, ["light"]]);
    for (const q of ["sched", "scheduli", "schedulin", "scheduling"])
      expect([q, await slugs(q)]).toEqual([q, ["plan"]]);
    expect(await slugs("zebrafish")).toEqual([]);
  });

  test("single letters and the commonest words are not looked for; nothing left to look for finds nothing", async () => {
    const api = await scenarioApp();
    await createPost(api.db, { slug: "room", title: "How to light a small room" });
    await createPost(api.db, { slug: "other", title: "A post about something else" });
    const slugs = async (q: string) =>
      (await api.check({ path: `/api/blog/posts?q=${encodeURIComponent(q)}`, status: 200 }))
        .json<Page>()
        .posts.map((p) => p.slug);
    expect(await slugs("how to light a room")).toEqual(["room"]);
    for (const q of ["a", "a b c d e f g h", "how to the", "🎥", "'"]) expect(await slugs(q)).toEqual([]);
    await api.check({ path: "/api/blog/posts?q=a&page=2", status: 404 });
  });

  test("the index follows saves and deletions", async () => {
    const api = await scenarioApp({ admin: true });
    const created = (
      await api.check({
        who: "admin",
        path: "/api/admin/blog/post",
        method: "POST",
        body: { title: "Lamps", slug: "lamps", contentMarkdown: "Use a **softbox** for even light.", published: true },
        status: 201,
      })
    ).json<{ id: number }>();
    const slugs = async (q: string) =>
      (await api.check({ path: `/api/blog/posts?q=${q}`, status: 200 })).json<Page>().posts.map((p) => p.slug);
    expect(await slugs("softbox")).toEqual(["lamps"]);
    await api.check({
      who: "admin",
      path: `/api/admin/blog/post/${created.id}`,
      method: "PUT",
      body: { title: "Lamps", slug: "lamps", contentMarkdown: "Use a ring light.", published: true },
      status: 200,
    });
    expect(await slugs("softbox")).toEqual([]);
    expect(await slugs("ring")).toEqual(["lamps"]);
    await api.check({ who: "admin", path: `/api/admin/blog/post/${created.id}`, method: "DELETE", status: 200 });
    expect(await slugs("ring")).toEqual([]);
  });

  test.each([
    '"',
    "*",
    "money OR",
    "NEAR(a b)",
    "-money",
    "title:money",
    "a AND",
    "^",
    "'); DROP TABLE blog_posts; --",
    "\u0000",
  ])("a search with the index's syntax in it (%p) is only words", async (q) => {
    const api = await scenarioApp();
    await createPost(api.db, { slug: "money", title: "Money and a title" });
    const res = await api.check({ path: `/api/blog/posts?q=${encodeURIComponent(q)}`, status: 200 });
    // Words (operators among them) are only words: the one post, or none for a word it lacks;
    // nothing to look for (punctuation, single letters, the commonest words) finds nothing.
    // ("posts" finds the post's excerpt, "A short teaser for post …".)
    expect(res.json<Page>().total).toBe(/money|title|posts/i.test(q) ? 1 : 0);
  });
});

describe("related posts", () => {
  test("same category, published, not itself, at most three", async () => {
    const api = await scenarioApp();
    const income = await createCategory(api.db, { name: "Income Strategies", slug: "income-strategies" });
    const other = await createCategory(api.db, { name: "Tips and Tricks", slug: "tips-and-tricks" });
    for (const slug of ["taxes-for-cam-models", "pricing", "tipping", "fan-clubs", "goals"])
      await createPost(api.db, { slug, category: income.slug });
    await createPost(api.db, { slug: DRAFT, category: income.slug, published: false });
    await createPost(api.db, { slug: "lighting", category: other.slug });

    const related = (await api.check({ path: "/api/blog/post/taxes-for-cam-models/related", status: 200 })).json<
      { slug: string; category: string }[]
    >();
    expect(related.length).toBeGreaterThan(0);
    expect(related.length).toBeLessThanOrEqual(3);
    for (const r of related) {
      expect(r.category).toBe("income-strategies");
      expect(r.slug).not.toBe("taxes-for-cam-models");
    }
    const sameCategoryAsDraft = (await api.check({ path: "/api/blog/post/pricing/related", status: 200 })).json<
      { slug: string }[]
    >();
    expect(sameCategoryAsDraft.map((r) => r.slug)).not.toContain(DRAFT);
  });
});

describe("sitemap, feed and robots", () => {
  test("/sitemap.xml is an index whose parts list every public page, module and post, never a draft", async () => {
    const api = await scenarioApp({ publicUrl: SITE });
    await createPost(api.db, { slug: "platform-reviews" });
    await createPost(api.db, { slug: DRAFT, published: false });
    // Follows the index to each part, checking each is well-formed and dated (tests/support/sitemap.ts).
    const sitemap = await readSitemap(api.request, SITE);
    expect(sitemap.parts.map((p) => p.path)).toEqual(["/sitemap-pages.xml", "/sitemap-posts-1.xml"]);
    for (const path of [
      "/",
      "/quiz",
      "/learn",
      "/learn/1",
      "/learn/10",
      "/blog",
      "/blog/platform-reviews",
      "/terms",
      "/resources",
    ]) {
      expect(sitemap.locs).toContain(`${SITE}${path}`);
    }
    expect(sitemap.text).not.toContain(DRAFT);
    expect(sitemap.locs.some((l) => l.includes("/admin"))).toBe(false);
  });

  test("/blog/rss.xml is RSS 2.0 with the published posts", async () => {
    const api = await scenarioApp({ publicUrl: SITE });
    await somePosts(api.db);
    const res = await api.check({
      path: "/blog/rss.xml",
      status: 200,
      responseHeaders: { "content-type": "application/rss+xml" },
    });
    const doc = parseXml(res.text);
    expect(doc.documentElement.getAttribute("version")).toBe("2.0");
    const links = [...doc.getElementsByTagName("item")].map((i) => i.getElementsByTagName("link")[0]!.textContent!);
    expect(links).toEqual([`${SITE}/blog/newest`, `${SITE}/blog/middle`, `${SITE}/blog/oldest`]);
    expect(links.some((l) => l.includes(DRAFT))).toBe(false);
    expect(doc.getElementsByTagName("title")[0]!.textContent).toBe("Cam Guide Blog");
  });

  test("the feed carries the newest 50 public posts, however many there are", async () => {
    const api = await scenarioApp({ publicUrl: SITE });
    for (let i = 0; i < 55; i++)
      await createPost(api.db, { slug: `post-${i}`, createdAt: new Date(Date.UTC(2026, 0, 1 + i)) });
    const doc = parseXml((await api.check({ path: "/blog/rss.xml", status: 200 })).text);
    const links = [...doc.getElementsByTagName("item")].map((i) => i.getElementsByTagName("link")[0]!.textContent!);
    expect(links).toHaveLength(50);
    expect(links[0]).toBe(`${SITE}/blog/post-54`);
    expect(links.at(-1)).toBe(`${SITE}/blog/post-5`);
  });

  test("the sitemap and the feed are kept like a page: answered from memory, until the admin publishes a post, which they list at once", async () => {
    const api = await scenarioApp({ publicUrl: SITE, admin: true });
    await createPost(api.db, { slug: "platform-reviews" });
    const paths = ["/sitemap.xml", "/sitemap-posts-1.xml", "/blog/rss.xml"];
    for (const path of paths) {
      const first = await api.request(path);
      expect([path, first.status, first.headers.get("x-cache")]).toEqual([path, 200, "miss"]);
      const again = await api.request(path, { headers: { "accept-encoding": "gzip" } });
      expect([path, again.status, again.headers.get("x-cache")]).toEqual([path, 200, "hit"]);
      expect(again.headers.get("content-encoding")).toBe("gzip");
      // The same answer: an If-None-Match with its tag, in the same coding, is a 304.
      const tag = again.headers.get("etag")!;
      const conditional = { "accept-encoding": "gzip", "if-none-match": tag };
      expect((await api.request(path, { headers: conditional })).status).toBe(304);
    }
    await api.check({
      who: "admin",
      method: "POST",
      path: "/api/admin/blog/post",
      body: postInput({ title: "Freshly published", slug: "freshly-published", published: true }),
      status: 201,
    });
    const sitemap = await readSitemap(api.request, SITE);
    expect(sitemap.locs).toContain(`${SITE}/blog/freshly-published`);
    expect(await (await api.request("/blog/rss.xml")).text()).toContain(`${SITE}/blog/freshly-published`);
  });

  test("titles with markup characters are escaped in the feed", async () => {
    const api = await scenarioApp({ publicUrl: SITE });
    await createPost(api.db, { title: 'Tips & <Tricks> "quoted"' });
    const doc = parseXml((await api.check({ path: "/blog/rss.xml", status: 200 })).text);
    const titles = [...doc.getElementsByTagName("item")].map((i) => i.getElementsByTagName("title")[0]!.textContent);
    expect(titles).toContain('Tips & <Tricks> "quoted"');
  });
});

runScenarios("robots.txt with a known public address", [
  {
    name: "keeps crawlers out of the admin and the API and names the sitemap",
    app: { publicUrl: SITE },
    path: "/robots.txt",
    status: 200,
    contains: ["Disallow: /admin", "Disallow: /api/", `Sitemap: ${SITE}/sitemap.xml`],
  },
]);

runScenarios("without a known public address", [
  {
    name: "robots.txt names no sitemap",
    path: "/robots.txt",
    status: 200,
    contains: ["Disallow: /admin", "Disallow: /api/"],
    notContains: ["Sitemap:"],
  },
  {
    name: "the sitemap is not served, and says why",
    path: "/sitemap.xml",
    status: 404,
    contains: ["public address"],
  },
  {
    name: "the feed is not served, and says why",
    path: "/blog/rss.xml",
    status: 404,
    contains: ["public address"],
  },
]);
