import { expect, signIn, test } from "./fixtures.ts";

// The posts list a page at a time, searched by the server (docs/decisions/088-admin-post-list-pages.md),
// on a 375 px phone: the search box and the pages fit, the keyboard turns the pages, the address
// keeps the page and the search, and the editor opens its post by id.

test("on a 375 px phone: search as you type, pages by keyboard, the address keeps both, the editor opens by id", async ({
  page,
  scan,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signIn(page);
  // 25 drafts beside the seed's posts: three pages. A site of its own (the admin project), so
  // no other journey sees them.
  for (let i = 1; i <= 25; i++) {
    const made = await page.request.post("/api/admin/blog/post", {
      data: {
        title: `Paged draft ${String(i).padStart(2, "0")}`,
        slug: `paged-draft-${i}`,
        content: "<p>A draft that fills the list.</p>",
        excerpt: "",
        category: null,
        coverImage: null,
        published: false,
      },
    });
    expect(made.status()).toBe(201);
  }
  await page.goto("/admin/posts");
  const pages = page.getByRole("navigation", { name: "Pages of posts" });
  await expect(pages).toContainText("Page 1 of 2");
  await expect(page.getByText(/^\d+ posts$/)).toBeVisible();
  // Nothing scrolls sideways: not the page, not the pages' row.
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    pages: (() => {
      const nav = document.querySelector('nav[aria-label="Pages of posts"]')!;
      return nav.scrollWidth - nav.clientWidth;
    })(),
  }));
  expect(overflow).toEqual({ page: 0, pages: 0 });
  // Previous, where the list stands and Next on one line, all on screen once scrolled to.
  await pages.scrollIntoViewIfNeeded();
  for (const name of ["Previous", "Next"])
    await expect(pages.getByRole("button", { name })).toBeInViewport({ ratio: 1 });
  await expect(pages.getByRole("button", { name: "Previous" })).toBeDisabled();

  // Next, by keyboard.
  await pages.getByRole("button", { name: "Next" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/posts\?page=2$/);
  await expect(pages).toContainText("Page 2 of 2");
  await expect(pages.getByRole("button", { name: "Next" })).toBeDisabled();
  await scan();
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Pages of posts" })).toContainText("Page 2 of 2");

  // The search, as typed: the address holds it, from its first page.
  await page.getByRole("searchbox", { name: "Search posts" }).fill("paged draft 2");
  await expect(page).toHaveURL(/\/admin\/posts\?q=paged\+draft\+2$/);
  await expect(page.getByText("6 posts match “paged draft 2”")).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(7);
  await expect(page.getByRole("navigation", { name: "Pages of posts" })).toHaveCount(0);

  // The editor asks for its post by id; Cancel goes back to the search.
  await page.getByRole("button", { name: "Edit Paged draft 25" }).click();
  await expect(page).toHaveURL(/\/admin\/posts\/\d+$/);
  await expect(page.getByLabel("Title")).toHaveValue("Paged draft 25");
  await expect(page.getByLabel("Content", { exact: true })).toHaveValue(/A draft that fills the list\./);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/admin\/posts\?q=paged\+draft\+2$/);
  await expect(page.getByRole("searchbox", { name: "Search posts" })).toHaveValue("paged draft 2");

  // Nothing found: said so, and the search cleared in one press.
  await page.getByRole("searchbox", { name: "Search posts" }).fill("nothing like this");
  await expect(page.getByText("No posts match “nothing like this”.")).toBeVisible();
  await scan();
  await page.getByRole("button", { name: "Clear the search" }).click();
  await expect(page).toHaveURL(/\/admin\/posts$/);
  await expect(page.getByRole("navigation", { name: "Pages of posts" })).toContainText("Page 1 of 2");
});
