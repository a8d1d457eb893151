import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

/** Answers the current wizard by clicking the n-th option (0-based) of every question. */
async function answerAll(page: Page, pick: (question: number) => number, total = 15) {
  for (let q = 1; q <= total; q++) {
    await expect(page.getByText(`Question ${q}/${total}`)).toBeVisible();
    await page.getByRole("radio").nth(pick(q)).check();
    if (q < total) await expect(page.getByText(`Question ${q + 1}/${total}`)).toBeVisible();
  }
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("quiz → result → earnings → tier → starter kit", async ({ page, visit, scan }) => {
    // Two 15-step wizards with their auto-advance delays.
    test.setTimeout(90_000);
    await visit("/quiz");
    await expect(page.getByRole("heading", { level: 1, name: "Discover Your Cam Girl Archetype" })).toBeVisible();
    await expect(page.getByText("5-minute quiz")).toBeVisible();
    await expect(page.getByText("Question 1/15")).toBeVisible();
    await expect(page.getByText("7%")).toBeVisible();
    await expect(page.getByRole("button", { name: "PREVIOUS" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "CONTINUE" })).toBeDisabled();

    // All B answers: Dominatrix. The last step reads SEE RESULTS.
    for (let q = 1; q <= 14; q++) {
      await page.getByRole("radio").nth(1).check();
      await expect(page.getByText(`Question ${q + 1}/15`)).toBeVisible();
    }
    await expect(page.getByText("100%")).toBeVisible();
    await expect(page.getByRole("button", { name: "SEE RESULTS" })).toBeDisabled();
    await page.getByRole("radio").nth(1).check();

    await expect(page).toHaveURL(/\/quiz\/result\?archetype=Dominatrix&id=[\w-]{22}$/);
    await expect(page.getByRole("heading", { level: 1, name: "Dominatrix" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your superpowers" })).toBeVisible();
    await expect(page.getByRole("complementary", { name: "Sponsored" })).toContainText(
      "Join Platform One today and start earning! Over 100,000 webcam models trust Platform One for steady income.",
    );
    for (const link of await page.locator(".platform-buttons a").all()) {
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", "sponsored noopener");
    }
    await scan();

    await page.getByRole("button", { name: "Calculate My Earnings" }).click();
    await expect(page).toHaveURL(/\/quiz\/earnings\?quizId=/);
    await expect(page.getByRole("heading", { level: 1, name: "Calculate Your Earning Potential" })).toBeVisible();
    await expect(page.getByText("15 quick questions")).toBeVisible();
    await scan();
    await answerAll(page, () => 2);

    // A full page load to the tier result.
    await expect(page).toHaveURL(/\/quiz\/earnings\?tier=Power(%20|\+)Earner&id=/);
    await expect(page.getByRole("heading", { level: 1, name: "Power Earner" })).toBeVisible();
    await expect(page.getByText("$5,000 - $15,000+ / month")).toBeVisible();
    await expect(page.getByText("4–6 days a week at 3–6 hours a show")).toBeVisible();
    await scan();

    await page.getByRole("button", { name: "GET MY STARTER KIT" }).click();
    await expect(page).toHaveURL(/\/quiz\/starter-kit\?quizId=/);
    await expect(page.getByRole("heading", { level: 1, name: /Dominatrix/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Essential For All Cam Models" })).toBeVisible();
    const buy = page.getByRole("button", { name: /^Buy Now/ }).first();
    await expect(buy).toHaveAttribute("target", "_blank");
    await expect(page.getByRole("button", { name: "Start the Free Cam Model Course" })).toHaveAttribute(
      "href",
      "/learn/1",
    );
    await scan();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
  });
});

test("the quiz works with the keyboard alone", async ({ page, visit }) => {
  // A controllable clock: proving that nothing advances on its own needs no real waiting.
  await page.clock.install();
  await visit("/quiz");
  // Tab from the top of the page into the radio group.
  const first = page.getByRole("radio").first();
  for (let i = 0; i < 12 && !(await first.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press("Tab");
  await expect(first).toBeFocused();
  // Arrow keys browse without moving on; CONTINUE (by keyboard) does.
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("radio").nth(1)).toBeChecked();
  // Longer than any auto-advance delay: a click would have moved on by now, a key does not.
  await page.clock.runFor(2_000);
  await expect(page.getByText("Question 1/15")).toBeVisible();
  const next = page.getByRole("button", { name: "CONTINUE" });
  for (let i = 0; i < 3 && !(await next.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press("Tab");
  await expect(next).toBeFocused();
  await page.keyboard.press("Enter");
  for (let q = 2; q <= 15; q++) {
    await expect(page.getByText(`Question ${q}/15`)).toBeVisible();
    if (q > 1) {
      // Focus moved to the new question; Tab reaches its options.
      await expect(page.locator(".wizard-question h2")).toBeFocused();
      await page.keyboard.press("Tab");
    }
    await page.keyboard.press("Space");
    await expect(page.getByRole("radio").first()).toBeChecked();
  }
  // B then fourteen A answers.
  await expect(page).toHaveURL(/\/quiz\/result\?archetype=Girl(%20|\+)Next(%20|\+)Door&id=/);
  await expect(page.getByRole("heading", { level: 1, name: "Girl Next Door" })).toBeVisible();
});

test("PREVIOUS goes back with the answer kept; CONTINUE moves on", async ({ page, visit }) => {
  await visit("/quiz");
  await page.getByRole("radio").nth(2).check();
  await expect(page.getByText("Question 2/15")).toBeVisible();
  await page.getByRole("button", { name: "PREVIOUS" }).click();
  await expect(page.getByText("Question 1/15")).toBeVisible();
  await expect(page.getByRole("radio").nth(2)).toBeChecked();
  await page.getByRole("button", { name: "CONTINUE" }).click();
  await expect(page.getByText("Question 2/15")).toBeVisible();
  await expect(page.getByRole("button", { name: "CONTINUE" })).toBeDisabled();
});

test.describe.configure({ timeout: 60_000 });

test("all-lowest earnings answers give Casual Starter and, without a quiz, the free course button", async ({
  page,
  visit,
}) => {
  await visit("/quiz/earnings");
  await answerAll(page, () => 0);
  await expect(page.getByRole("heading", { level: 1, name: "Casual Starter" })).toBeVisible();
  await expect(page.getByText("$500 - $1,500 / month")).toBeVisible();
  await expect(page.getByText("2–3 short shows a week")).toBeVisible();
  await expect(page.getByRole("button", { name: "START FREE COURSE" })).toHaveAttribute("href", "/learn");
});

test("result and starter kit without parameters redirect to /quiz on the server", async ({ page }) => {
  for (const path of ["/quiz/result", "/quiz/starter-kit"]) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe("/quiz");
  }
  await page.goto("/quiz/starter-kit");
  await expect(page).toHaveURL(/\/quiz$/);
});

test("a failed save shows the error toast and stays on the quiz", async ({ page, visit, allowProblem }) => {
  allowProblem(/\b500\b/);
  await visit("/quiz");
  await page.route("**/api/quiz/result", (route) =>
    route.fulfill({ status: 500, body: '{"error":"x"}', contentType: "application/json" }),
  );
  for (let q = 1; q <= 15; q++) {
    await page.getByRole("radio").first().check();
    if (q < 15) await expect(page.getByText(`Question ${q + 1}/15`)).toBeVisible();
  }
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Error");
  await expect(toast).toContainText("Failed to save quiz result. Please try again.");
  await expect(page).toHaveURL(/\/quiz$/);
});

test("an unknown result id shows the error state with Retake the Quiz", async ({ page, visit }) => {
  await visit("/quiz/result?id=nope", { status: 404 });
  await expect(page.getByRole("heading", { name: "Oops! Something went wrong" })).toBeVisible();
  await expect(page.getByText("We couldn't load your quiz results. Please try taking the quiz again.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Retake the Quiz" })).toHaveAttribute("href", "/quiz");
});

test("a network failure while saving earnings shows the unexpected-error toast", async ({
  page,
  visit,
  allowProblem,
}) => {
  allowProblem(/api\/earnings\/result|ERR_CONNECTION_RESET/);
  await visit("/quiz/earnings");
  await page.route("**/api/earnings/result", (route) => route.abort("connectionreset"));
  await answerAll(page, () => 1);
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("An unexpected error occurred. Please try again.");
  await expect(page).toHaveURL(/\/quiz\/earnings$/);
  // The visitor can try again: the last answer is still chosen and the button works.
  await expect(page.getByRole("button", { name: "SEE RESULTS" })).toBeEnabled();
});

test.describe("on a 375 × 812 touch screen", () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  for (const path of ["/quiz", "/quiz/earnings"]) {
    test(`${path}: every option spans the column and is at least 44 px tall, in both themes`, async ({
      page,
      visit,
    }) => {
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        // visit() runs axe on the page as this theme shows it.
        await visit(path);
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        const column = await page.locator(".wizard-options").boundingBox();
        const options = await page.locator(".wizard-option").all();
        expect(options.length).toBeGreaterThan(1);
        for (const option of options) {
          const box = (await option.boundingBox())!;
          expect(Math.abs(box.width - column!.width)).toBeLessThanOrEqual(1);
          expect(box.height).toBeGreaterThanOrEqual(44);
        }
      }
    });
  }

  test("after a tap, the option in the same place on the next question does not look chosen", async ({
    page,
    visit,
  }) => {
    await visit("/quiz");
    expect(await page.evaluate(() => matchMedia("(hover: hover) and (pointer: fine)").matches)).toBe(false);
    await page.getByRole("radio").nth(1).tap();
    await expect(page.getByText("Question 2/15")).toBeVisible();
    const border = (n: number) =>
      page
        .locator(".wizard-option")
        .nth(n)
        .evaluate((el) => getComputedStyle(el).borderColor);
    // A touch leaves the pointer where it tapped, as if hovering there: the option under it
    // must look like any other unchosen one.
    await page.locator(".wizard-option").nth(1).hover();
    expect(
      await page
        .locator(".wizard-option")
        .nth(1)
        .evaluate((el) => el.matches(":hover")),
    ).toBe(true);
    expect(await border(1)).toBe(await border(0));
    await expect(page.locator(".wizard-option.selected")).toHaveCount(0);
  });

  test("the promotional banner stays compact above a result, in both themes", async ({ page, visit }) => {
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await visit("/quiz/result?archetype=Dominatrix");
      const banner = page.getByRole("complementary", { name: "Sponsored" });
      const link = banner.getByRole("link", { name: /Join Platform One today and start earning!/ });
      await expect(link).toBeVisible();
      expect((await banner.boundingBox())!.height).toBeLessThanOrEqual(100);
      expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      // The result is on the first screen, under the header and the banner.
      await expect(page.getByRole("heading", { level: 1, name: "Dominatrix" })).toBeInViewport();
    }
  });
});

test("with a mouse an option shows its hover border", async ({ page, visit }) => {
  await visit("/quiz");
  const option = page.locator(".wizard-option").nth(1);
  const before = await option.evaluate((el) => getComputedStyle(el).borderColor);
  await option.hover();
  await expect.poll(() => option.evaluate((el) => getComputedStyle(el).borderColor)).not.toBe(before);
  await expect(page.getByRole("radio").nth(1)).not.toBeChecked();
});
