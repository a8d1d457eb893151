// The blog as the first HTML response holds it, read through the parsed page.
import { describe, expect, test } from "bun:test";
import { within } from "@testing-library/dom";
import type { Db } from "#server/db/types.ts";
import { siteApp } from "#tests/support/app.ts";
import { createCategory, createPost, createSitePage } from "#tests/support/factories.ts";
import { renderPage } from "#tests/support/page.ts";
import { readSitemap } from "#tests/support/sitemap.ts";

const DRAFT = "your-first-week-on-camera";
const TAXES = "Taxes for Cam Models: Set-Asides, Records and Staying Ahead";
const LIGHTING = "Lighting on a Budget: Look Great on Camera Without Expensive Gear";
const PLATFORMS = "How to Compare Cam Platforms: Payouts, Audience & Safety";
const SAFELY = "How to Start Camming Safely: Your First Month's Plan";

/** Four categories, five published posts (one with every meta field) and a draft. */
async function blog(db: Db) {
  for (const [name, slug] of [
    ["Getting Started", "getting-started"],
    ["Income Strategies", "income-strategies"],
    ["Platform Reviews", "platform-reviews"],
    ["Tips and Tricks", "tips-and-tricks"],
  ]) {
    await createCategory(db, { name, slug });
  }
  await createPost(db, {
    title: TAXES,
    slug: "taxes-for-cam-models",
    category: "income-strategies",
    excerpt: "Set aside money from every payout.",
    metaDescription: "Taxes for new cam models: set aside 25–30% of every payout and keep records.",
    metaKeywords: "cam model taxes, self-employment",
    coverImage: "/seed/blog/taxes-for-cam-models.jpg",
    content: `<p>${"Plan ahead. ".repeat(300)}</p><h2>Set aside 25–30% of every payout</h2>`,
    createdAt: new Date("2026-02-14T10:00:00Z"),
  });
  await createPost(db, { title: "Building a Tip Menu That Works", slug: "tip-menu", category: "income-strategies" });
  await createPost(db, {
    title: LIGHTING,
    slug: "lighting-on-a-budget",
    category: "tips-and-tricks",
    excerpt: "Window light beats expensive gear.",
  });
  await createPost(db, { title: PLATFORMS, slug: "platform-reviews", category: "platform-reviews" });
  await createPost(db, { title: SAFELY, slug: "how-to-start-camming-safely", category: "getting-started" });
  await createPost(db, {
    title: "Your First Week on Camera",
    slug: DRAFT,
    category: "getting-started",
    published: false,
  });
}

const SITE = "https://guide.example.com";

/** The blog, on a site whose public address is known (PUBLIC_URL). */
async function blogApp(publicUrl: string | null = SITE) {
  const app = await siteApp({ publicUrl });
  await blog(app.db);
  return app;
}

describe("/blog", () => {
  test("the list with its articles, title, meta, feed link and social tags", async () => {
    const { request } = await blogApp();
    const page = await renderPage(request, "/blog");
    expect(page.status).toBe(200);
    expect(page.title).toBe("Webcam Model Blog | Cam Guide");
    const main = page.main();
    expect(main.getByRole("heading", { level: 1, name: "Cam Model Resources & Guides" })).toBeTruthy();
    expect(
      main.getByText("Expert advice, platform reviews, and income strategies to help you succeed as a webcam model."),
    ).toBeTruthy();
    expect(main.getByRole("searchbox", { name: "Search articles" }).getAttribute("placeholder")).toBe(
      "Search articles...",
    );
    expect(main.getByText("Filter by:")).toBeTruthy();
    for (const title of [TAXES, LIGHTING, PLATFORMS, SAFELY])
      expect(main.getByRole("heading", { name: title })).toBeTruthy();
    expect(page.html).not.toContain(DRAFT);
    expect(page.document.querySelector('link[rel="alternate"][type="application/rss+xml"]')).not.toBeNull();
    expect(page.link("canonical")).toBe(`${SITE}/blog`);
    expect(page.meta("og:title")).toBe("Webcam Model Blog | Cam Guide");
    expect(page.meta("twitter:card")).toBe("summary_large_image");
    expect(main.getByRole("link", { name: "Platform Reviews" }).getAttribute("href")).toBe(
      "/blog?category=platform-reviews",
    );
    // With no filter on, "Clear filters" rests: no link, hidden from sight and screen readers,
    // its place kept so the chips do not move when a search starts.
    expect(main.queryByRole("link", { name: "Clear filters" })).toBeNull();
    const resting = page.document.querySelector(".clear-link");
    expect([resting?.tagName, resting?.className, resting?.getAttribute("aria-hidden")]).toEqual([
      "SPAN",
      "clear-link idle",
      "true",
    ]);
  });

  test("a first request with ?category= is rendered already filtered", async () => {
    const { request } = await blogApp();
    const page = await renderPage(request, "/blog?category=income-strategies");
    // The rendered page, not the query cache that travels with it.
    const main = page.main();
    expect(main.getByRole("heading", { name: TAXES })).toBeTruthy();
    expect(main.queryByRole("heading", { name: LIGHTING })).toBeNull();
    expect(main.getByRole("button", { name: "Income Strategies", pressed: true })).toBeTruthy();
    expect(main.getByRole("link", { name: "Clear filters" }).getAttribute("href")).toBe("/blog");
    // Each category is a link, so the filter works without scripts: the active one unfilters.
    expect(main.getByRole("button", { name: "Income Strategies" }).getAttribute("href")).toBe("/blog");
    expect(main.getByRole("button", { name: "Platform Reviews", pressed: false }).getAttribute("href")).toBe(
      "/blog?category=platform-reviews",
    );
  });

  test("a first request with ?q= is rendered already searched: every word, in any order", async () => {
    const { request } = await blogApp();
    const page = await renderPage(request, "/blog?q=BUDGET%20window&utm=1");
    const main = page.main();
    // Headings by their text: the words found are marked (<mark>), which the library's name
    // computation pads with spaces where a browser does not.
    const titles = main.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(titles).toEqual([LIGHTING]);
    // The words found are marked in the title and the excerpt.
    expect([...page.html.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => m[1])).toEqual(["Budget", "Window"]);
    // The search box holds the search, in a form that sends it to the server without scripts.
    const box = main.getByRole("searchbox", { name: "Search articles" }) as HTMLInputElement;
    expect(box.getAttribute("value")).toBe("BUDGET window");
    expect(box.getAttribute("name")).toBe("q");
    const form = box.closest("form");
    expect([form?.getAttribute("method"), form?.getAttribute("action")]).toEqual(["get", "/blog"]);
    expect(main.getByRole("link", { name: "Clear filters" }).getAttribute("href")).toBe("/blog");
    // A search is not a page of its own for search engines.
    expect(page.link("canonical")).toBe(`${SITE}/blog`);
  });

  test("pages of twelve, linked both ways without scripts; a page after the last is a 404 that leads back", async () => {
    const { request, db } = await siteApp({ publicUrl: SITE });
    for (let i = 1; i <= 26; i++)
      await createPost(db, { title: `Article number ${i}`, slug: `a${i}`, createdAt: new Date(Date.UTC(2026, 0, i)) });
    const first = await renderPage(request, "/blog");
    const titles = (page: typeof first) =>
      page
        .main()
        .getAllByRole("heading", { level: 2 })
        .map((h) => h.textContent);
    expect(titles(first)).toHaveLength(12);
    expect(titles(first)[0]).toBe("Article number 26");
    const pages = first.main().getByRole("navigation", { name: "Blog pages" });
    expect(pages.textContent).toContain("Page 1 of 3");
    // Each page by its number too; the current one is marked, not a link.
    expect(pages.querySelector('[aria-current="page"]')?.textContent).toBe("Page 1 of 3");
    expect(within(pages).getByRole("link", { name: "Page 2" }).getAttribute("href")).toBe("/blog?page=2");
    expect(within(pages).getByRole("link", { name: "Page 3" }).getAttribute("href")).toBe("/blog?page=3");
    expect(within(pages).queryByRole("link", { name: "Page 1" })).toBeNull();
    expect(first.main().getByRole("link", { name: "Next page →" }).getAttribute("href")).toBe("/blog?page=2");
    expect(first.main().queryByRole("link", { name: "← Previous page" })).toBeNull();

    const second = await renderPage(request, "/blog?page=2");
    expect(second.status).toBe(200);
    expect(titles(second)[0]).toBe("Article number 14");
    expect(second.main().getByRole("link", { name: "← Previous page" }).getAttribute("href")).toBe("/blog");
    expect(second.main().getByRole("link", { name: "Next page →" }).getAttribute("href")).toBe("/blog?page=3");
    const secondPages = second.main().getByRole("navigation", { name: "Blog pages" });
    expect(within(secondPages).getByRole("link", { name: "Page 1" }).getAttribute("href")).toBe("/blog");
    expect(second.title).toContain("page 2");
    expect(second.link("canonical")).toBe(`${SITE}/blog?page=2`);
    expect(titles(await renderPage(request, "/blog?page=3"))).toHaveLength(2);

    const after = await renderPage(request, "/blog?page=4");
    expect(after.status).toBe(404);
    expect(after.main().getByRole("heading", { name: "No page 4 here" })).toBeTruthy();
    expect(after.main().getByRole("link", { name: "Go to the first page" }).getAttribute("href")).toBe("/blog");
    // A page number that is not one shows the first page.
    expect(titles(await renderPage(request, "/blog?page=abc"))[0]).toBe("Article number 26");
  });

  test("a category's button keeps the search and starts again at page 1", async () => {
    const { request } = await blogApp();
    const main = (await renderPage(request, "/blog?q=gear&page=1")).main();
    expect(main.getByRole("button", { name: "Tips and Tricks" }).getAttribute("href")).toBe(
      "/blog?category=tips-and-tricks&q=gear",
    );
  });

  test("a search within a category keeps the category in the form and matches inside it only", async () => {
    const { request } = await blogApp();
    const page = await renderPage(request, "/blog?category=income-strategies&q=payout");
    const main = page.main();
    expect(main.getByRole("heading", { name: TAXES })).toBeTruthy();
    expect(main.queryByRole("heading", { name: LIGHTING })).toBeNull();
    // The category goes with the search: a field of the form (by its form attribute, outside it).
    const form = main.getByRole("searchbox", { name: "Search articles" }).closest("form") as HTMLFormElement;
    const hidden = page.document.querySelector(`input[type="hidden"][name="category"][form="${form.id}"]`);
    expect([form.id, hidden?.getAttribute("value")]).toEqual(["blog-search", "income-strategies"]);
    const none = (await renderPage(request, "/blog?q=zebra%20crossing")).main();
    expect(none.getByRole("heading", { name: "No articles found" })).toBeTruthy();
  });

  test("an empty category shows the filtered empty state", async () => {
    const { request } = await blogApp();
    const main = (await renderPage(request, "/blog?category=nothing-here")).main();
    expect(main.getByRole("heading", { name: "No articles found" })).toBeTruthy();
    expect(main.getByText("Try changing your filters or search term.")).toBeTruthy();
    expect(main.getByRole("button", { name: "Clear filters" })).toBeTruthy();
    // The link beside the chips rests meanwhile: one way to clear them on screen.
    expect(main.queryByRole("link", { name: "Clear filters" })).toBeNull();
  });

  test("with no posts at all: 'Check back soon for new content!'", async () => {
    const { request, db } = await siteApp();
    await createPost(db, { published: false });
    const main = (await renderPage(request, "/blog")).main();
    expect(main.getByRole("heading", { name: "No articles found" })).toBeTruthy();
    expect(main.getByText("Check back soon for new content!")).toBeTruthy();
  });
});

describe("the RSS feed is offered only when it can answer", () => {
  test("with the public address known: in the head of the list and of an article, and linked on the list", async () => {
    const { request } = await blogApp();
    expect((await request("/blog/rss.xml")).status).toBe(200);
    for (const path of ["/blog", "/blog/taxes-for-cam-models"]) {
      const page = await renderPage(request, path);
      expect([path, page.document.querySelector('link[rel="alternate"]')?.getAttribute("href")]).toEqual([
        path,
        "/blog/rss.xml",
      ]);
    }
    const list = await renderPage(request, "/blog");
    expect(list.main().getByRole("link", { name: "RSS feed" }).getAttribute("href")).toBe("/blog/rss.xml");
  });

  test("without it the feed answers 404, and no page announces or links it", async () => {
    const { request } = await blogApp(null);
    expect((await request("/blog/rss.xml")).status).toBe(404);
    for (const path of ["/blog", "/blog/taxes-for-cam-models"]) {
      const page = await renderPage(request, path);
      expect([path, page.html.includes("rss")]).toEqual([path, false]);
    }
    const list = await renderPage(request, "/blog");
    expect(list.main().getByRole("link", { name: "Take the free quiz" }).getAttribute("href")).toBe("/quiz");
    expect(list.text).not.toContain("RSS feed");
  });
});

describe("/blog/:slug", () => {
  test("the article, its dates, meta, social card, JSON-LD and the closing banner", async () => {
    const { request } = await blogApp();
    const page = await renderPage(request, "/blog/taxes-for-cam-models");
    expect(page.status).toBe(200);
    expect(page.title).toBe(`${TAXES} | Cam Guide`);
    expect(page.meta("description")).toBe(
      "Taxes for new cam models: set aside 25–30% of every payout and keep records.",
    );
    expect(page.meta("keywords")).toBe("cam model taxes, self-employment");
    expect(page.meta("og:type")).toBe("article");
    expect(page.meta("og:image")).toBe(`${SITE}/seed/blog/taxes-for-cam-models.jpg`);
    const main = page.main();
    expect(main.getByRole("button", { name: "← Back to Blog" }).getAttribute("href")).toBe("/blog");
    expect(main.getAllByRole("link", { name: "Income Strategies" })[0]!.getAttribute("href")).toBe(
      "/blog?category=income-strategies",
    );
    expect(main.getByRole("heading", { level: 1, name: TAXES })).toBeTruthy();
    expect(page.text).toContain("February 14, 2026");
    expect(page.text).toMatch(/\d+ min read/);
    expect(main.getByRole("heading", { name: "Set aside 25–30% of every payout" })).toBeTruthy();
    expect(main.getByRole("heading", { name: "Ready to Start Your Cam Journey?" })).toBeTruthy();
    expect(main.getByText("Discover your unique cam girl archetype and learn how much you could earn.")).toBeTruthy();
    expect(main.getByRole("button", { name: "Take the Free Quiz" }).getAttribute("href")).toBe("/quiz");
    const data = JSON.parse(page.document.querySelector('script[type="application/ld+json"]')!.textContent!);
    expect(data[0]["@type"]).toBe("BlogPosting");
    expect(data[0].headline).toBe(TAXES);
    expect(data[0].mainEntityOfPage).toBe(`${SITE}/blog/taxes-for-cam-models`);
    expect(data[1]["@type"]).toBe("BreadcrumbList");
    expect(main.getByRole("heading", { name: "Related articles" })).toBeTruthy();
  });

  test("meta falls back to the excerpt, then to a generic sentence and default keywords", async () => {
    const { request, db } = await siteApp();
    await createPost(db, {
      slug: "with-excerpt",
      excerpt: "Window light beats expensive gear, and it's free.",
      metaDescription: null,
      metaKeywords: null,
    });
    await createPost(db, { slug: "bare", excerpt: null, metaDescription: null, metaKeywords: null });
    const page = await renderPage(request, "/blog/with-excerpt");
    expect(page.meta("description")).toBe("Window light beats expensive gear, and it's free.");
    expect(page.meta("keywords")).toStartWith("cam model tips,");
    expect((await renderPage(request, "/blog/bare")).meta("description")).toStartWith(
      "Practical, honest guides for new webcam models",
    );
  });

  test.each([DRAFT, "no-such-post"])("%s: a real redirect to /blog", async (slug) => {
    const { request } = await blogApp();
    const res = await request(`/blog/${slug}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/blog");
  });

  test("/blog/platform-reviews falls back to the category when that post does not exist", async () => {
    const { request, sqlite } = await blogApp();
    // (The API, not the page: a page rendered now would be cached, and the change below is
    // made behind the admin's back, so nothing would empty the cache.)
    expect((await request("/api/blog/post/platform-reviews")).status).toBe(200);
    sqlite.run("UPDATE blog_posts SET published = 0 WHERE slug = 'platform-reviews'");
    const res = await request("/blog/platform-reviews");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/blog?category=platform-reviews");
  });

  test("the draft leaks through no page", async () => {
    const { request } = await blogApp();
    for (const path of [
      "/",
      "/blog",
      "/blog?category=getting-started",
      "/blog/how-to-start-camming-safely",
      "/blog/rss.xml",
      "/resources",
    ]) {
      expect([path, (await (await request(path)).text()).includes(DRAFT)]).toEqual([path, false]);
    }
    // The sitemap: its index and every part it lists (the published posts are there, the draft is not).
    const sitemap = await readSitemap(request, SITE);
    expect(sitemap.locs).toContain(`${SITE}/blog/how-to-start-camming-safely`);
    expect(sitemap.text).not.toContain(DRAFT);
  });
});

describe("social tags on every public page", () => {
  test.each(["/", "/quiz", "/learn", "/learn/3", "/learn-more", "/resources", "/terms"])(
    "%s has canonical, Open Graph and Twitter tags",
    async (path) => {
      const { request, db } = await siteApp({ publicUrl: SITE });
      await createSitePage(db, { slug: "terms", title: "Terms of Service" });
      const page = await renderPage(request, path);
      expect(page.link("canonical")).toBe(`${SITE}${path}`);
      expect(page.meta("og:url")).toBe(`${SITE}${path}`);
      expect(page.meta("og:title")).not.toBeNull();
      expect(page.meta("og:image")).toBe(`${SITE}/seed/social-card.jpg`);
      expect(page.meta("twitter:card")).toBe("summary_large_image");
    },
  );

  test("without a known public address: a relative canonical link, and no tag that needs an absolute URL", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/learn", { headers: { host: "evil.example" } });
    expect(page.link("canonical")).toBe("/learn");
    expect([page.meta("og:url"), page.meta("og:image"), page.meta("twitter:image")]).toEqual([null, null, null]);
    expect(page.meta("og:title")).not.toBeNull();
    expect(page.html).not.toContain("evil.example");
    expect(page.html).not.toContain("http://localhost");
  });

  test("a post's structured data leaves out its URLs when the address is not known", async () => {
    const { request, db } = await siteApp();
    await createPost(db, { slug: "plain", coverImage: "/seed/blog/x.jpg" });
    const page = await renderPage(request, "/blog/plain");
    const data = JSON.parse(page.document.querySelector('script[type="application/ld+json"]')!.textContent!);
    expect(data).toHaveLength(1);
    expect(data[0].mainEntityOfPage).toBeUndefined();
    expect(data[0].image).toBeUndefined();
  });

  test("PUBLIC_URL is used for canonical links when set", async () => {
    const { request, db } = await siteApp({ publicUrl: "https://guide.example.com" });
    await createPost(db, { slug: "platform-reviews" });
    expect((await renderPage(request, "/blog")).link("canonical")).toBe("https://guide.example.com/blog");
    const sitemap = await readSitemap(request, "https://guide.example.com");
    expect(sitemap.parts.map((p) => p.loc)).toEqual([
      "https://guide.example.com/sitemap-pages.xml",
      "https://guide.example.com/sitemap-posts-1.xml",
    ]);
    expect(sitemap.locs).toContain("https://guide.example.com/blog/platform-reviews");
  });
});
