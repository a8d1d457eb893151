import { type APIRequestContext, devices, type Page, request as playwrightRequest } from "@playwright/test";
import { ADMIN_PASSWORD, expect, signIn, test, waitForShown } from "./fixtures.ts";

// A visitor's journey in a real browser (home, quiz, result, calculator, starter kit, a lesson
// read through, an offer on screen and its link followed) shows in the admin's analytics:
// the funnel, the offer's views and clicks, the link's clicks. A bot walking the same pages
// adds to the bot counter only. The other admin journeys run on the same server at the same
// time, so the numbers are compared before and after, each visitor told apart by its own user
// agent (a visitor is a hash of address and user agent, and every test comes from 127.0.0.1).

const CHROME = devices["Desktop Chrome"].userAgent;
const BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

interface Report {
  funnel: { id: string; visitors: number }[];
  offers: { id: number; slug: string; views: number; clicks: number }[];
  clicks: { slug: string; placement: string; count: number }[];
  posts: { slug: string; views: number }[];
  bots: { bots: number; humans: number };
}

async function admin(baseURL: string): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const login = await context.post("/api/auth/login", { data: { username: "admin", password: ADMIN_PASSWORD } });
  expect(login.status()).toBe(200);
  return context;
}

const report = async (api: APIRequestContext): Promise<Report> =>
  (await (await api.get("/api/admin/analytics?days=7")).json()) as Report;
const step = (r: Report, id: string) => r.funnel.find((s) => s.id === id)?.visitors ?? 0;
const clicksOf = (r: Report, slug: string, placement: string) =>
  r.clicks.find((c) => c.slug === slug && c.placement === placement)?.count ?? 0;
const postViews = (r: Report, slug: string) => r.posts.find((p) => p.slug === slug)?.views ?? 0;

async function answerAll(page: Page, pick: number) {
  for (let q = 1; q <= 15; q++) {
    await waitForShown(page, `Question ${q}/15`);
    await page.getByRole("radio").nth(pick).click();
  }
}

test("a scripted visit shows in the funnel, the offer and the link counts; a bot's only as a bot", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await admin(baseURL!);
  const before = await report(api);

  // A bot walks the same pages and follows a link: nothing but the bot counter moves.
  const bot = await browser.newContext({ userAgent: BOT, baseURL });
  const botPage = await bot.newPage();
  const post = "platform-reviews";
  for (const path of ["/", "/quiz", `/blog/${post}`, "/learn/1"])
    expect((await botPage.goto(path))?.status()).toBe(200);
  expect((await bot.request.get("/go/platform-one?p=footer", { maxRedirects: 0 })).status()).toBe(302);
  await bot.close();
  await expect.poll(async () => (await report(api)).bots.bots, { timeout: 10_000 }).toBeGreaterThan(before.bots.bots);
  const afterBot = await report(api);
  expect(postViews(afterBot, post)).toBe(postViews(before, post));
  expect(clicksOf(afterBot, "platform-one", "footer")).toBe(clicksOf(before, "platform-one", "footer"));

  // A person, with a user agent of its own so it is a new visitor today.
  const person = await browser.newContext({ userAgent: `${CHROME} Visit${Date.now()}`, baseURL });
  // The offer's destination is on another site: answered here, this machine has no internet.
  await person.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, body: "elsewhere" }));
  const page = await person.newPage();
  await page.goto("/");
  await page.locator('main a[href="/quiz"]').first().click();
  await answerAll(page, 0);
  await expect(page).toHaveURL(/\/quiz\/result\?archetype=[^&]+&id=/);
  await page.getByRole("button", { name: "Calculate My Earnings" }).click();
  await answerAll(page, 2);
  await expect(page).toHaveURL(/\/quiz\/earnings\?tier=/);
  await page.getByRole("button", { name: "GET MY STARTER KIT" }).click();
  await expect(page).toHaveURL(/\/quiz\/starter-kit\?/);
  // Counted once it is on screen (the address changes first, while its data comes).
  await expect(page.getByText("Your personalized starter kit")).toBeVisible();

  // A lesson read through: its end on screen and 15 seconds open (the page's clock, run on).
  await page.clock.install();
  await page.goto("/learn/1");
  await page.locator(".lesson-end").scrollIntoViewIfNeeded();
  await page.clock.runFor(16_000);
  const offer = page.getByRole("complementary", { name: "Sponsored offer" });
  await offer.scrollIntoViewIfNeeded();
  const href = await offer.locator('a[href^="/go/"]').first().getAttribute("href");
  const slug = new URL(href!, baseURL).pathname.split("/")[2]!;
  const tab = person.waitForEvent("page");
  await offer.locator('a[href^="/go/"]').first().click();
  await (await tab).waitForLoadState();

  await expect
    .poll(async () => clicksOf(await report(api), slug, "offer"), { timeout: 10_000 })
    .toBe(clicksOf(before, slug, "offer") + 1);
  const after = await report(api);
  for (const id of ["home", "quiz-start", "result", "calculator", "starter-kit", "lesson", "click"])
    expect([id, step(after, id)]).toEqual([id, step(afterBot, id) + 1]);
  const offerBefore = before.offers.find((o) => o.slug === slug);
  const offerAfter = after.offers.find((o) => o.slug === slug);
  expect(offerAfter?.views).toBeGreaterThan(offerBefore?.views ?? 0);
  expect(offerAfter?.clicks).toBe((offerBefore?.clicks ?? 0) + 1);
  await person.close();

  // The admin's page shows the same: the offer's row and the funnel's table.
  const adminPage = await browser.newPage({ baseURL });
  await signIn(adminPage);
  await adminPage.goto("/admin/analytics?days=7");
  await expect(adminPage.getByRole("row").filter({ hasText: "Affiliate link clicked" }).first()).toContainText(
    String(step(after, "click")),
  );
  const linkRow = adminPage.getByRole("table", { name: "Clicks per link" }).getByRole("row").filter({ hasText: slug });
  await expect(linkRow.first()).toBeVisible();
  await adminPage.close();
  await api.dispose();
});
