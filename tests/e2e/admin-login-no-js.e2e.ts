import { expect, test } from "@playwright/test";

// The e2e server is started with ADMIN_PASSWORD=e2e-admin-password-123 (scripts/e2e-server.ts).
const PASSWORD = "e2e-admin-password-123";
const WRONG = "not-the-password-no-js";

// Pressing Sign In before the page's script has run is the same as having no script at all.
test.use({ javaScriptEnabled: false });

test("without JavaScript the sign-in form posts: a wrong password comes back with a message, the right one opens the dashboard, and no password is ever in an address", async ({
  page,
  context,
}) => {
  const addresses: string[] = [];
  page.on("request", (request) => addresses.push(request.url()));
  page.on("framenavigated", (frame) => addresses.push(frame.url()));

  await page.goto("/admin-login");
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(WRONG);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin-login\?error=credentials$/);
  await expect(page.getByRole("alert")).toHaveText("Invalid username or password");
  expect((await context.cookies()).some((cookie) => cookie.name === "cg_session")).toBe(false);

  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const session = (await context.cookies()).find((cookie) => cookie.name === "cg_session");
  expect(session?.httpOnly).toBe(true);
  // The dashboard itself needs scripts, and says so instead of waiting for ever.
  await expect(page.getByRole("heading", { name: "The dashboard needs JavaScript" })).toBeVisible();
  await expect(page.getByText("Checking your session...")).toBeHidden();

  const leaked = addresses.filter((url) => url.includes(WRONG) || url.includes(PASSWORD) || /password=/i.test(url));
  expect(leaked).toEqual([]);
  expect(addresses.some((url) => url.endsWith("/api/auth/login"))).toBe(true);
});

test("without JavaScript, an address carrying a password is replaced by the bare sign-in page", async ({ page }) => {
  const response = await page.goto("/admin-login?username=admin&password=typed-into-a-link");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/admin-login$/);
});
