import type { Page } from "@playwright/test";
import { shareImagePath } from "#shared/features/quiz/share.ts";
import { expect, test } from "./fixtures.ts";

// The persona result page: the top three archetypes with their share of the points, what the
// runner-up means, and a Share control that offers the archetype's own address only.

const ANSWERS = ["B", "B", "B", "B", "B", "B", "B", "B", "B", "B", "B", "B", "B", "B", "B"];

async function saveResult(page: Page): Promise<{ id: string; archetype: string }> {
  const res = await page.request.post("/api/quiz/result", { data: { archetype: "Dominatrix", answers: ANSWERS } });
  expect(res.status()).toBe(201);
  return res.json();
}

/** The chart's rows as text: name and percentage. */
const chartRows = (page: Page) => page.getByRole("region", { name: "Your top three" }).getByRole("listitem");

/** What the Share control offers, checked to carry the archetype and nothing else. */
function expectArchetypeOnly(address: string, archetype: string, id: string) {
  const url = new URL(address);
  expect(url.pathname).toBe("/quiz/result");
  expect([...url.searchParams.entries()]).toEqual([["archetype", archetype]]);
  expect(address).not.toContain(id);
  expect(address).not.toContain(ANSWERS.join(""));
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the chart shows three rows with percentages; Share copies the archetype-only address, by keyboard", async ({
    page,
    context,
    visit,
    scan,
  }) => {
    test.setTimeout(60_000);
    // A browser without a share sheet: Share copies the address instead.
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "share", { value: undefined }));
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const { id, archetype } = await saveResult(page);
    await visit(`/quiz/result?archetype=${archetype}&id=${id}`);

    await expect(chartRows(page)).toHaveCount(3);
    const rows = await chartRows(page).allInnerTexts();
    for (const row of rows) expect(row.replace(/\s+/g, " ")).toMatch(/^[A-Za-z /]+ \d{1,3}%$/);
    expect(rows[0]).toContain("Dominatrix");
    const runnerUp = rows[1]!.replace(/\s*\d+%$/, "").trim();
    await expect(page.getByText(`Your runner-up is ${runnerUp}.`)).toBeVisible();
    // Nothing scrolls sideways at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    const share = page.getByRole("button", { name: "Share", exact: true });
    await share.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expectArchetypeOnly(copied, archetype, id);
    // The address is also shown as text, the same one.
    await expect(page.locator(".share-address a")).toHaveText(copied);
    await scan();
  });

  test("the shared address opens the archetype's page: no answers, so no chart", async ({ page, visit }) => {
    await visit("/quiz/result?archetype=Dominatrix");
    await expect(page.getByRole("heading", { level: 1, name: "Dominatrix" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Your top three" })).toHaveCount(0);
    await expect(page.locator(".share-address a")).toHaveAttribute("href", "/quiz/result?archetype=Dominatrix");
  });

  test("without JavaScript the chart and the address are there; no dead Share button", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    const { id, archetype } = await saveResult(page);
    await page.goto(`/quiz/result?archetype=${archetype}&id=${id}`);
    await expect(chartRows(page)).toHaveCount(3);
    await expect(page.locator(".share-address a")).toHaveAttribute("href", `/quiz/result?archetype=${archetype}`);
    await expect(page.getByRole("button", { name: "Share", exact: true })).toHaveCount(0);
    await context.close();
  });
});

test("on a desktop: the share sheet gets the archetype-only address; the page names no id; its image is a PNG", async ({
  page,
  visit,
  scan,
  baseURL,
}) => {
  await page.addInitScript(() => {
    const shared: ShareData[] = [];
    (window as unknown as { shared: ShareData[] }).shared = shared;
    Object.defineProperty(Navigator.prototype, "share", {
      value: async (data: ShareData) => void shared.push(data),
    });
  });
  const { id, archetype } = await saveResult(page);
  await visit(`/quiz/result?archetype=${archetype}&id=${id}`);
  await expect(chartRows(page)).toHaveCount(3);

  await page.getByRole("button", { name: "Share", exact: true }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared.map((d) => d.url)))
    .toHaveLength(1);
  const [url] = await page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared.map((d) => d.url!));
  expectArchetypeOnly(url!, archetype, id);
  expect(url!.startsWith(baseURL!)).toBe(true);
  await scan();

  // Canonical (and og:url, with a public address set) name the archetype's address, not the result.
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `/quiz/result?archetype=${archetype}`);
  const head = await page.locator("head").innerHTML();
  expect(head).not.toContain(id);

  // The archetype's social card (og:image once the site knows its public address).
  const image = await page.request.get(shareImagePath("Dominatrix"));
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
  expect([...(await image.body()).subarray(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
});
