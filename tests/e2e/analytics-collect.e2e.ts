import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

interface Sent {
  metric: string;
  key: string;
  status: number;
}

/** Every event the page sends to the beacon, with the status the server answered. */
function beacons(page: Page): Sent[] {
  const sent: Sent[] = [];
  page.on("response", async (response) => {
    if (!response.url().endsWith("/api/analytics")) return;
    const body = response.request().postDataJSON() as { events: { metric: string; key: string }[] };
    for (const event of body.events) sent.push({ ...event, status: response.status() });
  });
  return sent;
}

test("a visit reports what only the browser sees, once each, and the server accepts it", async ({ page, visit }) => {
  const sent = beacons(page);
  await visit("/");
  // The first page was counted by the server that sent it.
  await page.locator('main a[href="/quiz"]').first().click();
  await expect(page.getByText("Question 1/15")).toBeVisible();
  await expect.poll(() => sent).toContainEqual({ metric: "pageview", key: "/quiz", status: 204 });
  await page.getByRole("radio").nth(0).click();
  await expect(page.getByText("Question 2/15")).toBeVisible();
  await expect.poll(() => sent).toContainEqual({ metric: "quiz_start", key: "", status: 204 });
  // The second answer is not another start, nor another page.
  await page.getByRole("radio").nth(0).click();
  await expect(page.getByText("Question 3/15")).toBeVisible();

  // An offer card half on screen is reported once.
  await visit("/learn/1");
  const card = page.locator("aside.offer-card:not(.loading)");
  await card.scrollIntoViewIfNeeded();
  await expect.poll(() => sent.filter((s) => s.metric === "offer_view")).toHaveLength(1);
  expect(sent.find((s) => s.metric === "offer_view")?.status).toBe(204);
  expect(sent.filter((s) => s.metric === "quiz_start")).toHaveLength(1);
  expect(sent.filter((s) => s.metric === "pageview")).toEqual([{ metric: "pageview", key: "/quiz", status: 204 }]);
});

test("a browser with Global Privacy Control sends nothing", async ({ page, visit }) => {
  await page.addInitScript(() => Object.defineProperty(navigator, "globalPrivacyControl", { value: true }));
  const sent = beacons(page);
  await visit("/");
  await page.locator('main a[href="/quiz"]').first().click();
  await page.getByRole("radio").nth(0).click();
  await expect(page.getByText("Question 2/15")).toBeVisible();
  await visit("/learn/1");
  await page.locator("aside.offer-card:not(.loading)").scrollIntoViewIfNeeded();
  // Give a beacon the time it would take; none may come.
  await page.waitForLoadState("networkidle");
  expect(sent).toEqual([]);
});
