import { expect, test } from "./fixtures.ts";

test("search, filter by category, clear filters, both empty states", async ({ page, visit, scan }) => {
  await visit("/blog");
  await expect(page).toHaveTitle("Webcam Model Blog | Cam Guide");
  await expect(page.getByRole("heading", { level: 1, name: "Cam Model Resources & Guides" })).toBeVisible();
  const cards = page.locator(".post-grid > li");
  const total = await cards.count();
  expect(total).toBeGreaterThanOrEqual(8);

  // Search runs on the server as you type, over titles, excerpts and texts, case-insensitively:
  // a title that holds the word ranks first, with the word marked.
  await page.getByRole("searchbox", { name: "Search articles" }).fill("LIGHTING");
  await expect(page).toHaveURL(/\/blog\?q=LIGHTING$/);
  await expect(cards.first()).toContainText("Lighting on a Budget");
  await expect(cards.first().locator("h2 mark")).toHaveText("Lighting");
  expect(await cards.count()).toBeLessThan(total);
  await expect(page.getByRole("link", { name: "Clear filters" })).toBeVisible();

  // A search with no match: the filtered empty state.
  await page.getByRole("searchbox", { name: "Search articles" }).fill("xyzzy qwzx");
  await expect(page.getByRole("heading", { name: "No articles found" })).toBeVisible();
  await expect(page.getByText("Try changing your filters or search term.")).toBeVisible();
  // One way to clear them at a time: the link beside the chips rests while the empty state offers its button.
  await expect(page.getByRole("link", { name: "Clear filters" })).toHaveCount(0);
  await scan();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(cards).toHaveCount(total);

  // A category button sets ?category= in the address.
  await page.getByRole("button", { name: "Income Strategies" }).click();
  await expect(page).toHaveURL(/\/blog\?category=income-strategies$/);
  await expect(page.getByRole("button", { name: "Income Strategies" })).toHaveAttribute("aria-pressed", "true");
  // The list shown is the category's once the line above it says so (until then, the last one stays).
  await expect(page.locator(".blog-status")).toContainText("in Income Strategies");
  for (const badge of await page.locator(".post-grid .category-badge").all())
    await expect(badge).toHaveText("Income Strategies");
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(cards).toHaveCount(total);
});

test("a search matches every word in any order, stays in the address and survives Back and reload", async ({
  page,
  visit,
}) => {
  await visit("/blog");
  const cards = page.locator(".post-grid > li");
  const box = page.getByRole("searchbox", { name: "Search articles" });
  await box.fill("privacy Webcam");
  await expect(page).toHaveURL(/\/blog\?q=privacy\+Webcam$/);
  await expect(cards.first()).toContainText("How to Start Camming Safely");
  const found = await cards.count();
  await expect(page.getByRole("searchbox", { name: "Search articles" })).toBeFocused();

  await cards
    .first()
    .getByRole("link", { name: /How to Start Camming Safely/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/blog\/how-to-start-camming-safely$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/blog\?q=privacy\+Webcam$/);
  await expect(box).toHaveValue("privacy Webcam");
  await expect(cards).toHaveCount(found);

  await page.reload();
  await expect(box).toHaveValue("privacy Webcam");
  await expect(cards).toHaveCount(found);
  await expect(cards.first()).toContainText("How to Start Camming Safely");

  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(box).toHaveValue("");
});

test("without JavaScript, Enter in the search box sends it to the server", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/blog");
  await page.getByRole("searchbox", { name: "Search articles" }).fill("budget lighting");
  await page.getByRole("searchbox", { name: "Search articles" }).press("Enter");
  await expect(page).toHaveURL(/\/blog\?q=budget\+lighting$/);
  await expect(page.locator(".post-grid > li").first()).toContainText("Lighting on a Budget");
  // Nothing found: the page's "Clear filters" works without JavaScript too.
  await page.goto("/blog?q=zzqxvbnm&category=platform-reviews");
  await expect(page.getByRole("heading", { name: "No articles found" })).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.locator(".post-grid > li").first()).toBeVisible();
  await context.close();
});

test("a post's date and labels are readable in the dark theme", async ({ page, visit }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  // visit() runs axe, colour contrast included, on the page as the dark theme shows it.
  await visit("/blog/taxes-for-cam-models");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.locator(".post-meta").first()).toBeVisible();
  await visit("/learn/1");
  await expect(page.locator(".eyebrow").first()).toBeVisible();
});

test("in a post written in Markdown, a sub-heading is smaller than its section's heading, on a phone too", async ({
  page,
  visit,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await visit("/blog/taxes-for-cam-models");
  const size = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
  await expect(page.locator(".post-content h3").first()).toBeVisible();
  expect(await size(".post-content h3")).toBeLessThan(await size(".post-content h2"));
  // The Markdown is rendered: no heading or emphasis marks reach the page.
  await expect(page.locator(".post-content")).not.toContainText(/(^|\s)#{2,} |\*\*/);
});

test("with no posts the list says to check back soon", async ({ page, visit }) => {
  await page.route("**/api/blog/posts", (route) => route.fulfill({ json: { posts: [], total: 0, page: 1, pages: 1 } }));
  // The first HTML holds the posts; a client-side visit reads the (empty) API.
  await visit("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog" }).click();
  await expect(page.getByRole("heading", { name: "No articles found" })).toBeVisible();
  await expect(page.getByText("Check back soon for new content!")).toBeVisible();
  await expect(page.getByRole("button", { name: "Clear filters" })).toHaveCount(0);
});

test("open a post and go Back to Blog", async ({ page, visit, scan }) => {
  await visit("/blog");
  await page
    .getByRole("link", { name: /How to Compare Cam Platforms/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/blog\/platform-reviews$/);
  await expect(page.getByRole("heading", { level: 1, name: /How to Compare Cam Platforms/ })).toBeVisible();
  await expect(page).toHaveTitle(/How to Compare Cam Platforms.* \| Cam Guide$/);
  await expect(page.getByText(/min read/)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Ready to Start Your Cam Journey?" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Take the Free Quiz" })).toHaveAttribute("href", "/quiz");
  await scan();
  await page.getByRole("button", { name: "← Back to Blog" }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByRole("heading", { level: 1, name: "Cam Model Resources & Guides" })).toBeVisible();

  // From a filtered, searched list, "Back to Blog" returns to that list, not the whole blog.
  await page.getByRole("button", { name: "Income Strategies" }).click();
  await page.getByRole("searchbox", { name: "Search articles" }).fill("tax");
  await expect(page).toHaveURL(/\/blog\?category=income-strategies&q=tax$/);
  await page
    .getByRole("link", { name: /Taxes in Your First Year/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: /Taxes in Your First Year/ })).toBeVisible();
  await page.getByRole("button", { name: "← Back to Blog" }).click();
  await expect(page).toHaveURL(/\/blog\?category=income-strategies&q=tax$/);
  await expect(page.getByRole("searchbox", { name: "Search articles" })).toHaveValue("tax");
});

test("on a phone, Back from a post opens the list where it was left, and Forward the post at its top", async ({
  page,
  visit,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await visit("/blog");
  const card = page.locator(".post-grid > li").nth(7);
  const title = (await card.getByRole("heading").textContent())!.trim();
  // In view before the click, so the click itself scrolls no further.
  const link = card.getByRole("link", { name: title }).first();
  await link.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  // Where the visitor sees it: the same place on the screen after Back.
  const seenAt = async () => Math.round((await link.boundingBox())?.y ?? Number.NaN);
  const left = await seenAt();
  await link.click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.goBack();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(card).toBeVisible();
  // Within a few pixels: the browser keeps what is on screen in place as what is above it settles.
  await expect.poll(async () => Math.abs((await seenAt()) - left)).toBeLessThanOrEqual(3);
  await page.goForward();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test("a deep link with ?category= arrives filtered; a post's badge filters too", async ({ page, visit }) => {
  await visit("/blog?category=platform-reviews");
  await expect(page.getByRole("button", { name: "Platform Reviews" })).toHaveAttribute("aria-pressed", "true");
  const badges = page.locator(".post-grid .category-badge");
  await expect(badges.first()).toBeVisible();
  for (const badge of await badges.all()) await expect(badge).toHaveText("Platform Reviews");

  await visit("/blog/taxes-for-cam-models");
  await page.locator(".post-header .category-badge").click();
  await expect(page).toHaveURL(/\/blog\?category=income-strategies$/);

  // A badge shows the category's name as written ("Tips and Tricks"), in the list, the status
  // line and on a post, not one made from its address.
  await visit("/blog?category=tips-and-tricks");
  await expect(page.locator(".blog-status")).toContainText("in Tips and Tricks");
  await expect(badges.first()).toHaveText("Tips and Tricks");
  await visit("/blog/lighting-on-a-budget");
  await expect(page.locator(".post-header .category-badge")).toHaveText("Tips and Tricks");
});

test("an unknown post redirects to the blog; the footer's Platform Reviews opens the guide", async ({
  page,
  visit,
}) => {
  const response = await page.request.get("/blog/not-a-post", { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers().location).toBe("/blog");
  await visit("/");
  await page.locator("footer").getByRole("link", { name: "Platform Reviews" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /How to Compare Cam Platforms/ })).toBeVisible();
});

test.describe("the categories on a 375 × 812 phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("one row that scrolls sideways: each button reached by Tab is in view, and tall enough to tap", async ({
    page,
    visit,
  }) => {
    await visit("/blog");
    const row = page.locator(".category-chips");
    const chips = row.getByRole("button");
    const count = await chips.count();
    expect(count).toBeGreaterThan(1);
    // One row: every button on the same line.
    const tops = new Set(await chips.evaluateAll((all) => all.map((el) => Math.round(el.getBoundingClientRect().top))));
    expect(tops.size).toBe(1);
    await page.getByRole("searchbox", { name: "Search articles" }).focus();
    for (let i = 0; i < count; i++) {
      await page.keyboard.press("Tab");
      const where = await page.evaluate(() => {
        const chip = document.activeElement as HTMLElement;
        const box = document.querySelector(".category-chips")!.getBoundingClientRect();
        const own = chip.getBoundingClientRect();
        return {
          name: chip.textContent,
          inView: own.left >= box.left - 1 && own.right <= box.right + 1,
          tall: own.height,
        };
      });
      expect(where, `button ${i + 1} of ${count}`).toMatchObject({ inView: true });
      expect(where.tall).toBeGreaterThanOrEqual(44);
    }
  });

  test("without JavaScript, the row opens at the chosen category and a search keeps it", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    await page.goto("/blog?category=tips-and-tricks");
    const chosen = page.getByRole("button", { name: "Tips and Tricks" });
    await expect(chosen).toHaveAttribute("aria-pressed", "true");
    await expect(chosen).toBeInViewport({ ratio: 1 });
    await page.getByRole("searchbox", { name: "Search articles" }).fill("budget");
    await page.getByRole("searchbox", { name: "Search articles" }).press("Enter");
    await expect(page).toHaveURL(
      /\/blog\?q=budget&category=tips-and-tricks$|\/blog\?category=tips-and-tricks&q=budget$/,
    );
    await context.close();
  });
});
