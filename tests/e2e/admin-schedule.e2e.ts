import { expect, signIn, test } from "./fixtures.ts";

// The owner schedules a post a few seconds ahead: it stays off the blog, its preview shows it
// to the admin, and it appears on its own at its time (the server's real clock, its page cache).

const TITLE = "A Post That Appears By Itself";
const SLUG = "a-post-that-appears-by-itself";

test("a post scheduled ~20 s ahead is absent from /blog, previewable, then appears without anything else done", async ({
  page,
  scan,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  // The post itself is written through the API (the editor's content field is tested elsewhere).
  const created = await page.request.post("/api/admin/blog/post", {
    data: {
      title: TITLE,
      slug: SLUG,
      content: "<p>Written ahead, shown on time.</p>",
      excerpt: "Scheduled in the admin, public at its time.",
      category: null,
      coverImage: null,
      published: false,
      metaDescription: "",
      metaKeywords: "",
    },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();

  await page.goto(`/admin/posts/${id}`);
  await expect(page.getByRole("heading", { name: "Edit Post" })).toBeVisible();
  await page.getByLabel("Publish post").check();
  // 20 seconds from now, in the browser's own time zone, as the admin would type it.
  const at = await page.evaluate(() => {
    const d = new Date(Date.now() + 20_000);
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  });
  await page.getByLabel("Publish date").fill(at);
  await expect(page.getByText(/Scheduled: visitors see the post from/)).toBeVisible();
  await expect(page.getByTestId("search-result")).toContainText(`/blog/${SLUG}`);
  await scan();
  await page.getByRole("button", { name: "Update Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post updated successfully");
  const row = page.getByRole("row", { name: new RegExp(TITLE) });
  await expect(row).toContainText("Scheduled for");

  // The admin's preview (a new tab from the list): the post as its page will be, marked.
  const previewLink = row.getByRole("link", { name: new RegExp(`Preview ${TITLE}`) });
  await expect(previewLink).toHaveAttribute("target", "_blank");
  await page.goto((await previewLink.getAttribute("href"))!);
  await expect(page.getByText("Preview — not published")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await scan();

  // Not on the blog yet (the list is now in the page cache), and its address is no page.
  await page.goto("/blog");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText(TITLE)).toHaveCount(0);
  expect((await page.request.get(`/api/blog/post/${SLUG}`)).status()).toBe(404);

  // At its time it appears by itself: the blog is reloaded until it does.
  await expect(async () => {
    await page.goto("/blog");
    await expect(page.getByRole("link", { name: new RegExp(TITLE) }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 45_000, intervals: [1000] });
  await page
    .getByRole("link", { name: new RegExp(TITLE) })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
});
