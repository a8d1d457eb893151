import type { APIRequestContext, Page } from "@playwright/test";
import { ADMIN_PASSWORD, expect, signIn, test } from "./fixtures.ts";

// It changes content (a platform's URL, an offer), so each journey runs on a site of its own
// (the admin project's `ownSite`, playwright.config.ts). The e2e server is started with ADMIN_PASSWORD=e2e-admin-password-123.
// Module 6: the admin journeys use modules 2, 9 and 10.
const MODULE = 6;
// They run first, in the full browser, while the run starts every server and template: 90 s.
test.describe.configure({ timeout: 90_000 });

async function adminRequest(request: APIRequestContext, baseURL: string) {
  const login = await request.post("/api/auth/login", {
    data: { username: "admin", password: ADMIN_PASSWORD },
    headers: { origin: baseURL },
  });
  expect(login.status()).toBe(200);
  return (method: "post" | "put" | "delete", path: string, data?: unknown) =>
    request[method](path, { data, headers: { origin: baseURL } });
}

/** Clicks `link` (a new tab) and returns the tab and every address it asked for on the way. */
async function follow(page: Page, link: ReturnType<Page["getByRole"]>) {
  const asked: string[] = [];
  const listen = (request: { url: () => string; isNavigationRequest: () => boolean }) => {
    if (request.isNavigationRequest()) asked.push(request.url());
  };
  page.context().on("request", listen);
  const [tab] = await Promise.all([page.waitForEvent("popup"), link.click()]);
  await tab.waitForLoadState();
  page.context().off("request", listen);
  return { tab, asked };
}

test("an offer and a platform button lead to their destinations through /go/", async ({ page, visit, baseURL }) => {
  const send = await adminRequest(page.request, baseURL!);
  const own = new URL(baseURL!).origin;
  // Destinations are other sites (a destination on this machine is refused when saved): the
  // browser is answered for them by the test, as the partner's site would answer.
  const offerDestination = "https://offer.cam-guide-tests.example.com/landed?from=offer";
  const platformDestination = "https://platform.cam-guide-tests.example.com/landed?from=platform";
  await page.context().route(/^https:\/\/[a-z]+\.cam-guide-tests\.example\.com\//, (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="en"><title>Partner</title><h1>Landed at ${new URL(route.request().url()).hostname}</h1></html>`,
    }),
  );

  const settings = await (await page.request.get("/api/admin/settings")).json();
  const offers = (await (await page.request.get("/api/admin/affiliate-offers")).json()) as Record<string, unknown>[];
  const others = offers.filter((o) => o.moduleId === MODULE && o.isActive);
  const fieldsOf = ({ id: _id, createdAt: _c, updatedAt: _u, ...fields }: Record<string, unknown>) => fields;
  let offerId: number | null = null;
  try {
    const saved = await send("put", "/api/admin/settings", {
      ...settings,
      // A URL without a picked link goes into the platform's own link.
      platformA: { name: settings.platformA.name, url: platformDestination },
    });
    expect(saved.status()).toBe(200);
    const created = await send("post", "/api/admin/affiliate-offer", {
      title: "Loopback offer",
      description: "An offer whose destination is a page of this site.",
      imageUrl: null,
      videoUrl: null,
      useEmbed: false,
      embedCode: null,
      linkUrl: offerDestination,
      linkText: "Visit the loopback offer",
      moduleId: MODULE,
      isActive: true,
    });
    expect(created.status()).toBe(201);
    offerId = ((await created.json()) as { id: number }).id;
    for (const o of others)
      expect(
        (await send("put", `/api/admin/affiliate-offer/${o.id}`, { ...fieldsOf(o), isActive: false })).status(),
      ).toBe(200);

    await visit(`/learn/${MODULE}`);
    const offerLink = page
      .getByRole("complementary", { name: "Sponsored offer" })
      .getByRole("button", { name: /Visit the loopback offer/ });
    await expect(offerLink).toHaveAttribute("href", /^\/go\/[a-z0-9-]+\?p=offer$/);
    await expect(offerLink).toHaveAttribute("rel", "sponsored noopener");
    await expect(offerLink).toHaveAttribute("target", "_blank");
    const offer = await follow(page, offerLink);
    await expect(offer.tab).toHaveURL(offerDestination);
    expect(offer.asked[0]).toMatch(new RegExp(`^${own}/go/[a-z0-9-]+\\?p=offer$`));
    await expect(
      offer.tab.getByRole("heading", { level: 1, name: "Landed at offer.cam-guide-tests.example.com" }),
    ).toBeVisible();
    await offer.tab.close();

    await visit("/resources");
    const join = page.getByRole("button", { name: /Join Platform One/ });
    await expect(join).toHaveAttribute("href", /^\/go\/[a-z0-9-]+\?p=resources$/);
    const platform = await follow(page, join);
    await expect(platform.tab).toHaveURL(platformDestination);
    expect(platform.asked[0]).toMatch(new RegExp(`^${own}/go/[a-z0-9-]+\\?p=resources$`));
    await expect(
      platform.tab.getByRole("heading", { level: 1, name: "Landed at platform.cam-guide-tests.example.com" }),
    ).toBeVisible();
    await platform.tab.close();
  } finally {
    // Put the content back for the other journeys.
    await send("put", "/api/admin/settings", {
      ...settings,
      platformA: { name: settings.platformA.name, url: settings.platformA.url },
    });
    if (offerId !== null) await send("delete", `/api/admin/affiliate-offer/${offerId}`);
    for (const o of others) await send("put", `/api/admin/affiliate-offer/${o.id}`, fieldsOf(o));
  }
});

test("the admin's Links section: a link turned off sends clicks back to the page, then on again", async ({
  page,
  visit,
  scan,
}) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Links" }).click();
  await expect(page).toHaveURL(/\/admin\/links$/);
  const row = page.getByRole("row").filter({ hasText: "/go/platform-two" });
  await expect(row).toContainText("Active");
  await scan();

  const go = async () =>
    (await page.request.get("/go/platform-two?p=resources", { maxRedirects: 0 })).headers().location;
  await row.getByRole("button", { name: "Deactivate platform-two" }).click();
  await expect(row).toContainText("Inactive");
  expect(await go()).toBe("/resources");
  await row.getByRole("button", { name: "Activate platform-two" }).click();
  await expect(row.getByRole("cell", { name: "Active", exact: true })).toBeVisible();
  expect(await go()).toMatch(/^https?:\/\//);

  // A phone: the list stacks, nothing wider than the screen.
  await page.setViewportSize({ width: 375, height: 812 });
  await visit("/admin/links");
  await expect(page.getByRole("row").filter({ hasText: "/go/platform-two" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
