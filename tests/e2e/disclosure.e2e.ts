import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// Affiliate labels and the disclosure note, on a phone and a desktop, in both themes (each
// scan also checks the other theme), with discreet mode on.

const ANSWERS = ["A", "A", "B", "C", "A", "B", "D", "C", "A", "B", "C", "A", "B", "D", "C"];

/** Every visible affiliate link names a visible label next to it. */
async function expectLabelled(page: Page) {
  const links = page.locator('a[rel~="sponsored"]:visible');
  expect(await links.count()).toBeGreaterThan(0);
  for (const link of await links.all()) {
    const label = page.locator(`[id="${await link.getAttribute("aria-describedby")}"]`);
    await expect(label).toBeVisible();
    await expect(label).toHaveText(/^(Sponsored|Affiliate link)$/);
  }
}

for (const [device, viewport] of [
  ["phone", { width: 375, height: 812 }],
  ["desktop", { width: 1280, height: 800 }],
] as const) {
  test.describe(`on a ${device}`, () => {
    test.use({ viewport });

    test("labels next to each affiliate link, one note near the first, a link to the terms' section", async ({
      page,
      visit,
    }) => {
      await page.emulateMedia({ colorScheme: "dark" });
      const saved = await (
        await page.request.post("/api/quiz/result", { data: { archetype: "Couple", answers: ANSWERS } })
      ).json();
      await visit(`/quiz/result?archetype=Couple&id=${saved.id}`);
      await expect(page.getByRole("complementary", { name: "Sponsored" }).getByText("Sponsored")).toBeVisible();
      await expectLabelled(page);
      const note = page.locator(".affiliate-disclosure");
      await expect(note).toHaveCount(1);
      await expect(page.getByRole("complementary", { name: "Affiliate disclosure" })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await visit(`/quiz/starter-kit?quizId=${saved.id}`);
      await expectLabelled(page);
      await expect(page.locator(".affiliate-disclosure")).toHaveCount(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await page.emulateMedia({ colorScheme: "light" });
      await visit("/learn");
      await expectLabelled(page);
      const learnNote = page.locator(".platform-buttons .affiliate-disclosure");
      await expect(learnNote).toBeVisible();
      await learnNote.getByRole("link", { name: "Read our affiliate disclosure" }).click();
      await expect(page).toHaveURL(/\/terms#affiliate-disclosure$/);
      await expect(page.getByRole("heading", { name: "Affiliate disclosure" })).toBeInViewport();
    });

    test("an offer card is labelled Sponsored and carries the page's one visible note", async ({
      page,
      visit,
      scan,
    }) => {
      await visit("/learn/1");
      const offer = page.getByRole("complementary", { name: "Sponsored offer" });
      await expect(offer.getByRole("heading")).toBeVisible();
      await expect(offer.getByText("Sponsored", { exact: true })).toBeVisible();
      await expect(offer.locator(".affiliate-disclosure")).toBeVisible();
      // The footer's copy steps aside: one note shows on the page.
      await expect(page.locator(".affiliate-disclosure:visible")).toHaveCount(1);
      await expectLabelled(page);
      await scan();
    });

    test("discreet mode hides the banner and keeps the labels and the note", async ({ page, visit, scan }) => {
      await page.addInitScript(() => localStorage.setItem("discreet", "on"));
      await visit("/quiz/result?archetype=Dominatrix");
      await expect(page).toHaveTitle("Notes");
      await expect(page.getByRole("complementary", { name: "Sponsored" })).toHaveCount(0);
      await expect(page.getByRole("complementary", { name: "Affiliate disclosure" })).toBeVisible();
      await expectLabelled(page);
      await scan();
    });
  });
}
