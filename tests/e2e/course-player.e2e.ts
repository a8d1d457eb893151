import type { Page } from "@playwright/test";
import { expect, expectOnFirstScreen, test } from "./fixtures.ts";

// The course player remembers: the curriculum beside the lesson (a sheet on a phone) ticks the
// lessons read through, and "Continue where you left off" goes back to the exact lesson.

async function lessonTitles(page: Page, module: number): Promise<string[]> {
  const data = await (await page.request.get(`/api/course/modules/${module}`)).json();
  return (data.topics as { title: string }[]).map((t) => t.title);
}

// Each journey visits several pages, each scanned by axe in both themes.
test.describe.configure({ timeout: 90_000 });

const stored = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem("progress") ?? "{}"));

test.describe("on a 375 × 812 phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("every module's first lesson: its heading and first paragraph on the first screen, the compact offer above, the lesson first by keyboard", async ({
    page,
    visit,
    scan,
  }) => {
    // The offers answer only when the test lets them: the card's size before and after.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/api\/module\/\d+\/affiliate-offers/, async (route) => {
      await held;
      await route.continue();
    });
    await visit("/learn/1");
    const card = page.getByRole("complementary", { name: "Sponsored offer" });
    await expect(card).toHaveAttribute("aria-busy", "true");
    const loading = await card.boundingBox();
    release();
    await expect(card.locator(".offer-title")).toBeVisible();
    expect((await card.boundingBox())?.height).toBe(loading?.height);
    await page.unroute(/\/api\/module\/\d+\/affiliate-offers/);
    await scan();

    for (let module = 1; module <= 10; module++) {
      if (module > 1) await visit(`/learn/${module}`);
      await expect(card.locator(".offer-title")).toBeVisible();
      // One offer in one row on a phone: no "Show different offer" under it.
      await expect(card.getByRole("button", { name: "Show different offer" })).toHaveCount(0);
      // Shown above the module's title, as a card without its picture.
      const header = page.locator(".module-header");
      expect((await card.boundingBox())!.y).toBeLessThan((await header.boundingBox())!.y);
      await expect(card.locator(".offer-media")).toHaveCount(0);
      await expectOnFirstScreen(page.locator("#topic-title"), `module ${module}'s lesson heading`);
      await expectOnFirstScreen(page.locator(".lesson p").first(), `module ${module}'s first paragraph`);
    }

    // By keyboard, from the skip link: the lesson's links come before the offer's.
    await visit("/learn/2");
    await expect(card.locator(".offer-title")).toBeVisible();
    const order = await page.evaluate(() => {
      const focusable = [...document.querySelectorAll("main a[href], main button:not([disabled])")];
      const next = focusable.findIndex((e) => e.textContent?.trim() === "Next");
      const offer = focusable.findIndex((e) => e.closest(".offer-card"));
      return { next, offer };
    });
    expect(order.next).toBeGreaterThanOrEqual(0);
    expect(order.next).toBeLessThan(order.offer);
  });

  test("a lesson read through gets its tick, kept after reload; continue goes to the exact lesson", async ({
    page,
    visit,
    scan,
  }) => {
    const titles = await lessonTitles(page, 2);
    await page.clock.install();
    await visit("/learn/2?topic=3");
    const lesson = page.getByRole("heading", { level: 2, name: titles[2]! });
    await expect(lesson).toBeVisible();
    // Opening a lesson remembers it as the last one, not as read.
    await expect.poll(async () => (await stored(page)).last).toEqual({ module: 2, lesson: 3 });

    // The sheet opens from the keyboard, marks the lesson shown, and closes with Escape.
    const open = page.getByRole("button", { name: "Course contents" });
    await open.focus();
    await page.keyboard.press("Enter");
    const sheet = page.getByRole("dialog", { name: "Course contents" });
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole("link", { name: titles[2]!, exact: true })).toHaveAttribute("aria-current", "page");
    await scan();
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(open).toBeFocused();

    // Open long enough, but its end never on screen: not read.
    await expect(page.locator(".lesson-end")).not.toBeInViewport();
    await page.clock.runFor(20_000);
    expect((await stored(page)).read).toEqual({});
    // Scrolled to its end: read once it has been open 15 seconds (already the case).
    await page.locator(".lesson-end").scrollIntoViewIfNeeded();
    await expect.poll(async () => (await stored(page)).read).toEqual({ 2: [3] });
    await open.click();
    await expect(sheet.getByRole("link", { name: `${titles[2]!} (read)`, exact: true })).toBeVisible();
    await expect(sheet.getByText("· 1 of 5 read")).toBeVisible();
    await page.keyboard.press("Escape");

    // Reload keeps the tick.
    await page.reload();
    await open.click();
    await expect(sheet.getByRole("link", { name: `${titles[2]!} (read)`, exact: true })).toBeVisible();
    // A lesson followed from the sheet opens in place and closes the sheet.
    await sheet.getByRole("link", { name: titles[3]!, exact: true }).click();
    await expect(sheet).toBeHidden();
    await expect(page).toHaveURL(/\/learn\/2\?topic=4$/);
    await expect.poll(async () => (await stored(page)).last).toEqual({ module: 2, lesson: 4 });

    // "Continue where you left off" on the course overview goes to the lesson opened last.
    await visit("/learn");
    const resume = page.getByRole("button", { name: /^Continue where you left off/ });
    await expect(resume).toContainText(`Module 2, lesson 4: ${titles[3]!}`);
    await expect(page.getByText("1 of 5 lessons read")).toBeVisible();
    await resume.click();
    await expect(page).toHaveURL(/\/learn\/2\?topic=4$/);
    await expect(page.getByRole("heading", { level: 2, name: titles[3]! })).toBeVisible();

    // And on the home page.
    await visit("/");
    await expect(resume).toContainText(`Module 2, lesson 4: ${titles[3]!}`);
    await resume.click();
    await expect(page).toHaveURL(/\/learn\/2\?topic=4$/);
    await expect(page.getByRole("heading", { level: 2, name: titles[3]! })).toBeVisible();
  });
});

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the curriculum is a sidebar beside the lesson; a new visitor is offered no 'continue'", async ({
    page,
    visit,
  }) => {
    const titles = await lessonTitles(page, 1);
    // Before any lesson is opened: no 'continue', in the server's HTML or once the page runs.
    for (const path of ["/", "/learn"]) {
      expect(await (await page.request.get(path)).text()).not.toContain("Continue where you left off");
      await visit(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByRole("button", { name: /Continue where you left off/ })).toHaveCount(0);
    }

    await visit("/learn/1");
    const sidebar = page.getByRole("complementary", { name: "Course contents" });
    await expect(sidebar).toBeVisible();
    await expect(page.getByRole("button", { name: "Course contents" })).toBeHidden();
    const current = sidebar.getByRole("link", { name: titles[0]!, exact: true });
    await expect(current).toHaveAttribute("aria-current", "page");
    // Beside the lesson, not below it.
    const lessonBox = (await page.getByRole("heading", { level: 2, name: titles[0]! }).boundingBox())!;
    const sidebarBox = (await sidebar.boundingBox())!;
    expect(sidebarBox.x).toBeGreaterThan(lessonBox.x + lessonBox.width - 1);
    // Ten modules; the lessons of the one shown are listed open, the others a tap away.
    await expect(sidebar.locator("summary")).toHaveCount(10);
    await expect(sidebar.getByRole("link")).toHaveCount(5);
    await sidebar.getByText("Module 2", { exact: true }).click();
    await expect(sidebar.getByRole("link")).toHaveCount(10);

    // Server HTML: the curriculum without ticks.
    const html = await (await page.request.get("/learn/1")).text();
    expect(html).toContain("Course contents");
    expect(html).not.toContain("(read)");
  });
});
