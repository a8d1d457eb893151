import type { Page } from "@playwright/test";
import { axeScan, expect, expectOnFirstScreen, test, waitForShown } from "./fixtures.ts";

/** Answers the current wizard by clicking the n-th option (0-based) of every question. */
async function answerAll(page: Page, pick: (question: number) => number, total = 15) {
  for (let q = 1; q <= total; q++) {
    await waitForShown(page, `Question ${q}/${total}`);
    // A tap. (check() would verify afterwards through the locator, which after the auto-advance
    // may already find the next question's option, and tick that one too.)
    await page.getByRole("radio").nth(pick(q)).click();
    if (q < total) await waitForShown(page, `Question ${q + 1}/${total}`);
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
    await expectOnFirstScreen(page.locator(".wizard-question h2"), "the first question");

    // All B answers: Dominatrix. The last step reads SEE RESULTS.
    for (let q = 1; q <= 14; q++) {
      await page.getByRole("radio").nth(1).click();
      await waitForShown(page, `Question ${q + 1}/15`);
    }
    await expect(page.getByText("100%")).toBeVisible();
    await expect(page.getByRole("button", { name: "SEE RESULTS" })).toBeDisabled();
    await page.getByRole("radio").nth(1).click();

    await expect(page).toHaveURL(/\/quiz\/result\?archetype=Dominatrix&id=[\w-]{22}$/);
    await expect(page.getByRole("heading", { level: 1, name: "Dominatrix" })).toBeVisible();
    await expectOnFirstScreen(page.getByRole("heading", { level: 1, name: "Dominatrix" }), "the archetype");
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
    await expectOnFirstScreen(page.locator(".wizard-question h2"), "the calculator's first question");
    await scan();
    await answerAll(page, () => 2);

    // A full page load to the tier result.
    await expect(page).toHaveURL(/\/quiz\/earnings\?tier=Power(%20|\+)Earner&id=/);
    await expect(page.getByRole("heading", { level: 1, name: "Power Earner" })).toBeVisible();
    await expectOnFirstScreen(page.getByRole("heading", { level: 1, name: "Power Earner" }), "the tier");
    // One model for every figure: the headline is the worked example's own low and high, and
    // the tier's general range is labelled as such.
    const own = page.getByTestId("own-range");
    await expect(own).toHaveText("Your own estimate: $2,340 – $7,010 a month");
    await expect(page.getByTestId("tier-range")).toHaveText("$940 – $11,220 a month");
    await expect(page.getByText(/Power Earner in general: \$940 – \$11,220 a month/)).toBeVisible();
    await expect(page.getByText("4–6 days a week at 3–6 hours a show")).toBeVisible();
    // The worked example: 30 hours × 60 × 30% paid × 4.33 weeks × 50% × $2 / $3 / $6.
    const band = page.getByTestId("estimate-band");
    await expect(band).toHaveText("Low $2,340Typical $3,510High $7,010a month");
    await expect(
      page.getByText("Illustrative, not a prediction: many new performers earn less at first."),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Update" })).toBeHidden();
    await scan();
    // One more hour by keyboard: the band follows at once and the address keeps the view.
    const hours = page.getByRole("slider", { name: /Hours live per week/ });
    await hours.focus();
    await page.keyboard.press("ArrowRight");
    await expect(hours).toHaveValue("31");
    await expect(band).toHaveText("Low $2,420Typical $3,620High $7,250a month");
    await expect(own).toHaveText("Your own estimate: $2,420 – $7,250 a month");
    await expect(page).toHaveURL(/&hours=31&days=5&share=30$/);
    await page.reload();
    await expect(band).toHaveText("Low $2,420Typical $3,620High $7,250a month");
    await expect(page.getByRole("slider", { name: /Hours live per week/ })).toHaveValue("31");
    await scan();

    await page.getByRole("button", { name: "GET MY STARTER KIT" }).click();
    await expect(page).toHaveURL(/\/quiz\/starter-kit\?quizId=/);
    await expect(page.getByRole("heading", { level: 1, name: /Dominatrix/ })).toBeVisible();
    await expectOnFirstScreen(page.getByRole("heading", { level: 1, name: /Dominatrix/ }), "the starter kit");
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

test("leaving the quiz or the calculator through the site's links and coming back offers to continue, or to start again", async ({
  page,
  visit,
  scan,
}) => {
  test.setTimeout(90_000);
  await visit("/quiz");
  for (let q = 1; q <= 10; q++) {
    await page.getByRole("radio").nth(2).click();
    await waitForShown(page, `Question ${q + 1}/15`);
  }
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Blog", exact: true }).click();
  // The blog itself, not the quiz still shown while the blog loads (its heading is a level 1 too).
  await expect(page.getByRole("heading", { level: 1, name: "Cam Model Resources & Guides" })).toBeVisible();
  await expect(page).toHaveURL(/\/blog$/);
  await nav.getByRole("link", { name: "Quiz", exact: true }).click();
  await expect(page.getByText("Question 1/15")).toBeVisible();
  const offer = page.getByRole("region", { name: /questions earlier in this tab/ });
  await expect(offer).toContainText("You answered 10 of 15 questions earlier in this tab.");
  await scan();
  await offer.getByRole("button", { name: "Continue (question 11 of 15)" }).click();
  await expect(page.getByText("Question 11/15")).toBeVisible();
  await expect(page).toHaveURL(/\/quiz\?answers=C{10}$/);
  await expect(offer).toHaveCount(0);

  // The calculator keeps its own; "Start again" forgets them.
  await visit("/quiz/earnings");
  for (let q = 1; q <= 3; q++) {
    await page.getByRole("radio").nth(0).click();
    await waitForShown(page, `Question ${q + 1}/15`);
  }
  await visit("/quiz/earnings");
  await expect(offer).toContainText("You answered 3 of 15 questions earlier in this tab.");
  await offer.getByRole("button", { name: "Start again" }).click();
  await expect(offer).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 2, name: /hours a week/ })).toBeFocused();
  await visit("/quiz/earnings");
  await expect(page.getByText("Question 1/15")).toBeVisible();
  await expect(offer).toHaveCount(0);
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
    await waitForShown(page, `Question ${q}/15`);
    // Focus moved to the new question; Tab reaches its options.
    await expect(page.locator(".wizard-question h2")).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    // Space chose the first option (A): the next step's address holds it.
    if (q < 15) await expect(page).toHaveURL(new RegExp(`/quiz\\?answers=BA{${q - 1}}$`));
  }
  // B then fourteen A answers.
  await expect(page).toHaveURL(/\/quiz\/result\?archetype=Girl(%20|\+)Next(%20|\+)Door&id=/);
  await expect(page.getByRole("heading", { level: 1, name: "Girl Next Door" })).toBeVisible();
});

test("PREVIOUS goes back with the answer kept; CONTINUE moves on", async ({ page, visit }) => {
  await visit("/quiz");
  await page.getByRole("radio").nth(2).click();
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
  await expect(page.getByTestId("tier-range")).toHaveText("$30 – $470 a month");
  // 8 hours × 60 × 10% paid × 4.33 weeks × 50% × $0.50 / $2.
  await expect(page.getByTestId("own-range")).toHaveText("Your own estimate: $50 – $210 a month");
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
    await page.getByRole("radio").first().click();
    if (q < 15) await waitForShown(page, `Question ${q + 1}/15`);
  }
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Error");
  await expect(toast).toContainText("Failed to save quiz result. Please try again.");
  // Still on the last question, whose address holds the fourteen answers before it.
  await expect(page).toHaveURL(/\/quiz\?answers=A{14}$/);
});

test("an unknown result id says how long results are kept, with Retake the Quiz", async ({ page, visit }) => {
  await visit("/quiz/result?id=nope", { status: 404 });
  await expect(page.getByRole("heading", { name: "This result is no longer here" })).toBeVisible();
  await expect(page.getByText("Saved quiz results are kept for 180 days and then deleted")).toBeVisible();
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
  await expect(page).toHaveURL(/\/quiz\/earnings\?answers=2{14}$/);
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

  test("after each answer the new question and its first option are on the first screen", async ({ page, visit }) => {
    for (const path of ["/quiz", "/quiz/earnings"]) {
      await visit(path);
      for (let q = 1; q <= 5; q++) {
        await waitForShown(page, `Question ${q}/15`);
        await expectOnFirstScreen(page.locator(".wizard-question h2"), `question ${q}`);
        await expectOnFirstScreen(page.locator(".wizard-option"), `question ${q}'s first option`);
        await page.getByRole("radio").nth(1).tap();
      }
    }
  });

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
      await expectOnFirstScreen(page.getByRole("heading", { level: 1, name: "Dominatrix" }), "the archetype");
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

test("each step has its own address: reload keeps the step, Back goes to the previous question, Back from the result to the last one", async ({
  page,
  visit,
}) => {
  test.setTimeout(60_000);
  await visit("/quiz");
  for (const [q, option] of [0, 1, 2].entries()) {
    await page.getByRole("radio").nth(option).click();
    await waitForShown(page, `Question ${q + 2}/15`);
  }
  await expect(page).toHaveURL(/\/quiz\?answers=ABC$/);

  // A reload shows question 4; its previous question still has the answer given there.
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await expect(page.getByText("Question 4/15")).toBeVisible();
  await page.getByRole("button", { name: "PREVIOUS" }).click();
  await expect(page.getByText("Question 3/15")).toBeVisible();
  await expect(page).toHaveURL(/\/quiz\?answers=AB$/);
  await expect(page.getByRole("radio").nth(2)).toBeChecked();
  await expect(page.locator(".wizard-question h2")).toBeFocused();

  // The browser's Back goes to the previous question, not away from the quiz.
  await page.getByRole("button", { name: "CONTINUE" }).click();
  await expect(page.getByText("Question 4/15")).toBeVisible();
  await page.goBack();
  await expect(page.getByText("Question 3/15")).toBeVisible();
  await expect(page.getByRole("radio").nth(2)).toBeChecked();
  await page.goForward();
  await expect(page.getByText("Question 4/15")).toBeVisible();

  for (let q = 4; q <= 15; q++) {
    await page.getByRole("radio").first().click();
    if (q < 15) await waitForShown(page, `Question ${q + 1}/15`);
  }
  await expect(page).toHaveURL(/\/quiz\/result\?archetype=/);
  // The result itself, not the quiz still shown while it loads.
  await expect(page.getByRole("heading", { level: 1, name: "Discover Your Cam Girl Archetype" })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // Back from the result: the last question with the fourteen answers before it, not question 1.
  await page.goBack();
  await expect(page).toHaveURL(/\/quiz\?answers=ABCA{11}$/);
  await expect(page.getByText("Question 15/15")).toBeVisible();
  await expect(page.getByRole("button", { name: "SEE RESULTS" })).toBeVisible();
});

test.describe("without JavaScript, on a 375 × 812 phone", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });

  /** Each step is a page of its own: its question and first option are on the first screen. */
  async function onFirstScreen(page: Page) {
    await expectOnFirstScreen(page.locator(".wizard-question h2"), "the question");
    await expectOnFirstScreen(page.locator(".wizard-option"), "its first option");
  }

  /** Answers every question by choosing an option and pressing the form's button. */
  async function submitAll(page: Page, pick: number) {
    for (let q = 1; q <= 15; q++) {
      await waitForShown(page, `Question ${q}/15`);
      await onFirstScreen(page);
      await page.getByRole("radio").nth(pick).check();
      await page.getByRole("button", { name: q < 15 ? "CONTINUE" : "SEE RESULTS" }).click();
    }
  }

  test("the quiz and the calculator are completed as forms, ending on the result pages", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto("/quiz");
    // PREVIOUS is a link to the step before.
    await page.getByRole("radio").nth(3).check();
    await page.getByRole("button", { name: "CONTINUE" }).click();
    await expect(page).toHaveURL(/\/quiz\?answers=D$/);
    await page.getByRole("button", { name: "PREVIOUS" }).click();
    await expect(page).toHaveURL(/\/quiz$/);
    await expect(page.getByText("Question 1/15")).toBeVisible();

    // All B answers: Dominatrix, scored and saved by the server.
    await submitAll(page, 1);
    await expect(page).toHaveURL(/\/quiz\/result\?archetype=Dominatrix&id=[\w-]{22}$/);
    await expect(page.getByRole("heading", { level: 1, name: "Dominatrix" })).toBeVisible();

    // The calculator, linked to that result: all highest answers give Power Earner.
    await page.getByRole("button", { name: "Calculate My Earnings" }).click();
    await expect(page).toHaveURL(/\/quiz\/earnings\?quizId=[\w-]{22}$/);
    await submitAll(page, 2);
    await expect(page).toHaveURL(/\/quiz\/earnings\?tier=Power%20Earner&id=[\w-]{22}$/);
    await expect(page.getByRole("heading", { level: 1, name: "Power Earner" })).toBeVisible();
    await page.getByRole("button", { name: "GET MY STARTER KIT" }).click();
    await expect(page.getByRole("heading", { level: 1, name: /Dominatrix/ })).toBeVisible();
  });
});

// axe runs in the page's JavaScript: the step is checked as a browser shows it whose
// scripts never load (the site's own scripts are refused), the same HTML as without JavaScript.
test("a step served without its scripts passes axe in both themes, on a phone", async ({ browser }) => {
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, colorScheme });
    const page = await context.newPage();
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort("aborted"));
    await page.goto("/quiz/earnings?answers=1231");
    await expect(page.getByText("Question 5/15")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
    await axeScan(page);
    await context.close();
  }
});
