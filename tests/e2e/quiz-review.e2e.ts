import type { Browser, Page } from "@playwright/test";
import { axeScan, expect, test } from "./fixtures.ts";

// After a module quiz: the review of every question (the visitor's answer, the right one and
// every option's explanation) and the retry of the questions missed, with and without scripts.

interface QuizQuestion {
  question: string;
  correctAnswer: string;
  options: { id: string; text: string; explanation: string }[];
}

const LETTERS = ["A", "B", "C", "D"];
/** The questions answered wrongly on purpose (0-based): the first and the third. */
const MISSED = [0, 2];

async function questionsOf(page: Page, module: number): Promise<QuizQuestion[]> {
  return (await (await page.request.get(`/api/course/modules/${module}`)).json()).quiz.questions;
}

const wrongOf = (q: QuizQuestion) => LETTERS.find((l) => l !== q.correctAnswer)!;

/**
 * Picks `letter` and submits it by keyboard: Space on the first option shown, arrows down to
 * the letter's option (the options are shown in a new order each attempt), Tab, Enter.
 */
async function answerByKeyboard(page: Page, letter: string) {
  const radios = page.locator('.module-quiz input[type="radio"]');
  const shown = await radios.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
  expect([...shown].sort()).toEqual(LETTERS);
  await radios.first().focus();
  await page.keyboard.press("Space");
  for (let i = 0; i < shown.indexOf(letter); i++) await page.keyboard.press("ArrowDown");
  await expect(page.locator(`.module-quiz input[type="radio"][value="${letter}"]`)).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Submit Answer" })).toBeFocused();
  await page.keyboard.press("Enter");
  const next = page.getByRole("button", { name: /^(Next Question|Complete Quiz)$/ });
  await expect(next).toBeFocused();
  await page.keyboard.press("Enter");
}

/** The review's item for one question. */
function reviewed(page: Page, q: QuizQuestion) {
  return page
    .getByRole("region", { name: "Review your answers" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: q.question }) });
}

async function expectFits(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test.describe.configure({ timeout: 90_000 });

for (const [device, viewport] of [
  ["a 375 × 812 phone", { width: 375, height: 812 }],
  ["a desktop", { width: 1280, height: 900 }],
] as const) {
  test.describe(`on ${device}`, () => {
    test.use({ viewport });

    test("answer two wrongly, review every explanation, retry only those by keyboard, see the new result", async ({
      page,
      visit,
      scan,
    }) => {
      const questions = await questionsOf(page, 2);
      await visit("/learn/2?quiz=true");
      await expect(page.getByRole("heading", { name: "Module 2 Quiz" })).toBeVisible();
      for (const [i, q] of questions.entries())
        await answerByKeyboard(page, MISSED.includes(i) ? wrongOf(q) : q.correctAnswer);

      await expect(page.getByRole("heading", { name: "Your score: 60%" })).toBeFocused();
      const first = questions[0]!;
      const item = reviewed(page, first);
      await expect(item.getByText(`Not quite. You chose ${wrongOf(first)}:`, { exact: false })).toBeVisible();
      await expect(item.getByText(`The right answer is ${first.correctAnswer}:`, { exact: false })).toBeVisible();
      for (const option of first.options) await expect(item.getByText(option.explanation)).toBeVisible();
      // Which is yours and which is right, in words.
      await expect(item.getByRole("listitem").filter({ hasText: "Your answer" })).toContainText(
        first.options.find((o) => o.id === wrongOf(first))!.text,
      );
      await expect(item.getByRole("listitem").filter({ hasText: "Right answer" })).toContainText(
        first.options.find((o) => o.id === first.correctAnswer)!.text,
      );
      await expect(reviewed(page, questions[1]!).getByText("Correct! You chose", { exact: false })).toBeVisible();
      await expectFits(page);
      await scan();
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem("progress") ?? "{}").quizzes["2"])).toEqual({
        correct: 3,
        total: 5,
        answers: questions.map((q, i) => (MISSED.includes(i) ? wrongOf(q) : q.correctAnswer)),
      });

      const retry = page.getByRole("button", { name: "Retry the ones I missed" });
      await retry.focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { name: "Module 2 Quiz: the ones you missed" })).toBeFocused();
      await expect(page).toHaveURL(/\/learn\/2\?quiz=true$/);
      for (const [step, i] of MISSED.entries()) {
        await expect(page.getByText(`Retry ${step + 1} of 2 (question ${i + 1} of 5)`)).toBeVisible();
        await expect(page.getByRole("heading", { name: questions[i]!.question })).toBeVisible();
        await answerByKeyboard(page, questions[i]!.correctAnswer);
      }

      await expect(page.getByRole("heading", { name: "Your score: 100%" })).toBeFocused();
      await expect(page.getByText(/^This retry: 2 of 2 right\./)).toBeVisible();
      await expect(page.getByText("5 of 5 correct.")).toBeVisible();
      // Answered after the answers were revealed: not called mastery.
      await expect(page.getByText(/^Well remembered\. You had seen the answers before this try/)).toBeVisible();
      await expect(page.getByText(/mastered/)).toHaveCount(0);
      await expect(
        page.getByRole("region", { name: "Review your answers" }).getByText("Correct! You chose", { exact: false }),
      ).toHaveCount(5);
      await expect(retry).toHaveCount(0);
      await expectFits(page);
      await scan();
      await expect
        .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("progress") ?? "{}").quizzes["2"]))
        .toEqual({ correct: 5, total: 5, answers: questions.map((q) => q.correctAnswer) });

      // Back on the quiz later: the last score, and its review a click away.
      await visit("/learn/2?quiz=true");
      await expect(page.getByText("Last time on this device you scored 100% (5 of 5 correct).")).toBeVisible();
      await page.getByRole("button", { name: "Review my answers" }).click();
      await expect(page.getByRole("heading", { name: "Your score: 100%" })).toBeFocused();
      await expect(
        page.getByRole("region", { name: "Review your answers" }).getByRole("heading", { level: 3 }),
      ).toHaveCount(5);
    });
  });
}

/**
 * Axe cannot run in a page without scripts: the same address is scanned in a page whose
 * own scripts are blocked, so it shows what the server rendered.
 */
async function scanWithoutScripts(browser: Browser, url: string) {
  const context = await browser.newContext({ javaScriptEnabled: true, viewport: { width: 375, height: 812 } });
  await context.route(/\.js(\?|$)/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(url);
  await axeScan(page);
  await context.close();
}

test.describe("without JavaScript, on a 375 × 812 phone", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });

  test("the result reviews every explanation; the retry is a form of the missed questions only", async ({
    page,
    browser,
  }) => {
    const questions = await questionsOf(page, 2);
    await page.goto("/learn/2?quiz=true");
    for (const [i, q] of questions.entries())
      await page
        .locator(`input[type="radio"][name="a${i + 1}"][value="${MISSED.includes(i) ? wrongOf(q) : q.correctAnswer}"]`)
        .check();
    await page.getByRole("button", { name: "Complete Quiz" }).click();
    await expect(page.getByRole("heading", { name: "Your score: 60%" })).toBeVisible();
    const third = questions[2]!;
    for (const option of third.options) await expect(reviewed(page, third).getByText(option.explanation)).toBeVisible();
    await expectFits(page);
    await scanWithoutScripts(browser, page.url());

    await page.getByRole("button", { name: "Retry the ones I missed" }).click();
    await expect(page).toHaveURL(/[?&]retry=13(&|$)/);
    await expect(page.getByRole("heading", { name: "Module 2 Quiz: the ones you missed" })).toBeVisible();
    await expect(page.locator(".module-quiz-form").getByRole("group")).toHaveCount(2);
    await scanWithoutScripts(browser, page.url());
    // The first one right this time, the third missed again.
    await page.locator(`input[name="a1"][value="${questions[0]!.correctAnswer}"]`).check();
    await page.locator(`input[name="a3"][value="${wrongOf(third)}"]`).check();
    await page.getByRole("button", { name: "Complete Quiz" }).click();

    await expect(page.getByRole("heading", { name: "Your score: 80%" })).toBeVisible();
    await expect(page.getByText(/^This retry: 1 of 2 right\./)).toBeVisible();
    await expect(reviewed(page, questions[0]!).getByText("Correct! You chose", { exact: false })).toBeVisible();
    await expect(reviewed(page, third).getByText("Not quite.", { exact: false })).toBeVisible();
    await expect(page.getByRole("button", { name: "Retry the ones I missed" })).toHaveAttribute("href", /[?&]retry=3$/);
  });
});
