import type { Page, Request } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// Privacy for people on shared devices, on a phone: quick exit, clearing what the site keeps in
// the browser, and offers from other sites that wait for a click.
test.use({ viewport: { width: 375, height: 812 } });

const NEUTRAL = "https://www.bbc.com/weather";

/** The neutral site, answered locally so the journey needs no network. */
async function fakeNeutralSite(page: Page) {
  await page.route("https://www.bbc.com/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!DOCTYPE html><title>Weather</title><h1>Weather</h1>" }),
  );
}

test("Quick exit: a tap-sized button in the phone header leaves, and Back does not return to the page", async ({
  page,
  visit,
  baseURL,
}) => {
  await fakeNeutralSite(page);
  await visit("/learn/1");
  const exit = page.getByRole("banner").getByRole("link", { name: "Quick exit" });
  await expect(exit).toHaveAttribute("href", NEUTRAL);
  const box = (await exit.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  // The header still fits the phone: nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  const entries = await page.evaluate(() => history.length);
  await exit.click();
  await expect(page).toHaveURL(NEUTRAL);
  // The site's page was replaced, not stacked under the neutral one.
  expect(await page.evaluate(() => history.length)).toBe(entries);
  await page.goBack();
  expect(page.url().startsWith(baseURL!)).toBe(false);
});

test("Quick exit: Escape twice leaves, but not while typing or while the menu takes the Escape", async ({
  page,
  visit,
}) => {
  await fakeNeutralSite(page);
  await visit("/");
  // The phone menu closes on the first Escape and does not count towards leaving.
  await page.locator("summary.menu-toggle").click();
  await page.keyboard.press("Escape");
  await expect(page.locator("details.site-menu")).not.toHaveAttribute("open");
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/127\.0\.0\.1/);
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(NEUTRAL);
});

test("Quick exit: Escape twice leaves a lesson, whose course contents keep its module open", async ({
  page,
  visit,
}) => {
  await fakeNeutralSite(page);
  await visit("/learn/2?topic=3");
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(NEUTRAL);
});

test("Clear my data: says what will go, removes it all, and the site starts as for a new visitor", async ({
  page,
  visit,
  scan,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await visit("/");
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await page.evaluate(() => {
    localStorage.setItem("completedModules", "[1,2]");
    localStorage.setItem("lastQuizId", "abc123");
  });
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");

  await page.getByRole("contentinfo").getByRole("button", { name: "Clear my data on this device" }).click();
  const confirm = page.getByRole("dialog", { name: "Clear my data on this device?" });
  await expect(confirm.getByText("Your colour theme (light or dark)")).toBeVisible();
  // The two older keys were folded into one when the page loaded.
  await expect(
    confirm.getByText("Your results and course progress (quiz result, estimate, lessons read, module quizzes)"),
  ).toBeVisible();
  await expect(confirm.getByText("The address of your last quiz result")).toBeHidden();
  await scan();
  await confirm.getByRole("button", { name: "Clear my data", exact: true }).click();

  const done = page.getByRole("dialog", { name: "Your data is cleared" });
  await expect(
    done.getByText("Your results and course progress (quiz result, estimate, lessons read, module quizzes)"),
  ).toBeVisible();
  expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await done.getByRole("button", { name: "Done" }).click();
  await expect(done).toBeHidden();
  await expect(page.getByRole("button", { name: "Switch to dark theme" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.length)).toBe(0);

  // The privacy page offers the same control beside what it describes.
  await visit("/privacy");
  await expect(page.getByRole("main").getByRole("button", { name: "Clear my data on this device" })).toBeVisible();
});

/** Every request the page makes, by its address. */
function recordRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request: Request) => seen.push(request.url()));
  return seen;
}

test("on a phone a lesson's compact offer fetches none of its medium: no embed, no video, no picture", async ({
  page,
  visit,
}) => {
  const seen = recordRequests(page);
  // Module 8's seeded offer is an embed, module 2's a video on this site.
  for (const path of ["/learn/8", "/learn/2"]) {
    await visit(path);
    await expect(page.getByRole("complementary", { name: "Sponsored offer" }).locator(".offer-title")).toBeVisible();
  }
  expect(seen.filter((url) => /\/embed\/offer\/|\.(mp4|webm|ogg)(\?|$)|\/seed\/offers\//.test(url))).toEqual([]);
});

test.describe("on a desktop, where an offer shows its medium", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("a fresh lesson page asks no other site for anything before the visitor loads the offer's embed", async ({
    page,
    visit,
    baseURL,
  }) => {
    const seen = recordRequests(page);
    // Module 8's seeded offer is an embed.
    await visit("/learn/8");
    const offer = page.getByRole("complementary", { name: "Sponsored offer" });
    const load = offer.getByRole("button", { name: "Load content" });
    await expect(load).toBeVisible();
    const own = new URL(baseURL!).origin;
    expect(seen.filter((url) => !url.startsWith(own) && !url.startsWith("data:"))).toEqual([]);
    expect(seen.some((url) => url.includes("/embed/offer/"))).toBe(false);
    await expect(offer.locator("iframe")).toHaveCount(0);

    await load.click();
    await expect(page.frameLocator("iframe.offer-embed").getByText("Fan club starter pack")).toBeVisible();
  });

  test("a Vimeo offer says who receives the request, and plays from there only after 'Load video'", async ({
    page,
    visit,
    baseURL,
  }) => {
    await page.route("**/api/module/8/affiliate-offers?**", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify([
          {
            id: 9001,
            title: "A sponsor's video",
            description: "A video hosted on Vimeo.",
            imageUrl: null,
            videoUrl: "https://vimeo.com/76979871",
            useEmbed: false,
            embedCode: null,
            linkUrl: "https://example.com/",
            linkText: "Visit the sponsor",
          },
        ]),
      }),
    );
    // The made-up offer is not in the database: the server would refuse its view's count.
    await page.route("**/api/analytics", (route) => route.fulfill({ status: 204 }));
    await page.route("https://player.vimeo.com/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<!DOCTYPE html><title>Player</title><p>Vimeo player</p>" }),
    );
    const seen = recordRequests(page);
    await visit("/learn/8");
    const offer = page.getByRole("complementary", { name: "Sponsored offer" });
    await expect(
      offer.getByText("Plays from player.vimeo.com: loading it sends your address to that site."),
    ).toBeVisible();
    const own = new URL(baseURL!).origin;
    expect(seen.filter((url) => !url.startsWith(own) && !url.startsWith("data:"))).toEqual([]);

    await offer.getByRole("button", { name: "Load video" }).click();
    await expect(page.frameLocator("iframe.offer-video").getByText("Vimeo player")).toBeVisible();
    expect(seen.some((url) => url.startsWith("https://player.vimeo.com/video/76979871"))).toBe(true);
  });
});

test("Discreet mode: on from the phone menu, a plain title and icon and no banner, kept on reload, off after Clear my data", async ({
  page,
  visit,
  scan,
}) => {
  const answers = ["A", "A", "B", "C", "A", "B", "D", "C", "A", "B", "C", "A", "B", "D", "C"];
  const saved = await (await page.request.post("/api/quiz/result", { data: { archetype: "Couple", answers } })).json();
  const result = `/quiz/result?archetype=Couple&id=${saved.id}`;
  await visit(result);
  const banner = page.getByRole("complementary", { name: "Sponsored" });
  await expect(banner).toBeVisible();
  expect(await page.title()).not.toBe("Notes");

  await page.locator("summary.menu-toggle").click();
  const toggle = page.getByRole("banner").getByRole("button", { name: "Discreet mode" });
  const box = (await toggle.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.press("Enter");
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveTitle("Notes");
  // Said on the screen: a phone rarely shows the tab's title.
  await expect(page.getByTestId("toast")).toContainText("Discreet mode is on");
  await expect(page.getByTestId("toast")).toContainText("titled “Notes” with a plain icon");
  await expect(banner).toHaveCount(0);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon-plain.svg");
  await scan();

  // A reload keeps it, from the first paint: the banner never shows, the title is plain at once.
  await page.reload({ waitUntil: "commit" });
  await page.waitForSelector("title", { state: "attached" });
  await expect(page.locator("html")).toHaveAttribute("data-discreet", "");
  await expect(page.locator(".promo-banner")).toBeHidden();
  await expect(page).toHaveTitle("Notes");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await expect(page).toHaveTitle("Notes");
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon-plain.svg");
  await expect(banner).toHaveCount(0);
  await expect(page.getByRole("contentinfo").getByRole("button", { name: "Discreet mode" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  // The page itself stays.
  await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toBeVisible();

  await page.getByRole("contentinfo").getByRole("button", { name: "Clear my data on this device" }).click();
  const confirm = page.getByRole("dialog", { name: "Clear my data on this device?" });
  await expect(confirm.getByText("Discreet mode (a plain tab title and icon, no sponsor banner)")).toBeVisible();
  await confirm.getByRole("button", { name: "Clear my data", exact: true }).click();
  await page.getByRole("dialog", { name: "Your data is cleared" }).getByRole("button", { name: "Done" }).click();
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await expect(page).not.toHaveTitle("Notes");
  await expect(banner).toBeVisible();
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
  await expect(page.getByRole("contentinfo").getByRole("button", { name: "Discreet mode" })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the discreet-mode switch is hidden: nothing could be kept", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Discreet mode" })).toHaveCount(0);
  });
});
