import { expect, expectOnFirstScreen, signIn, test } from "./fixtures.ts";

// The admin's own frame: a plain header (site name, theme, Sign Out, the sections) without
// the visitor's privacy controls or the public footer, sections that fit a phone's first
// screen, and the notice that requests arrive through a proxy the server does not trust.
// Each journey runs on a site of its own (the admin project's `ownSite`).

test("a request through a reverse proxy the server was not told about: the home and Settings say what to set", async ({
  page,
  site,
  scan,
}) => {
  // What nginx or Caddy on this machine sends: the visitor's address in X-Forwarded-For,
  // from 127.0.0.1, which TRUSTED_PROXIES does not name on this site.
  const proxied = await fetch(`${site.url}/`, { headers: { "x-forwarded-for": "203.0.113.9" } });
  expect(proxied.status).toBe(200);

  await signIn(page);
  const notice = page.getByRole("region", { name: "Every visitor looks like the same address" });
  await expect(notice).toContainText("reverse proxy at 127.0.0.1");
  await expect(notice).toContainText("set TRUSTED_PROXIES=127.0.0.1");
  await scan();

  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page.getByRole("region", { name: "Every visitor looks like the same address" })).toContainText(
    "TRUSTED_PROXIES=127.0.0.1",
  );
  await scan();
});

test("without a proxy the notice is absent; the admin's header has no Quick exit, Discreet mode or public footer", async ({
  page,
  scan,
}) => {
  await page.goto("/admin-login");
  await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Quick exit/ })).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
  await scan();

  await signIn(page);
  const banner = page.getByRole("banner");
  await expect(banner.getByRole("button", { name: "Sign Out" })).toBeVisible();
  await expect(banner.getByRole("navigation", { name: "Admin sections" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Quick exit/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Discreet/ })).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Posts" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Every visitor looks like the same address" })).toHaveCount(0);
  await scan();
  // The site's name leads back to the public site, with its own header again.
  await banner.getByRole("link", { name: /Admin/ }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: /Quick exit/ })).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the sections are one row that scrolls sideways: the section's heading is on the first screen, every section reachable by keyboard", async ({
    page,
    scan,
  }) => {
    await signIn(page);
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    const box = await nav.boundingBox();
    // One row of 44 px links, not twelve wrapped over the first screen.
    expect(box!.height).toBeLessThan(90);
    await expectOnFirstScreen(page.getByRole("heading", { level: 2, name: "Home" }), "the section's heading");
    await expectOnFirstScreen(page.getByRole("navigation", { name: "Shortcuts" }), "the shortcuts");
    // No page-wide sideways scroll: only the row scrolls.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await scan();

    // The keyboard reaches the last section: the row scrolls it into view.
    const account = nav.getByRole("link", { name: "Account" });
    await account.focus();
    await expect(account).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/admin\/account$/);
    await expect(nav.getByRole("link", { name: "Account" })).toHaveAttribute("aria-current", "page");
    // Opened at its address, the current section is in view in the row.
    await page.reload();
    await expect(nav.getByRole("link", { name: "Account" })).toBeInViewport();
    await scan();
  });
});
