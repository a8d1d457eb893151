import type { Browser, Page } from "@playwright/test";
import { axeScan, expect, settleTransitions, test } from "./fixtures.ts";

// Your plan: joins the persona, the earnings tier and the course progress kept in this browser.

/** What the quiz and the calculator keep in the browser, with module 1 read through. */
const PROGRESS = {
  quiz: { id: "plan-quiz-1", archetype: "Couple" },
  earnings: { id: "plan-tier-1", tier: "Power Earner" },
  read: { 1: [1, 2, 3, 4, 5] },
  completed: [],
  quizzes: {},
  last: { module: 1, lesson: 5 },
};

async function storeProgress(page: Page, progress: unknown) {
  await page.addInitScript((value) => {
    // Once per tab: a reload keeps what the page itself stored since.
    if (!sessionStorage.getItem("seeded")) {
      localStorage.setItem("progress", JSON.stringify(value));
      sessionStorage.setItem("seeded", "1");
    }
  }, progress);
}

const nextStep = (page: Page) => page.getByRole("region", { name: "Your next step in the course" }).getByRole("button");

for (const [device, viewport] of [
  ["phone", { width: 375, height: 812 }],
  ["desktop", { width: 1280, height: 800 }],
] as const) {
  test.describe(device, () => {
    test.use({ viewport });
    test.describe.configure({ timeout: 90_000 });

    test("the plan shows three modules, three kit items and the next step, and follows the course", async ({
      page,
      visit,
      scan,
    }) => {
      await storeProgress(page, PROGRESS);
      await visit("/plan");
      const modules = page.getByRole("region", { name: "Modules to take first" }).getByRole("listitem");
      await expect(modules).toHaveCount(3);
      await expect(modules.nth(0)).toContainText("Module 2: Privacy, Safety & Boundaries");
      await expect(modules.nth(1)).toContainText("Module 4: Setting Up Your Space & Equipment");
      await expect(modules.nth(2)).toContainText("Module 8: Fan Clubs, Content Sales & Passive Income");
      const kit = page.getByRole("region", { name: "Your first starter-kit items" });
      await expect(kit.getByRole("listitem")).toHaveCount(3);
      await expect(kit.getByRole("link", { name: "See your full starter kit" })).toHaveAttribute(
        "href",
        "/quiz/starter-kit?quizId=plan-quiz-1",
      );
      await expect(nextStep(page)).toHaveText("Module 1 quiz: Camming 101 – What to Expect");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      // Progress made in another tab of this browser shows here at once.
      const other = await page.context().newPage();
      await other.goto("/");
      await other.evaluate(() => {
        const progress = JSON.parse(localStorage.getItem("progress")!);
        progress.read[2] = [1];
        progress.last = { module: 2, lesson: 1 };
        localStorage.setItem("progress", JSON.stringify(progress));
      });
      await expect(nextStep(page)).toHaveText(/^Module 2, lesson 2: /);
      await expect(nextStep(page)).toHaveAttribute("href", "/learn/2?topic=2");
      await other.close();

      // Finish module 2's quiz by keyboard from the module page; the plan marks it done.
      await visit("/learn/2?quiz=true");
      const module = await (await page.request.get("/api/course/modules/2")).json();
      for (const [i, q] of (module.quiz.questions as { correctAnswer: string }[]).entries()) {
        await page.locator(`input[type="radio"][value="${q.correctAnswer}"]`).check();
        await page.getByRole("button", { name: "Submit Answer" }).press("Enter");
        await page.getByRole("button", { name: i < 4 ? "Next Question" : "Complete Quiz" }).press("Enter");
      }
      await expect(page.getByRole("heading", { name: "Your score: 100%" })).toBeVisible();
      await visit("/plan");
      await expect(modules.nth(0)).toContainText("Done");
      await expect(page.getByText("You have finished 1 of 3.")).toBeVisible();
      // Module 2 is finished: the course goes on with the next module.
      await expect(nextStep(page)).toHaveText(/^Module 3, lesson 1: /);
      await scan();
    });
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });

  test("the plan explains how it is made and links to the quiz and the course", async ({ page, browser }) => {
    await storeProgress(page, PROGRESS);
    const response = await page.goto("/plan");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "How your plan is made" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Take the 5-minute persona quiz" })).toHaveAttribute("href", "/quiz");
    await expect(page.getByRole("button", { name: "Go to the course" })).toHaveAttribute("href", "/learn");
    // Nothing about this visitor: the server cannot know it.
    await expect(page.getByText("Couple")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Modules to take first" })).toHaveCount(0);
    await scanWithoutScripts(browser, page.url());
  });
});

/** Axe needs scripts: the same address in a page whose own scripts are blocked shows what the server sent. */
async function scanWithoutScripts(browser: Browser, url: string) {
  const context = await browser.newContext({ javaScriptEnabled: true });
  await context.route(/\.js(\?|$)/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(url);
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
    // Colours animate to the theme: measured once they are there (on a busy machine a scan
    // right after the switch caught every link mid-change).
    await settleTransitions(page);
    await axeScan(page);
  }
  await context.close();
}
