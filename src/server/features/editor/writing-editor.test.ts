import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { eq } from "drizzle-orm";
import { content } from "#server/db/content.ts";
import { blogPosts } from "#server/features/blog/table.ts";
import { refreshShippedPages } from "#server/features/site-pages/shipped.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { htmlToMarkdown } from "#server/lib/html-to-markdown.ts";
import { readMarkdown, renderMarkdown } from "#server/lib/markdown.ts";
import type { AdminBlogPost } from "#shared/features/blog/contract.ts";
import { type AdminSitePage, SitePage } from "#shared/features/site-pages/contract.ts";
import { adminApp, SAME_ORIGIN } from "#tests/support/admin.ts";
import { offerInput, postInput } from "#tests/support/admin-inputs.ts";
import { createPost } from "#tests/support/factories.ts";

// The writing editor's server side: posts, legal pages and offer descriptions are written in
// Markdown, stored as written and as clean HTML rendered by one function, which the live
// preview uses too.

const WRITTEN = [
  "## Getting started",
  "",
  "1. Pick a **stage name**",
  "2. Read [the guide](https://example.com/guide)",
  "",
  "![A ring light](/uploads/ring-light.png)",
].join("\n");

/** Whitespace between tags and runs of spaces do not count. */
const normalise = (html: string) => html.replace(/\s+/g, " ").replace(/> </g, "><").trim();

const { content: _html, ...markdownPost } = postInput({ slug: "written-in-markdown" });
const post = { ...markdownPost, contentMarkdown: WRITTEN };

describe("a post written in Markdown", () => {
  test("is stored as written and as clean HTML; the public page shows the list, bold text, link and image", async () => {
    const t = await adminApp();
    const res = await t.asAdmin("/api/admin/blog/post", { method: "POST", json: post });
    expect(res.status).toBe(201);
    const saved = (await res.json()) as AdminBlogPost;
    expect(saved.contentMarkdown).toBe(WRITTEN);
    expect(saved.convertedFromHtml).toBe(false);
    expect(saved.content).toContain("<ol>");
    expect(saved.content).toContain("<strong>stage name</strong>");
    expect(saved.content).toContain(
      '<a href="https://example.com/guide" target="_blank" rel="noopener noreferrer nofollow">',
    );
    expect(saved.content).toMatch(/<img alt="A ring light" src="\/uploads\/ring-light.png"/);

    const [row] = await t.db.select().from(blogPosts).where(eq(blogPosts.slug, "written-in-markdown"));
    expect(row!.contentMarkdown).toBe(WRITTEN);
    expect(row!.content).toBe(saved.content);
    const page = await (await t.request("/blog/written-in-markdown")).text();
    expect(page).toContain("<strong>stage name</strong>");
    expect(page).toContain("<li>Read <a");
  });

  test("a line holding only a YouTube or Vimeo address becomes the privacy-enhanced player; an address in a sentence stays a link", async () => {
    const t = await adminApp();
    const contentMarkdown =
      "Watch this:\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n\nhttps://vimeo.com/76979871\n\nOr see https://youtu.be/dQw4w9WgXcQ later.";
    const res = await t.asAdmin("/api/admin/blog/post", { method: "POST", json: { ...post, contentMarkdown } });
    const saved = (await res.json()) as AdminBlogPost;
    expect(saved.content).toContain('<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0"');
    expect(saved.content).toContain('<iframe src="https://player.vimeo.com/video/76979871"');
    expect(saved.content).toContain('Or see <a href="https://youtu.be/dQw4w9WgXcQ"');
    const page = await t.request("/blog/written-in-markdown");
    expect(await page.text()).toContain("youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(page.headers.get("content-security-policy")).toContain("https://www.youtube-nocookie.com");
  });

  test("bad content: 422 naming the field, nothing stored", async () => {
    const t = await adminApp();
    const before = (await t.db.select({ id: blogPosts.id }).from(blogPosts)).length;
    const cases: [unknown, string][] = [
      [{ ...post, contentMarkdown: "   \n  " }, "contentMarkdown"],
      [{ ...post, contentMarkdown: 42 }, "contentMarkdown"],
      [{ ...post, contentMarkdown: "x".repeat(200_001) }, "contentMarkdown"],
      [{ ...markdownPost }, "contentMarkdown"],
      [{ ...post, contentMarkdown: "![tracker](https://evil.example/pixel.png)" }, "contentMarkdown"],
      [{ ...post, contentMarkdown: "![tracker](//evil.example/pixel.png)" }, "contentMarkdown"],
      [{ ...post, contentMarkdown: '<img src="/\\evil.example/pixel.png" alt="">' }, "contentMarkdown"],
      // Megabytes of markup from a short text would take the server seconds to clean.
      [{ ...post, contentMarkdown: ">".repeat(199_000) }, "contentMarkdown"],
      [{ ...post, contentMarkdown: "> - ".repeat(49_000) }, "contentMarkdown"],
    ];
    for (const [body, field] of cases) {
      const res = await t.asAdmin("/api/admin/blog/post", { method: "POST", json: body });
      expect(res.status).toBe(422);
      const answer = (await res.json()) as { details: { field: string; message: string }[] };
      expect(answer.details.map((d) => d.field)).toContain(field);
    }
    expect((await t.db.select({ id: blogPosts.id }).from(blogPosts)).length).toBe(before);
  });

  test("an older client's HTML content is still accepted, cleaned, and opens in the editor as Markdown", async () => {
    const t = await adminApp();
    const res = await t.asAdmin("/api/admin/blog/post", {
      method: "POST",
      json: { ...markdownPost, content: "<p>Hello <strong>there</strong><script>x()</script></p>" },
    });
    expect(res.status).toBe(201);
    const saved = (await res.json()) as AdminBlogPost;
    expect(saved.content).toBe("<p>Hello <strong>there</strong></p>");
    expect(saved.contentMarkdown).toBe("Hello **there**");
    expect(saved.convertedFromHtml).toBe(true);
  });
});

describe("a post saved before the editor (HTML only)", () => {
  const legacy = [
    "<h2>Lights</h2>",
    '<p>One <em>soft</em> light, <u>two</u> lamps and <a href="/course">the course</a>.</p>',
    "<ul><li>Key</li><li>Fill</li></ul>",
    '<figure><img src="/uploads/a.png" alt="Set-up" width="640" height="480" /><figcaption>Our set-up</figcaption></figure>',
    '<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="Lighting" width="560" height="315"></iframe>',
    "<table><thead><tr><th>Lamp</th><th>Price</th></tr></thead><tbody><tr><td>Ring</td><td>$30</td></tr></tbody></table>",
    "<blockquote><p>Light the face, not the room.</p></blockquote>",
  ].join("");

  test("opens converted to Markdown, and saving that Markdown unchanged keeps the same HTML", async () => {
    const t = await adminApp();
    const row = await createPost(t.db, { slug: "older-post", content: legacy });
    // The editor opens the post by its id.
    const opened = (await (await t.asAdmin(`/api/admin/blog/post/${row.id}`)).json()) as AdminBlogPost;
    expect(opened.convertedFromHtml).toBe(true);
    expect(opened.contentMarkdown).toContain("## Lights");
    expect(opened.contentMarkdown).toContain("- Key");
    expect(opened.contentMarkdown).toContain("<iframe");
    expect(opened.contentMarkdown).toContain("<table>");

    const { content: _c, ...fields } = postInput({ slug: "older-post", title: row.title });
    const res = await t.asAdmin(`/api/admin/blog/post/${row.id}`, {
      method: "PUT",
      json: { ...fields, contentMarkdown: opened.contentMarkdown },
    });
    expect(res.status).toBe(200);
    const saved = (await res.json()) as AdminBlogPost;
    expect(saved.convertedFromHtml).toBe(false);
    expect(normalise(saved.content)).toBe(normalise(opened.content));
  });

  test("every seeded post and page converts to Markdown and renders back to the same HTML", () => {
    const documents = [
      ...content.blogPosts.map((p) => ({ name: p.slug, html: p.content })),
      ...content.sitePages.map((p) => ({ name: p.slug, html: p.body })),
    ];
    expect(documents.length).toBeGreaterThan(10);
    for (const { name, html } of documents) {
      expect({ name, html: normalise(renderMarkdown(htmlToMarkdown(html))) }).toEqual({ name, html: normalise(html) });
    }
  });

  test("the seed stores each post's and page's Markdown source, which renders to the stored HTML", async () => {
    const t = await adminApp();
    const posts = await t.db.select().from(blogPosts);
    expect(posts.length).toBe(content.blogPosts.length);
    for (const row of posts) expect(renderMarkdown(row.contentMarkdown!)).toBe(row.content);
    for (const row of await t.db.select().from(sitePages)) expect(renderMarkdown(row.bodyMarkdown!)).toBe(row.body);
  });
});

describe("POST /api/admin/editor/preview", () => {
  test("answers the very HTML a save stores", async () => {
    const t = await adminApp();
    const res = await t.asAdmin("/api/admin/editor/preview", { method: "POST", json: { markdown: WRITTEN } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { html } = (await res.json()) as { html: string };
    const saved = (await (
      await t.asAdmin("/api/admin/blog/post", { method: "POST", json: post })
    ).json()) as AdminBlogPost;
    expect(html).toBe(saved.content);
    const preview = async (markdown: string) =>
      (
        (await (await t.asAdmin("/api/admin/editor/preview", { method: "POST", json: { markdown } })).json()) as {
          html: string;
        }
      ).html;
    expect(await preview("<script>alert(1)</script>\n\n**hi**")).toBe("<p><strong>hi</strong></p>");
    expect(await preview("")).toBe("");
  });

  test("is for the admin only, and refuses a bad body with a 422", async () => {
    const t = await adminApp();
    const guest = await t.request("/api/admin/editor/preview", {
      method: "POST",
      headers: { "content-type": "application/json", ...SAME_ORIGIN },
      body: JSON.stringify({ markdown: "hi" }),
    });
    expect(guest.status).toBe(401);
    const foreign = await t.asAdmin("/api/admin/editor/preview", {
      method: "POST",
      json: { markdown: "hi" },
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(foreign.status).toBe(403);
    for (const body of [{}, { markdown: 3 }, { markdown: "x".repeat(200_001) }, { markdown: ">".repeat(199_000) }]) {
      const res = await t.asAdmin("/api/admin/editor/preview", { method: "POST", json: body });
      expect(res.status).toBe(422);
    }
  });
});

describe("the legal pages in the editor", () => {
  const page = (t: Awaited<ReturnType<typeof adminApp>>, slug: string) =>
    t.asAdmin(`/api/admin/site-page/${slug}`).then((r) => r.json() as Promise<AdminSitePage>);

  test("are listed with their last update, saved as Markdown and clean HTML, and shown on the site", async () => {
    const t = await adminApp();
    const list = (await (await t.asAdmin("/api/admin/site-pages")).json()) as AdminSitePage[];
    expect(list.map((p) => p.slug)).toEqual(["privacy", "terms"]);
    expect(list.every((p) => !Number.isNaN(Date.parse(p.updatedAt)))).toBe(true);
    const terms = await page(t, "terms");
    expect(terms.convertedFromHtml).toBe(false);
    const bodyMarkdown = `${terms.bodyMarkdown}\n\n## Our own rule\n\nBe **kind** to {{brand}}'s readers.`;
    const res = await t.asAdmin("/api/admin/site-page/terms", {
      method: "PUT",
      json: { title: "Terms of use", description: terms.description, bodyMarkdown },
    });
    expect(res.status).toBe(200);
    const saved = (await res.json()) as AdminSitePage;
    expect(saved.bodyMarkdown).toBe(bodyMarkdown);
    expect(saved.body).toContain("<h2>Our own rule</h2>");
    expect(Date.parse(saved.updatedAt)).toBeGreaterThanOrEqual(Date.parse(terms.updatedAt));
    const html = await (await t.request("/terms")).text();
    expect(html).toContain("Terms of use");
    expect(html).toContain("<strong>kind</strong>");
    expect(html).not.toContain("{{brand}}");
  });

  test("bad input is a 4xx and changes nothing", async () => {
    const t = await adminApp();
    const terms = await page(t, "terms");
    const good = { title: terms.title, description: terms.description, bodyMarkdown: "Text" };
    expect((await t.asAdmin("/api/admin/site-page/nope", { method: "PUT", json: good })).status).toBe(404);
    expect((await t.asAdmin("/api/admin/site-page/nope")).status).toBe(404);
    for (const body of [
      { ...good, description: "short" },
      { ...good, title: "" },
      { ...good, bodyMarkdown: " " },
      { ...good, bodyMarkdown: "![x](https://evil.example/x.png)" },
    ]) {
      expect((await t.asAdmin("/api/admin/site-page/terms", { method: "PUT", json: body })).status).toBe(422);
    }
    expect(await page(t, "terms")).toEqual(terms);
    const guest = await t.request("/api/admin/site-pages");
    expect(guest.status).toBe(401);
  });

  test("a page saved from the admin is never replaced by a shipped text on upgrade, even one that reads the same", async () => {
    const t = await adminApp();
    const shipped = content.sitePages.find((p) => p.slug === "privacy")!;
    // The privacy page as the release before visit counts shipped it, found on upgrade, then
    // opened in the editor and saved unchanged.
    const older = readMarkdown(
      "privacy.md",
      await Bun.file(`${import.meta.dir}/../../../../tests/fixtures/privacy-before-counting.md`).text(),
      Type.Pick(SitePage, ["slug", "title", "description"]),
    ).html;
    await t.db.update(sitePages).set({ body: older, bodyMarkdown: null }).where(eq(sitePages.slug, "privacy"));
    const opened = await page(t, "privacy");
    expect(opened.convertedFromHtml).toBe(true);
    const res = await t.asAdmin("/api/admin/site-page/privacy", {
      method: "PUT",
      json: { title: opened.title, description: opened.description, bodyMarkdown: opened.bodyMarkdown },
    });
    expect(res.status).toBe(200);
    expect(await refreshShippedPages(t.db, content.sitePages)).toEqual([]);
    const [row] = await t.db.select().from(sitePages).where(eq(sitePages.slug, "privacy"));
    expect(row!.bodyMarkdown).toBe(opened.bodyMarkdown);
    expect(normalise(row!.body)).toBe(normalise(older));
    expect(row!.body).not.toBe(shipped.body);
  });
});

describe("offer descriptions", () => {
  test("are saved as Markdown and clean HTML; the public offer carries the HTML", async () => {
    const t = await adminApp();
    const description = "A **big** discount:\n\n- lights\n- [microphones](https://example.com/mics)";
    const res = await t.asAdmin("/api/admin/affiliate-offer", {
      method: "POST",
      json: offerInput({ description, moduleId: 2 }),
    });
    expect(res.status).toBe(201);
    const offers = (await (await t.request("/api/module/2/affiliate-offers")).json()) as {
      description: string;
      descriptionHtml: string | null;
    }[];
    const offer = offers.find((o) => o.description === description)!;
    expect(offer.descriptionHtml).toContain("<strong>big</strong>");
    expect(offer.descriptionHtml).toContain("<ul>");
  });
});
