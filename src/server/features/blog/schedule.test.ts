// A published post with a publish date still to come stays hidden everywhere a visitor can
// look, then appears at its date without a restart: the clock is the app's own, moved by hand.
import { describe, expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";
import { postInput } from "#tests/support/admin-inputs.ts";
import { createCategory, createPost } from "#tests/support/factories.ts";
import { readSitemap } from "#tests/support/sitemap.ts";

const START = new Date("2031-03-01T10:00:00Z");
const AT = "2031-03-01T10:05:00.000Z";
const TITLE = "Scheduled Post About Ring Lights";
const SLUG = "scheduled-ring-lights";
const SITE = "https://cams.example";

async function scheduledSite() {
  let now = START;
  const site = await adminApp({ publicUrl: SITE, testHooks: { clock: () => now } });
  await createCategory(site.db, { name: "Tips", slug: "tips" });
  await createPost(site.db, { title: "An Older Public Post", slug: "older", category: "tips" });
  const res = await site.asAdmin("/api/admin/blog/post", {
    method: "POST",
    json: postInput({ title: TITLE, slug: SLUG, category: "tips", published: true, publishAt: AT }),
  });
  expect(res.status).toBe(201);
  const saved = await res.json();
  expect(saved.publishAt).toBe(AT);
  const text = async (path: string) => (await site.request(path)).text();
  return {
    ...site,
    text,
    setNow: (to: Date) => {
      now = to;
    },
  };
}

describe("a post scheduled for later", () => {
  test("is hidden from the list, the page, related posts, the sitemap and the feed before its date", async () => {
    const site = await scheduledSite();
    expect(await site.text("/api/blog/posts")).not.toContain(SLUG);
    expect((await site.request(`/api/blog/post/${SLUG}`)).status).toBe(404);
    expect((await site.request(`/api/blog/post/${SLUG}/related`)).status).toBe(404);
    expect(await site.text("/api/blog/post/older/related")).not.toContain(SLUG);
    // The page answers like a post that does not exist.
    const page = await site.request(`/blog/${SLUG}`);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/blog");
    expect(await site.text("/blog")).not.toContain(TITLE);
    // The sitemap's index and every part it lists; the older post is there, the scheduled one is not.
    const sitemap = await readSitemap(site.request, SITE);
    expect(sitemap.locs).toContain(`${SITE}/blog/older`);
    expect(sitemap.text).not.toContain(SLUG);
    expect(await site.text("/blog/rss.xml")).not.toContain(SLUG);
    // The admin still sees it, with its date.
    const { posts } = await (await site.asAdmin("/api/admin/blog/posts")).json();
    expect(posts.find((p: { slug: string }) => p.slug === SLUG)).toMatchObject({ published: true, publishAt: AT });
  });

  test("appears at its date without a restart, the cached pages included, dated by its publish date", async () => {
    const site = await scheduledSite();
    // Cache the blog list while the post is still hidden.
    expect(await site.text("/blog")).not.toContain(TITLE);
    const cached = await site.request("/blog");
    expect(cached.headers.get("x-cache")).toBe("hit");
    expect(await cached.text()).not.toContain(TITLE);

    // A minute before: still hidden, still served from the cache.
    site.setNow(new Date("2031-03-01T10:04:00Z"));
    const before = await site.request("/blog");
    expect(before.headers.get("x-cache")).toBe("hit");
    expect(await before.text()).not.toContain(TITLE);

    site.setNow(new Date(AT));
    const after = await site.request("/blog");
    expect(after.headers.get("x-cache")).toBe("miss");
    expect(await after.text()).toContain(TITLE);
    const page = await site.request(`/blog/${SLUG}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(TITLE);
    expect(html).toContain('dateTime="2031-03-01T10:05:00.000Z"');
    expect(await site.text("/api/blog/post/older/related")).toContain(SLUG);
    expect((await readSitemap(site.request, SITE)).locs).toContain(`${SITE}/blog/${SLUG}`);
    const feed = await site.text("/blog/rss.xml");
    expect(feed).toContain(SLUG);
    expect(feed).toContain("Sat, 01 Mar 2031 10:05:00 GMT");
    // The newest by its publish date: first in the list.
    const { posts } = await (await site.request("/api/blog/posts")).json();
    expect(posts[0]).toMatchObject({ slug: SLUG, date: AT });
  });

  test("a draft with a date stays a draft after it; a past date is public at once", async () => {
    const site = await scheduledSite();
    await createPost(site.db, { slug: "draft-dated", published: false, publishAt: new Date("2031-03-01T09:00:00Z") });
    await createPost(site.db, { slug: "past-dated", published: true, publishAt: new Date("2031-03-01T09:00:00Z") });
    site.setNow(new Date("2031-03-02T00:00:00Z"));
    const list = await site.text("/api/blog/posts");
    expect(list).not.toContain("draft-dated");
    expect(list).toContain("past-dated");
  });

  test("a publish date that is not a date is refused with 422 and stores nothing", async () => {
    const site = await scheduledSite();
    const res = await site.asAdmin("/api/admin/blog/post", {
      method: "POST",
      json: postInput({ slug: "bad-date", publishAt: "next tuesday" }),
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify((await res.json()).details)).toContain("publishAt");
    expect(await (await site.asAdmin("/api/admin/blog/posts?q=bad-date")).json()).toMatchObject({ total: 0 });
  });
});
