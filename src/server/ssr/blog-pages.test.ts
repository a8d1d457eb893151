// The blog as the first HTML response holds it (SPEC 2, issue 5).
import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";

const text = (html: string) => html.replaceAll("<!-- -->", "");
const DRAFT = "your-first-week-on-camera";

describe("/blog", () => {
  test("the list with its articles, title, meta, feed link and social tags", async () => {
    const { request, database } = testApp();
    const res = await request("/blog");
    expect(res.status).toBe(200);
    const body = text(await res.text());
    expect(body).toContain("<title>Webcam Model Blog | Cam Guide</title>");
    expect(body).toContain("Cam Model Resources &amp; Guides");
    expect(body).toContain("Expert advice, platform reviews, and income strategies to help you succeed as a webcam model.");
    expect(body).toContain('placeholder="Search articles..."');
    expect(body).toContain("Filter by:");
    const titles = database.sqlite.query("SELECT title FROM blog_posts WHERE published = 1").all() as { title: string }[];
    for (const { title } of titles) expect(body).toContain(title.replace(/&/g, "&amp;").replace(/'/g, "&#x27;"));
    expect(body).not.toContain(DRAFT);
    expect(body).toContain('<link rel="alternate" type="application/rss+xml"');
    expect(body).toContain('<link rel="canonical" href="http://localhost/blog"/>');
    expect(body).toContain('<meta property="og:title" content="Webcam Model Blog | Cam Guide"/>');
    expect(body).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(body).toContain('href="/blog?category=platform-reviews"');
    expect(body).not.toContain("Clear filters");
  });

  test("a first request with ?category= is rendered already filtered", async () => {
    const { request } = testApp();
    const html = text(await (await request("/blog?category=income-strategies")).text());
    // The rendered page, not the query cache that travels with it.
    const body = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(body).toContain("Taxes for Cam Models");
    expect(body).not.toContain("Lighting on a Budget");
    expect(body).toContain('aria-pressed="true"');
    expect(body).toContain("Clear filters");
  });

  test("an empty category shows the filtered empty state", async () => {
    const { request } = testApp();
    const body = text(await (await request("/blog?category=nothing-here")).text());
    expect(body).toContain("No articles found");
    expect(body).toContain("Try changing your filters or search term.");
    expect(body).toContain("Clear Filters");
  });

  test("with no posts at all: 'Check back soon for new content!'", async () => {
    const { request, database } = testApp();
    database.sqlite.run("UPDATE blog_posts SET published = 0");
    const body = text(await (await request("/blog")).text());
    expect(body).toContain("No articles found");
    expect(body).toContain("Check back soon for new content!");
  });
});

describe("/blog/:slug", () => {
  test("the article, its dates, meta, social card, JSON-LD and the closing banner", async () => {
    const { request, database } = testApp();
    const res = await request("/blog/taxes-for-cam-models");
    expect(res.status).toBe(200);
    const body = text(await res.text());
    const row = database.sqlite.query("SELECT title, meta_description AS d, meta_keywords AS k, created_at AS c FROM blog_posts WHERE slug = 'taxes-for-cam-models'").get() as {
      title: string;
      d: string;
      k: string;
      c: number;
    };
    expect(body).toContain(`<title>${row.title} | Cam Guide</title>`);
    expect(body).toContain(`<meta name="description" content="${row.d}"/>`);
    expect(body).toContain(`<meta name="keywords" content="${row.k}"/>`);
    expect(body).toContain('<meta property="og:type" content="article"/>');
    expect(body).toContain('<meta property="og:image" content="http://localhost/seed/blog/taxes-for-cam-models.jpg"/>');
    expect(body).toContain("← Back to Blog");
    expect(body).toContain("Income Strategies");
    expect(body).toMatch(/[A-Z][a-z]+ \d{1,2}, 2026/);
    expect(body).toMatch(/\d+ min read/);
    expect(body).toContain("25–30%");
    expect(body).toContain("Ready to Start Your Cam Journey?");
    expect(body).toContain("Discover your unique cam girl archetype and learn how much you could earn.");
    expect(body).toContain("Take the Free Quiz");
    const ld = /<script type="application\/ld\+json">(.+?)<\/script>/.exec(body)![1]!;
    const data = JSON.parse(ld);
    expect(data[0]["@type"]).toBe("BlogPosting");
    expect(data[0].headline).toBe(row.title);
    expect(data[1]["@type"]).toBe("BreadcrumbList");
    expect(body).toContain("Related articles");
  });

  test("meta falls back to the excerpt, then to a generic sentence and default keywords", async () => {
    const { request, database } = testApp();
    database.sqlite.run("UPDATE blog_posts SET meta_description = NULL, meta_keywords = NULL WHERE slug = 'lighting-on-a-budget'");
    const excerpt = (database.sqlite.query("SELECT excerpt FROM blog_posts WHERE slug = 'lighting-on-a-budget'").get() as { excerpt: string }).excerpt;
    const body = text(await (await request("/blog/lighting-on-a-budget")).text());
    expect(body).toContain(`<meta name="description" content="${excerpt.replace(/'/g, "&#x27;")}"/>`);
    expect(body).toContain('<meta name="keywords" content="cam model tips,');
    database.sqlite.run("UPDATE blog_posts SET excerpt = NULL WHERE slug = 'lighting-on-a-budget'");
    // A new address: the first answer is cached, and this edit bypassed the admin API.
    const bare = text(await (await request("/blog/lighting-on-a-budget?v=2")).text());
    expect(bare).toContain('<meta name="description" content="Practical, honest guides for new webcam models');
  });

  test.each([DRAFT, "no-such-post"])("%s: a real redirect to /blog", async (slug) => {
    const { request } = testApp();
    const res = await request(`/blog/${slug}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/blog");
  });

  test("/blog/platform-reviews falls back to the category when that post does not exist", async () => {
    const { request, database } = testApp();
    // (A query string keeps this first answer out of the way of the cached page below.)
    expect((await request("/blog/platform-reviews?first")).status).toBe(200);
    database.sqlite.run("UPDATE blog_posts SET published = 0 WHERE slug = 'platform-reviews'");
    const res = await request("/blog/platform-reviews");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/blog?category=platform-reviews");
  });

  test("the draft leaks through no page", async () => {
    const { request } = testApp();
    for (const path of ["/", "/blog", "/blog?category=getting-started", "/blog/how-to-start-camming-safely", "/sitemap.xml", "/blog/rss.xml", "/resources"]) {
      expect([path, (await (await request(path)).text()).includes(DRAFT)]).toEqual([path, false]);
    }
  });
});

describe("social tags on every public page", () => {
  test.each(["/", "/quiz", "/learn", "/learn/3", "/learn-more", "/resources", "/terms"])("%s has canonical, Open Graph and Twitter tags", async (path) => {
    const { request } = testApp();
    const body = await (await request(path)).text();
    expect(body).toContain(`<link rel="canonical" href="http://localhost${path}"/>`);
    expect(body).toContain('<meta property="og:title"');
    expect(body).toContain('<meta property="og:image" content="http://localhost/seed/social-card.jpg"/>');
    expect(body).toContain('<meta name="twitter:card" content="summary_large_image"/>');
  });

  test("PUBLIC_URL is used for canonical links when set", async () => {
    const { openMemoryDatabase } = await import("#server/db/client.ts");
    const { seedDatabase } = await import("#server/db/seed.ts");
    const { createApp } = await import("#server/app.ts");
    const { loadAssets } = await import("./assets.ts");
    const { memoryLogger } = await import("#server/logger.ts");
    const database = openMemoryDatabase();
    await seedDatabase(database);
    const app = createApp({ database, secret: "x".repeat(40), uploadsDir: "/tmp/unused-uploads", config: { publicUrl: "https://guide.example.com" }, assets: loadAssets(), logger: memoryLogger() });
    const body = await (await app.handle(new Request("http://localhost/blog"))).text();
    expect(body).toContain('<link rel="canonical" href="https://guide.example.com/blog"/>');
    const sitemap = await (await app.handle(new Request("http://localhost/sitemap.xml"))).text();
    expect(sitemap).toContain("<loc>https://guide.example.com/blog/platform-reviews</loc>");
  });
});
