import { describe, expect, test } from "bun:test";
import type { Db } from "#server/db/types.ts";
import { createCategory, createPost } from "#tests/support/factories.ts";
import { parseXml } from "#tests/support/page.ts";
import { runScenarios, type Scenario, scenarioApp } from "#tests/support/scenario.ts";

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
    contains: [{ slug: "newest" }, { slug: "middle" }, { slug: "oldest" }],
    notContains: [DRAFT],
    check: (res) => {
      const posts = res.json<Record<string, unknown>[]>();
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
  test("/sitemap.xml parses and lists every public page, module and published post, never a draft", async () => {
    const api = await scenarioApp({ publicUrl: SITE });
    await createPost(api.db, { slug: "platform-reviews" });
    await createPost(api.db, { slug: DRAFT, published: false });
    const res = await api.check({
      path: "/sitemap.xml",
      status: 200,
      responseHeaders: { "content-type": "application/xml" },
    });
    const doc = parseXml(res.text);
    const locs = [...doc.getElementsByTagName("loc")].map((l) => l.textContent!);
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
      expect(locs).toContain(`${SITE}${path}`);
    }
    expect(locs.some((l) => l.includes(DRAFT))).toBe(false);
    expect(locs.some((l) => l.includes("/admin"))).toBe(false);
    for (const lastmod of doc.getElementsByTagName("lastmod"))
      expect(lastmod.textContent).toMatch(/^\d{4}-\d{2}-\d{2}$/);
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
