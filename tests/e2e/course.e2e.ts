import type { Browser, Locator, Page } from "@playwright/test";
import { axeScan, expect, expectOnFirstScreen, settleTransitions, test } from "./fixtures.ts";

/** A module quiz question as the course API sends it. */
interface QuizQuestion {
  correctAnswer: string;
  options: { id: string; text: string; explanation: string }[];
}

/** Axe in the light and the dark theme. */
async function scanBothThemes(page: Page) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
    // Colours animate to the theme: measured once they are there (on a busy machine a scan
    // right after the switch caught every link mid-change).
    await settleTransitions(page);
    await axeScan(page);
  }
}

/**
 * Axe cannot run in a page without scripts (its timers never fire): the same address is
 * scanned, in both themes, in a page whose own scripts are blocked, so it shows what the
 * server rendered.
 */
async function scanWithoutScripts(browser: Browser, url: string) {
  // Scripts on for axe itself (the describe block may turn them off for its contexts).
  const context = await browser.newContext({ javaScriptEnabled: true });
  await context.route(/\.js(\?|$)/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(url);
  await scanBothThemes(page);
  await context.close();
}

/** The offer card once its offer has loaded, and the box of its medium. */
async function shownOffer(page: Page) {
  const card = page.locator("aside.offer-card:not(.loading)");
  await expect(card).toBeVisible();
  // A video or embed from another site shows its placeholder (the same box) until asked for.
  const media = card.locator(".offer-media > :is(img, video, iframe, .offer-placeholder)");
  await expect(media).toBeVisible();
  return { card, media };
}

test.describe.configure({ timeout: 90_000 });

test("walk a module, take its quiz with one wrong answer, continue to the next module", async ({
  page,
  visit,
  scan,
}) => {
  await visit("/learn");
  await expect(page.getByRole("heading", { level: 1, name: "The Free Cam Model Course" })).toBeVisible();
  await page.getByRole("button", { name: "Start the Course" }).click();
  await expect(page).toHaveURL(/\/learn\/1$/);
  await expect(page.getByRole("heading", { level: 1, name: "Camming 101 – What to Expect" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
  for (let t = 1; t <= 5; t++) {
    await expect(page.getByText(`Topic ${t} of 5`)).toBeVisible();
    await expect(page.getByText(`${(t - 1) * 20}%`)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Pro tip" })).toBeVisible();
    if (t < 5) await page.getByRole("button", { name: "Next" }).click();
  }
  // Clicked through without reading: the end names the lessons left instead of claiming all are done.
  await expect(page.getByRole("heading", { name: "The end of this module's lessons" })).toBeVisible();
  await expect(page.getByText("4 lessons are not read through yet on this device:")).toBeVisible();
  await expect(page.getByRole("button", { name: "Next" })).toHaveCount(0);
  await scan();

  // Continue is a full page load.
  const navigation = page.waitForEvent("framenavigated");
  await page.getByRole("button", { name: "Continue" }).click();
  await navigation;
  await expect(page).toHaveURL(/\/learn\/module-complete\?moduleId=1$/);
  await expect(page.getByRole("heading", { level: 1, name: /Module 1 lessons done/ })).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Sponsored offer" }).getByRole("heading")).toBeVisible();
  await scan();

  await page.getByRole("button", { name: "Start Module 1 Quiz" }).click();
  await expect(page).toHaveURL(/\/learn\/1\?quiz=true$/);
  await expect(page.getByRole("heading", { name: "Module 1 Quiz" })).toBeVisible();

  // The right answers come from the same API the page reads.
  const module = await (await page.request.get("/api/course/modules/1")).json();
  const questions = module.quiz.questions as QuizQuestion[];
  for (let q = 0; q < questions.length; q++) {
    const { correctAnswer, options } = questions[q]!;
    await expect(page.getByRole("button", { name: "Submit Answer" })).toBeDisabled();
    // The first question is answered wrongly on purpose.
    const pick = q === 0 ? ["A", "B", "C", "D"].find((l) => l !== correctAnswer)! : correctAnswer;
    await page.locator(`input[type="radio"][value="${pick}"]`).check();
    await page.getByRole("button", { name: "Submit Answer" }).click();
    const right = options.find((o) => o.id === correctAnswer)!;
    const chosen = options.find((o) => o.id === pick)!;
    const feedback = page.getByRole("status");
    await expect(
      feedback.getByText(q === 0 ? `Not quite. You chose “${chosen.text}”` : `Correct! You chose “${right.text}”`),
    ).toBeVisible();
    if (q === 0) {
      await expect(feedback.getByText(chosen.explanation)).toBeVisible();
      await expect(feedback.getByText(`The right answer is “${right.text}”`)).toBeVisible();
    }
    await expect(feedback.getByText(right.explanation)).toBeVisible();
    await expect(page.locator(`input[type="radio"][value="${pick}"]`)).toBeDisabled();
    if (q === 0) await scan();
    await page.getByRole("button", { name: q < questions.length - 1 ? "Next Question" : "Complete Quiz" }).click();
  }
  await expect(page.getByRole("heading", { name: "Your score: 80%" })).toBeVisible();
  await expect(page.getByText("Great job! You've got a solid understanding!")).toBeVisible();
  await expect(page.getByText("You've successfully completed Module 1!")).toBeVisible();
  await scan();
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem("progress") ?? "{}").completed)).toEqual([1]);

  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/learn\/2$/);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy, Safety & Boundaries" })).toBeVisible();

  // The overview marks the completed module.
  await page.getByRole("link", { name: "Free course", exact: true }).click();
  await expect(page.locator("details.module-card.completed")).toHaveCount(1);
  await expect(page.locator("details.module-card.completed")).toContainText("Camming 101");
});

test("Review This Module Again returns to the first topic", async ({ page, visit }) => {
  await visit("/learn/7?quiz=true");
  const module = await (await page.request.get("/api/course/modules/7")).json();
  for (const [i, q] of (module.quiz.questions as { correctAnswer: string }[]).entries()) {
    await page.locator(`input[type="radio"][value="${q.correctAnswer}"]`).check();
    await page.getByRole("button", { name: "Submit Answer" }).click();
    await page.getByRole("button", { name: i < 4 ? "Next Question" : "Complete Quiz" }).click();
  }
  await expect(page.getByRole("heading", { name: "Your score: 100%" })).toBeVisible();
  await expect(page.getByText("Amazing! You've mastered this module!")).toBeVisible();
  await page.getByRole("button", { name: "Review This Module Again" }).click();
  await expect(page).toHaveURL(/\/learn\/7$/);
  await expect(page.getByText("Topic 1 of 5")).toBeVisible();
});

test("with scripts, the address of a quiz sent as a form shows its result, kept once the visitor saves it", async ({
  page,
  visit,
}) => {
  const module = await (await page.request.get("/api/course/modules/7")).json();
  const answers = (module.quiz.questions as { correctAnswer: string }[])
    .map((q, i) => `a${i + 1}=${q.correctAnswer}`)
    .join("&");
  await visit(`/learn/7?quiz=true&${answers}`);
  await expect(page.getByRole("heading", { name: "Your score: 100%" })).toBeVisible();
  await expect(page.getByText("Correct! You chose", { exact: false })).toHaveCount(5);
  // Scripts run here, but answers in an address (a link anyone could send) are not kept unasked.
  const completed = () => page.evaluate(() => JSON.parse(localStorage.getItem("progress") ?? "{}").completed ?? []);
  expect(await completed()).toEqual([]);
  await page.getByRole("button", { name: "Save it to my progress" }).click();
  await expect(page.getByText("Saved to your progress on this device.")).toBeVisible();
  await expect.poll(completed).toEqual([7]);
  await expect(page.getByText(/Without JavaScript this browser keeps no course progress/)).toBeHidden();
});

test("a non-numeric module id redirects to /learn; an unknown one is 'Module Not Found'", async ({ page, visit }) => {
  const redirect = await page.request.get("/learn/intro", { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers().location).toBe("/learn");
  await visit("/learn/42", { status: 404 });
  await expect(page.getByRole("heading", { level: 1, name: "Module Not Found" })).toBeVisible();
  await expect(page.getByText("The requested module doesn't exist. Please return to the course page.")).toBeVisible();
});

test("offer media keep their own shape: an image its natural ratio, a video and an embed 16:9", async ({
  page,
  visit,
}) => {
  // Module 3: an image; module 2: a video; module 8: an embed.
  for (const [path, selector] of [
    ["/learn/3", "img.offer-image"],
    ["/learn/2", "video.offer-video"],
    ["/learn/8", "iframe.offer-embed"],
  ] as const) {
    await visit(path);
    // An embed waits behind its placeholder (the same 16:9 box) until asked for.
    if (selector === "iframe.offer-embed") await page.getByRole("button", { name: "Load content" }).click();
    const { media } = await shownOffer(page);
    await expect(media).toHaveCount(1);
    expect(await media.evaluate((el, s) => el.matches(s), selector)).toBe(true);
    const expected =
      selector === "img.offer-image"
        ? await media.evaluate(async (img: HTMLImageElement) => {
            await img.decode();
            return img.naturalWidth / img.naturalHeight;
          })
        : 16 / 9;
    const box = (await media.boundingBox())!;
    expect(Math.abs(box.width / box.height - expected) / expected, `${path} ratio`).toBeLessThan(0.02);
    // Beside the words on a wide screen: the module's title is on the first screen, and the
    // card's buttons are tap-sized.
    await expectOnFirstScreen(page.getByRole("heading", { level: 1 }), `${path}'s module title`);
    for (const button of await page.locator(".offer-actions > *").all())
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    // Not a wide, short strip: a real height, and no more than a third of the window.
    expect(box.height).toBeGreaterThan(120);
    expect(box.height).toBeLessThanOrEqual(800 / 3 + 1);
    // The offer's title is whole, never cut to one line.
    const title = page.locator(".offer-title");
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth && getComputedStyle(el).textOverflow)).toBe(
      "clip",
    );
  }
});

test("with scripts, a lesson is in the address: reload keeps it, Back returns to the one before", async ({
  page,
  visit,
}) => {
  await visit("/learn/1");
  const module = await (await page.request.get("/api/course/modules/1")).json();
  const topics = module.topics as { title: string }[];
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/learn\/1\?topic=2$/);
  await expect(page.getByRole("heading", { level: 2, name: topics[1]!.title })).toBeFocused();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/learn\/1\?topic=3$/);
  await expect(page.getByRole("heading", { level: 2, name: topics[2]!.title })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 2, name: topics[2]!.title })).toBeVisible();
  await expect(page.getByText("Topic 3 of 5")).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/learn\/1\?topic=2$/);
  await expect(page.getByRole("heading", { level: 2, name: topics[1]!.title })).toBeFocused();
  await page.goBack();
  await expect(page).toHaveURL(/\/learn\/1$/);
  await expect(page.getByRole("heading", { level: 2, name: topics[0]!.title })).toBeVisible();
  // Beside the lesson on a wide screen, the course's contents link each lesson.
  await page
    .getByRole("navigation", { name: "Course contents" })
    .getByRole("link", { name: topics[4]!.title, exact: true })
    .click();
  await expect(page).toHaveURL(/\/learn\/1\?topic=5$/);
  await expect(page.getByRole("heading", { name: "The end of this module's lessons" })).toBeVisible();
  await scanBothThemes(page);
});

test("offer cards: an image, a self-hosted video, and an embed that cannot touch the page", async ({
  page,
  visit,
  context,
}) => {
  const offer = page.getByRole("complementary", { name: "Sponsored offer" });

  await visit("/learn/3");
  await expect(offer.locator("img.offer-image")).toBeVisible();
  await expect(offer.getByRole("button", { name: /Start my profile/ })).toHaveAttribute("rel", "sponsored noopener");
  await expect(offer.getByRole("button", { name: /Start my profile/ })).toHaveAttribute("target", "_blank");

  await visit("/learn/2");
  const video = offer.locator("video.offer-video");
  await expect(video).toBeVisible();
  await expect(video).toHaveJSProperty("muted", true);
  await expect(video).toHaveJSProperty("loop", true);
  // A video on the site loads at once but never plays by itself; its controls start it.
  await expect(video).toHaveJSProperty("autoplay", false);
  await expect(video).toHaveJSProperty("controls", true);
  await expect(video).toHaveJSProperty("paused", true);

  // Module 4 has two offers: 'Show different offer' alternates between them.
  await context.addCookies([{ name: "probe", value: "secret", url: page.url() }]);
  await visit("/learn/4");
  const frame = offer.locator("iframe.offer-embed");
  const another = offer.getByRole("button", { name: "Show different offer" });
  // Enabled once the offers have loaded; if the embed is not the one shown, the other is.
  await expect(another).toBeEnabled();
  const load = offer.getByRole("button", { name: "Load content" });
  if (!(await load.count())) await another.click();
  await load.click();
  await expect(frame).toBeVisible();
  await expect(frame).toHaveAttribute("sandbox", "allow-scripts allow-popups allow-popups-to-escape-sandbox");
  const embed = page.frameLocator("iframe.offer-embed");
  await expect(embed.getByText("Your first stream, step by step")).toBeVisible();
  const probe = await page
    .frames()
    .find((f) => f.url().includes("/embed/offer/"))!
    .evaluate(() => {
      const attempts: string[] = [];
      try {
        attempts.push(`cookie:${document.cookie}`);
      } catch {
        attempts.push("cookie:blocked");
      }
      try {
        attempts.push(`parent:${window.parent.document.title}`);
      } catch {
        attempts.push("parent:blocked");
      }
      try {
        attempts.push(`storage:${localStorage.length}`);
      } catch {
        attempts.push("storage:blocked");
      }
      return attempts;
    });
  expect(probe).toEqual(["cookie:blocked", "parent:blocked", "storage:blocked"]);

  // The other offer shows after asking for a different one.
  await offer.getByRole("button", { name: "Show different offer" }).click();
  await expect(offer.locator("img.offer-image")).toBeVisible();
  // Its button says where its link goes.
  await expect(offer.getByRole("button", { name: /Compare key lights/ })).toHaveAttribute("target", "_blank");
});

test("an offer with an empty link text shows no link button", async ({ page, visit }) => {
  await page.route("**/api/module/4/affiliate-offers*", async (route) => {
    const response = await route.fetch();
    const offers = (await response.json()) as { imageUrl: string | null; linkText: string | null }[];
    await route.fulfill({ response, json: offers.filter((o) => o.imageUrl).map((o) => ({ ...o, linkText: "" })) });
  });
  await visit("/learn/4");
  const offer = page.getByRole("complementary", { name: "Sponsored offer" });
  await expect(offer.locator("img.offer-image")).toBeVisible();
  await expect(offer.getByRole("button", { name: /opens in a new tab/ })).toHaveCount(0);
});

test("a broken offer image falls back to the placeholder", async ({ page, visit, allowProblem }) => {
  allowProblem(/studio-setup\.svg|status of 404/);
  await page.route("**/seed/offers/studio-setup.svg", (route) => route.fulfill({ status: 404, body: "" }));
  await page.route("**/api/module/1/affiliate-offers*", async (route) => {
    const response = await route.fetch();
    const offers = (await response.json()) as { imageUrl: string | null }[];
    await route.fulfill({ response, json: offers.filter((o) => o.imageUrl) });
  });
  await visit("/learn/1");
  await expect(page.locator("img.offer-image")).toHaveAttribute("src", "/seed/offers/placeholder.svg");
});

test("no offer card when the offers call fails", async ({ page, visit, allowProblem }) => {
  allowProblem(/affiliate-offers|status of 500/);
  await page.route("**/api/module/5/affiliate-offers*", (route) =>
    route.fulfill({ status: 500, json: { error: "x" } }),
  );
  await visit("/learn/5");
  await expect(page.getByText("Topic 1 of 5")).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Sponsored offer" })).toHaveCount(0, { timeout: 10_000 });
});

test("the graduation page waits for every module: what is done and what is left before", async ({
  page,
  visit,
  scan,
}) => {
  await page.addInitScript(() => localStorage.setItem("completedModules", "[1,2]"));
  await visit("/learn/complete");
  await expect(page.getByText("You have completed 2 of 10 modules.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Congratulations" })).toHaveCount(0);
  const left = page.getByRole("region", { name: "Still to do" }).getByRole("link");
  await expect(left).toHaveCount(8);
  await scan();
  await page.getByRole("button", { name: "Continue with Module 3" }).click();
  await expect(page).toHaveURL(/\/learn\/3$/);
});

test("the graduation page", async ({ page, visit }) => {
  await page.addInitScript(() => {
    localStorage.setItem("completedModules", "[1,2,3,4,5,6,7,8,9,10]");
  });
  await visit("/learn/complete");
  await expect(page.getByRole("heading", { level: 1, name: "Congratulations" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Skills you gained" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Next steps" })).toBeVisible();
  // As shipped, only the gift that exists: no discount or community until the owner sets one.
  const gifts = page.getByRole("region", { name: "Your graduation gifts" });
  await expect(gifts.getByRole("heading", { level: 3 })).toHaveText(["Resource Library"]);
  await expect(page.getByRole("button", { name: "Open the Library" })).toHaveAttribute("href", "/resources");
  await expect(page.getByRole("button", { name: "Back to Courses" })).toHaveAttribute("href", "/learn");
  await page.getByRole("button", { name: "Start Your Career" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Resource Library" })).toBeVisible();
});

test("without JavaScript a lesson shows no offer placeholder that would never load", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/learn/1");
  await expect(page.getByRole("heading", { level: 1, name: "Camming 101 – What to Expect" })).toBeVisible();
  await expect(page.getByText("Topic 1 of 5")).toBeVisible();
  await expect(page.getByText("Loading offer")).toBeHidden();
  await expect(page.getByRole("complementary", { name: "Sponsored offer" })).toHaveCount(0);
  // Nor a heading over an offer that never comes, nor a theme button that cannot work.
  await page.goto("/learn/module-complete?moduleId=1");
  await expect(page.getByRole("heading", { name: "Module 1 lessons done!" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "A special offer for you" })).toBeHidden();
  await expect(page.getByRole("button", { name: /theme/ })).toBeHidden();
  await context.close();
});

test("a completion page's offer heading comes with its offer, and goes when there is none", async ({
  page,
  visit,
  allowProblem,
}) => {
  await visit("/learn/module-complete?moduleId=1");
  await expect(page.getByRole("heading", { name: "A special offer for you" })).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Sponsored offer" })).toBeVisible();
  allowProblem(/affiliate-offers|status of 500/);
  await page.route("**/api/module/2/affiliate-offers*", (route) =>
    route.fulfill({ status: 500, json: { error: "x" } }),
  );
  await page.goto("/learn/module-complete?moduleId=2");
  await expect(page.getByRole("button", { name: "Start Module 2 Quiz" })).toBeVisible();
  // After its one retry the loading card goes, and its heading with it.
  await expect(page.locator(".offer-card")).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByRole("heading", { name: "A special offer for you" })).toHaveCount(0);
});

test.describe("without JavaScript, on a 375 × 812 phone", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });

  test("lessons are links; the module quiz is a form scored by the server", async ({ page, browser }) => {
    // Five lessons, the module quiz and three axe scans of pages opened afresh without scripts.
    test.setTimeout(60_000);
    const module = await (await page.request.get("/api/course/modules/1")).json();
    const topics = module.topics as { title: string }[];
    const questions = module.quiz.questions as QuizQuestion[];

    await page.goto("/learn/1");
    await expect(page.getByRole("heading", { level: 2, name: topics[0]!.title })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/learn\/1\?topic=2$/);
    await expectOnFirstScreen(page.getByRole("heading", { level: 2, name: topics[1]!.title }), "lesson 2");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/learn\/1\?topic=3$/);
    await expectOnFirstScreen(page.getByRole("heading", { level: 2, name: topics[2]!.title }), "lesson 3");
    await expect(page.getByText("Topic 3 of 5")).toBeVisible();
    await expect(page.getByRole("progressbar", { name: "Module progress" })).toHaveAttribute("aria-valuenow", "40");
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(page).toHaveURL(/\/learn\/1\?topic=2$/);
    await scanWithoutScripts(browser, page.url());
    // Without scripts the course's contents follow the lesson, this module's lessons listed.
    await page
      .getByRole("navigation", { name: "Course contents" })
      .getByRole("link", { name: topics[4]!.title, exact: true })
      .click();
    await expect(page).toHaveURL(/\/learn\/1\?topic=5$/);

    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/learn\/module-complete\?moduleId=1$/);
    await page.getByRole("button", { name: "Start Module 1 Quiz" }).click();
    await expect(page).toHaveURL(/\/learn\/1\?quiz=true$/);
    await expectOnFirstScreen(page.getByRole("heading", { name: "Module 1 Quiz" }), "the module quiz");
    await expect(page.locator(".module-quiz-form").getByRole("group")).toHaveCount(questions.length);
    await scanWithoutScripts(browser, page.url());

    // Every answer right but the first.
    for (const [q, { correctAnswer }] of questions.entries()) {
      const pick = q === 0 ? ["A", "B", "C", "D"].find((l) => l !== correctAnswer)! : correctAnswer;
      await page.locator(`input[type="radio"][name="a${q + 1}"][value="${pick}"]`).check();
    }
    await page.getByRole("button", { name: "Complete Quiz" }).click();
    await expect(page).toHaveURL(/\/learn\/1\?quiz=true&a1=[A-D]&a2=[A-D]&a3=[A-D]&a4=[A-D]&a5=[A-D]$/);
    await expectOnFirstScreen(page.getByRole("heading", { name: "Your score: 80%" }), "the score");
    await expect(page.getByText("Great job! You've got a solid understanding!")).toBeVisible();
    await expect(page.getByText("You've successfully completed Module 1!")).toBeVisible();
    const first = questions[0]!;
    const right = first.options.find((o) => o.id === first.correctAnswer)!;
    await expect(page.getByText(`The right answer is ${right.id}: “${right.text}”`)).toBeVisible();
    await expect(page.getByText(right.explanation)).toBeVisible();
    await expect(page.getByText(/Without JavaScript this browser keeps no course progress/)).toBeVisible();
    await scanWithoutScripts(browser, page.url());
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/learn\/2$/);
  });
});

test.describe("on a 375 × 812 phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the offer card is compact: the module's and the lesson's titles are on the first screen", async ({
    page,
    visit,
  }) => {
    // Module 1 (an image or a video, whichever comes), 3 (an image), 8 (an embed): none of them
    // is shown (or fetched) in the compact card a phone shows above the lesson.
    for (const path of ["/learn/1", "/learn/3", "/learn/8"]) {
      await visit(path);
      const card = page.getByRole("complementary", { name: "Sponsored offer" });
      await expect(card.locator(".offer-title")).toBeVisible();
      await expect(card.locator("img, video, iframe, .offer-placeholder")).toHaveCount(0);
      for (const heading of [page.getByRole("heading", { level: 1 }), page.locator("#topic-title")]) {
        const box = (await heading.boundingBox())!;
        expect(box.y + box.height, `${path} ${await heading.textContent()}`).toBeLessThanOrEqual(812);
      }
      // The offer's title is whole, wrapped when it is long.
      const title = page.locator(".offer-title");
      expect(
        await title.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1),
      ).toBe(true);
    }
    await scanBothThemes(page);
  });

  /** The heading has the focus and sits in the top half of the screen, below the sticky header. */
  async function expectRevealed(page: Page, heading: Locator) {
    await expect(heading).toBeFocused();
    const header = await page.locator(".site-header").boundingBox();
    await expect
      .poll(async () => {
        const box = await heading.boundingBox();
        return box !== null && header !== null && box.y >= header.height - 1 && box.y < 812 / 2;
      })
      .toBe(true);
  }

  test("an offer that arrives or goes while the next lesson scrolls into view leaves that lesson in view", async ({
    page,
    visit,
  }) => {
    for (const offers of ["none", "some"] as const) {
      // The module's offers are held back until the visitor has pressed Next.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(/\/affiliate-offers/, async (route) => {
        await held;
        if (offers === "none") await route.fulfill({ status: 200, contentType: "application/json", body: "[]" });
        else await route.continue();
      });
      await visit("/learn/1");
      await expect(page.locator(".offer-card.loading")).toBeVisible();
      await page.getByRole("button", { name: "Next" }).click();
      release();
      const heading = page.getByRole("heading", { level: 2, name: /./ }).and(page.locator("#topic-title"));
      await expectRevealed(page, heading);
      await expect(page.locator(".offer-card.loading")).toHaveCount(0);
      // Where it was meant to be: the lesson's count just below the sticky header.
      await expect
        .poll(
          () =>
            page.evaluate(() => {
              const header = document.querySelector(".site-header")!.getBoundingClientRect().bottom;
              return Math.round(
                document.querySelector(".topic-viewer .wizard-progress")!.getBoundingClientRect().top - header,
              );
            }),
          { message: `with ${offers} offers` },
        )
        .toBe(12);
      await page.unrouteAll();
    }
  });

  test("Next, Previous, the module quiz's questions and its score come into view with the focus", async ({
    page,
    visit,
  }) => {
    await visit("/learn/1");
    const progress = page.getByRole("progressbar", { name: "Module progress" });
    // Nothing is read on the first topic.
    await expect(progress).toHaveAttribute("aria-valuenow", "0");

    const module = await (await page.request.get("/api/course/modules/1")).json();
    const topics = module.topics as { title: string }[];
    await page.getByRole("button", { name: "Next" }).click();
    await expectRevealed(page, page.getByRole("heading", { level: 2, name: topics[1]!.title }));
    await expect(progress).toHaveAttribute("aria-valuenow", "20");
    await page.getByRole("button", { name: "Next" }).click();
    await expectRevealed(page, page.getByRole("heading", { level: 2, name: topics[2]!.title }));
    await page.getByRole("button", { name: "Previous" }).click();
    await expectRevealed(page, page.getByRole("heading", { level: 2, name: topics[1]!.title }));

    await visit("/learn/module-complete?moduleId=1");
    await page.getByRole("button", { name: "Start Module 1 Quiz" }).click();
    await expect(page).toHaveURL(/\/learn\/1\?quiz=true$/);
    await expectRevealed(page, page.getByRole("heading", { name: "Module 1 Quiz" }));

    const questions = module.quiz.questions as { question: string; correctAnswer: string }[];
    for (let q = 0; q < questions.length; q++) {
      // With the keyboard alone: the answers follow the focused heading.
      await page.keyboard.press("Tab");
      await expect(page.locator('input[type="radio"]').first()).toBeFocused();
      await page.locator(`input[type="radio"][value="${questions[q]!.correctAnswer}"]`).check();
      await page.getByRole("button", { name: "Submit Answer" }).focus();
      await page.keyboard.press("Enter");
      // The button keeps the focus as it becomes the way on: it and the feedback are on screen.
      const last = q === questions.length - 1;
      const onward = page.getByRole("button", { name: last ? "Complete Quiz" : "Next Question" });
      await expect(onward).toBeFocused();
      await expectOnFirstScreen(onward, `after question ${q + 1}, the way on`);
      await expect(page.getByRole("status").getByText("Correct!")).toBeInViewport();
      await page.keyboard.press("Enter");
      if (!last) {
        await expectRevealed(page, page.getByRole("heading", { level: 3, name: questions[q + 1]!.question }));
        // Its count line too, not under the header.
        await expectOnFirstScreen(page.getByText(`Question ${q + 2} of ${questions.length}`), "the count");
      }
    }
    await expectRevealed(page, page.getByRole("heading", { name: "Your score: 100%" }));
  });
});
