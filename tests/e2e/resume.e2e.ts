import type { Page } from "@playwright/test";
import { axeScan, expect, test, waitForHydration } from "./fixtures.ts";

// Carrying progress to another device with a resume code, and the printable certificate.

const PHONE = { width: 375, height: 812 };

test.describe.configure({ timeout: 90_000 });

/** Takes a module's quiz through the page, every answer right. */
async function passModuleQuiz(page: Page, module: number) {
  const data = await (await page.request.get(`/api/course/modules/${module}`)).json();
  for (const [i, q] of (data.quiz.questions as { correctAnswer: string }[]).entries()) {
    await page.locator(`input[type="radio"][value="${q.correctAnswer}"]`).check();
    await page.getByRole("button", { name: "Submit Answer" }).click();
    await page.getByRole("button", { name: i < 4 ? "Next Question" : "Complete Quiz" }).click();
  }
  await expect(page.getByRole("heading", { name: "Your score: 100%" })).toBeVisible();
}

const storedProgress = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem("progress") ?? "null"));

async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("a resume link moves everything to a fresh browser, after a preview and a confirmation", async ({
    page,
    visit,
    scan,
    browser,
    baseURL,
    context,
  }) => {
    // Progress made on this device: a module quiz through the page, lessons read and a result.
    await visit("/learn/7?quiz=true");
    await passModuleQuiz(page, 7);
    await page.evaluate(() => {
      const p = JSON.parse(localStorage.getItem("progress") ?? "{}");
      localStorage.setItem(
        "progress",
        JSON.stringify({
          ...p,
          quiz: { id: "AbCdEfGhIjKlMnOpQrStUw", archetype: "Cosplay Babe" },
          read: { 1: [1, 2, 3, 4, 5], 2: [1, 2] },
          last: { module: 2, lesson: 3 },
        }),
      );
    });
    const made = await storedProgress(page);
    expect(made.completed).toEqual([7]);
    expect(made.quizzes[7]).toMatchObject({ correct: 5, total: 5 });

    // The privacy page leads to the resume page.
    await visit("/privacy");
    await page.getByRole("link", { name: "Make or use a resume code" }).click();
    await expect(page).toHaveURL(/\/resume$/);
    await expect(page.getByRole("heading", { level: 1, name: "Continue on another device" })).toBeVisible();
    const code = await page.getByLabel("Code", { exact: true }).inputValue();
    expect(code).toMatch(/^CG1\.[A-Za-z0-9_-]+$/);
    await expect(page.getByText("Anyone with this code or link can see your results and progress")).toBeVisible();
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy link" }).click();
    await expect(page.getByText("Link copied.")).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${baseURL}/resume#${code}`);
    await scan();
    await fitsWidth(page, PHONE.width);

    // A new browser profile: nothing shared with the first one.
    const fresh = await browser.newContext({ viewport: PHONE });
    const other = await fresh.newPage();
    const errors: string[] = [];
    other.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") errors.push(msg.text());
    });
    other.on("pageerror", (error) => errors.push(error.message));
    // The code travels in the fragment: the server is asked for /resume only.
    const asked: string[] = [];
    other.on("request", (request) => asked.push(request.url()));
    await other.goto(link);
    await waitForHydration(other);
    expect(asked.some((url) => url.includes(code) || url.includes("CG1"))).toBe(false);

    const preview = other.getByRole("heading", { name: "What this code will restore" });
    await expect(preview).toBeVisible();
    await expect(preview).toBeFocused();
    // The code left the address bar once read.
    await expect(other).toHaveURL(`${baseURL}/resume`);
    const rows = other.getByRole("table");
    await expect(rows.getByRole("row", { name: /Persona quiz result Cosplay Babe None/ })).toBeVisible();
    await expect(rows.getByRole("row", { name: /Lessons read 7 of 50 0 of 50/ })).toBeVisible();
    await expect(rows.getByRole("row", { name: /Modules completed 1 of 10 \(7\) None/ })).toBeVisible();
    await expect(rows.getByRole("row", { name: /Quiz scores Module 7: 5\/5 None/ })).toBeVisible();
    await expect(rows.getByRole("row", { name: /Last lesson Module 2, lesson 3 None/ })).toBeVisible();
    expect(await storedProgress(other)).toBeNull();
    await axeScan(other);
    await fitsWidth(other, PHONE.width);

    // By keyboard: from the preview's heading to the confirmation.
    await other.keyboard.press("Tab");
    await expect(other.getByRole("button", { name: "Replace my progress on this device" })).toBeFocused();
    await other.keyboard.press("Enter");
    await expect(other.getByText("Done: this device now has the progress from your code.")).toBeFocused();
    expect(await storedProgress(other)).toEqual(made);
    await axeScan(other);

    // Continue goes where the first device would have gone: the lesson opened last.
    await expect(other.getByRole("button", { name: "Continue the course" })).toHaveAttribute(
      "href",
      "/learn/2?topic=3",
    );
    await other.getByRole("button", { name: "Go to the course" }).click();
    await expect(other).toHaveURL(`${baseURL}/learn`);
    await expect(other.getByText("You have completed 1 of 10 modules.")).toBeVisible();
    await expect(other.locator("details.module-card.completed")).toHaveCount(1);
    await expect(other.locator("details.module-card.completed")).toContainText("Module 7");
    expect(errors).toEqual([]);
    await fresh.close();
  });

  test("a mistyped code is refused and nothing changes", async ({ page, visit, scan }) => {
    await visit("/resume");
    await expect(page.getByText("This device has nothing to carry yet.")).toBeVisible();
    const box = page.getByLabel("Paste a resume code or link");
    await box.fill("CG1.AAAAAAAAAAAAAAAAAAAB");
    await box.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alert")).toContainText("a character is wrong or missing");
    await expect(page.getByRole("table")).toHaveCount(0);
    expect(await storedProgress(page)).toBeNull();
    await scan();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: PHONE });

  test("the resume page and the certificate say they need JavaScript and offer the course", async ({ page }) => {
    await page.goto("/resume");
    await expect(page.getByText("This needs JavaScript, because your progress lives in your browser")).toBeVisible();
    await expect(page.getByText("Reading your progress on this device")).toBeHidden();
    await page.goto("/learn/certificate");
    await expect(page.getByText("so this page needs JavaScript")).toBeVisible();
    await expect(page.getByRole("link", { name: "go to the course" })).toHaveAttribute("href", "/learn");
  });
});

const ALL_DONE = {
  completed: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  quizzes: {},
  read: {},
};

test("certificate: reached from the graduation, the name typed by keyboard, printed on one clean page", async ({
  page,
  visit,
  scan,
}) => {
  await page.addInitScript((progress) => {
    if (!localStorage.getItem("progress")) localStorage.setItem("progress", JSON.stringify(progress));
    // The print dialog is the browser's: the journey checks that the button asks for it.
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed++;
    };
  }, ALL_DONE);
  await visit("/learn/complete");
  await expect(page.getByRole("heading", { level: 1, name: "Congratulations" })).toBeVisible();
  await page.getByRole("button", { name: "Get your certificate" }).click();
  await expect(page).toHaveURL(/\/learn\/certificate$/);
  await waitForHydration(page);
  // Reached in place: scanned once its page (loaded on demand) has its heading and title.
  await expect(page.getByRole("heading", { level: 1, name: "Your course certificate" })).toBeVisible();
  await expect(page).toHaveTitle(/Your Course Certificate/);
  await scan();

  const name = page.getByLabel("Your name");
  await name.focus();
  await page.keyboard.type("Alex Rivera");
  const certificate = page.getByRole("article", { name: "Certificate" });
  await expect(certificate).toContainText("Alex Rivera");
  await expect(certificate).toContainText("completed all 10 modules");
  await expect(certificate).toContainText("Self-reported: recorded on the learner's own device.");
  // The name went nowhere: not in the address, not in storage.
  expect(page.url()).not.toContain("Alex");
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toContain("Alex");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Print or save as PDF" })).toBeFocused();
  await page.keyboard.press("Enter");
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

  await page.emulateMedia({ media: "print" });
  for (const hidden of [".site-header", ".site-footer", ".certificate-controls"])
    await expect(page.locator(hidden)).toBeHidden();
  await expect(page.locator(".promo-banner")).toBeHidden();
  await expect(certificate).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("certificate-print.png"), fullPage: true });
  const pdf = await page.pdf({ preferCSSPageSize: true, path: test.info().outputPath("certificate.pdf") });
  expect(pdf.toString("latin1").match(/\/Type\s*\/Page\b/g)?.length).toBe(1);
  await page.emulateMedia({ media: "screen" });
  await expect(page.locator(".site-header")).toBeVisible();
});

test("certificate before the end: how many modules are left, and the way on", async ({ page, visit }) => {
  await page.addInitScript(() => {
    localStorage.setItem("progress", JSON.stringify({ completed: [1, 2, 3], read: { 4: [1] } }));
  });
  await visit("/learn/certificate");
  await expect(page.getByText(/You have 7 modules left/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue the course" })).toHaveAttribute("href", "/learn/4?topic=2");
  await expect(page.getByLabel("Your name")).toHaveCount(0);
});

test("on a desktop, the course's progress page leads to the resume page, which shows this device's code", async ({
  page,
  visit,
}) => {
  await page.addInitScript(() => {
    localStorage.setItem("progress", JSON.stringify({ completed: [1, 2], read: { 3: [1, 2] } }));
  });
  await visit("/learn/complete");
  await page.getByRole("link", { name: "Carry your progress there with a resume code" }).click();
  await expect(page).toHaveURL(/\/resume$/);
  await expect(page.getByLabel("Code", { exact: true })).toHaveValue(/^CG1\./);
  await expect(page.getByLabel("Link", { exact: true })).toHaveValue(/\/resume#CG1\./);
  await fitsWidth(page, 1280);
});
