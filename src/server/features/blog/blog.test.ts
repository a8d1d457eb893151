import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";

const DRAFT = "your-first-week-on-camera";

describe("blog API", () => {
  test("GET /api/blog/posts: published only, newest first, no drafts", async () => {
    const { request, database } = testApp();
    const posts = await (await request("/api/blog/posts")).json();
    const published = database.sqlite.query("SELECT count(*) AS n FROM blog_posts WHERE published = 1").get() as { n: number };
    expect(posts).toHaveLength(published.n);
    expect(posts.length).toBeGreaterThanOrEqual(8);
    expect(posts.map((p: { slug: string }) => p.slug)).not.toContain(DRAFT);
    const dates = posts.map((p: { createdAt: string }) => p.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(posts[0].readingMinutes).toBeGreaterThanOrEqual(3);
    // The list carries no article bodies.
    expect(posts[0].content).toBeUndefined();
  });

  test("GET /api/blog/categories: the four categories", async () => {
    const { request } = testApp();
    const categories = await (await request("/api/blog/categories")).json();
    expect(categories.map((c: { slug: string }) => c.slug).sort()).toEqual(["getting-started", "income-strategies", "platform-reviews", "tips-and-tricks"]);
  });

  test("GET /api/blog/post/:slug: a published post, sanitised", async () => {
    const { request } = testApp();
    const post = await (await request("/api/blog/post/platform-reviews")).json();
    expect(post.title).toContain("Compare Cam Platforms");
    expect(post.category).toBe("platform-reviews");
    expect(post.content).not.toContain("<script");
  });

  test.each([DRAFT, "no-such-post", "%3Cscript%3E", "a%2F..%2F..%2Fsettings"])("GET /api/blog/post/%s: 404 JSON", async (slug) => {
    const { request } = testApp();
    const res = await request(`/api/blog/post/${slug}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "No published post with that slug." });
  });

  test("a post is sanitised when served even if stored dirty", async () => {
    const { request, database } = testApp();
    database.sqlite.run("UPDATE blog_posts SET content = '<p>ok</p><script>alert(1)</script><img src=x onerror=alert(1)>' WHERE slug = 'platform-reviews'");
    const post = await (await request("/api/blog/post/platform-reviews")).json();
    expect(post.content).toBe('<p>ok</p><img alt="" src="x" loading="lazy" />');
  });

  test("related posts: same category, published, not itself, at most three", async () => {
    const { request } = testApp();
    const related = await (await request("/api/blog/post/taxes-for-cam-models/related")).json();
    expect(related.length).toBeGreaterThan(0);
    expect(related.length).toBeLessThanOrEqual(3);
    for (const r of related) {
      expect(r.category).toBe("income-strategies");
      expect(r.slug).not.toBe("taxes-for-cam-models");
    }
    const draftCategory = await (await request("/api/blog/post/how-to-start-camming-safely/related")).json();
    expect(draftCategory.map((r: { slug: string }) => r.slug)).not.toContain(DRAFT);
  });
});

function parseXml(text: string) {
  const doc = new DOMParser().parseFromString(text, "application/xml");
  expect(doc.getElementsByTagName("parsererror")).toHaveLength(0);
  return doc;
}

describe("sitemap, feed and robots", () => {
  test("/sitemap.xml parses and lists every public page, module and published post, never a draft", async () => {
    const { request } = testApp();
    const res = await request("/sitemap.xml");
    expect(res.headers.get("content-type")).toContain("application/xml");
    const doc = parseXml(await res.text());
    const locs = [...doc.getElementsByTagName("loc")].map((l) => l.textContent!);
    for (const path of ["/", "/quiz", "/learn", "/learn/1", "/learn/10", "/blog", "/blog/platform-reviews", "/terms", "/resources"]) {
      expect(locs).toContain(`http://localhost${path}`);
    }
    expect(locs.some((l) => l.includes(DRAFT))).toBe(false);
    expect(locs.some((l) => l.includes("/admin"))).toBe(false);
    for (const lastmod of doc.getElementsByTagName("lastmod")) expect(lastmod.textContent).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test("/blog/rss.xml is RSS 2.0 with the published posts", async () => {
    const { request } = testApp();
    const res = await request("/blog/rss.xml");
    expect(res.headers.get("content-type")).toContain("application/rss+xml");
    const doc = parseXml(await res.text());
    expect(doc.documentElement.getAttribute("version")).toBe("2.0");
    const items = doc.getElementsByTagName("item");
    expect(items.length).toBeGreaterThanOrEqual(8);
    const links = [...doc.getElementsByTagName("item")].map((i) => i.getElementsByTagName("link")[0]!.textContent!);
    expect(links.some((l) => l.includes(DRAFT))).toBe(false);
    expect(doc.getElementsByTagName("title")[0]!.textContent).toBe("Cam Guide Blog");
  });

  test("titles with markup characters are escaped in the feed", async () => {
    const { request, database } = testApp();
    database.sqlite.run("UPDATE blog_posts SET title = 'Tips & <Tricks> \"quoted\"' WHERE slug = 'lighting-on-a-budget'");
    const doc = parseXml(await (await request("/blog/rss.xml")).text());
    const titles = [...doc.getElementsByTagName("item")].map((i) => i.getElementsByTagName("title")[0]!.textContent);
    expect(titles).toContain('Tips & <Tricks> "quoted"');
  });

  test("/robots.txt keeps crawlers out of the admin and the API and names the sitemap", async () => {
    const { request } = testApp();
    const text = await (await request("/robots.txt")).text();
    expect(text).toContain("Disallow: /admin");
    expect(text).toContain("Disallow: /api/");
    expect(text).toContain("Sitemap: http://localhost/sitemap.xml");
  });
});
