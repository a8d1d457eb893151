import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { ADMIN_PASSWORD, axeScan, expect, test, waitForHydration } from "./fixtures.ts";

// Two-factor sign-in is turned on here, so this journey runs on a server of its own (its own
// DATA_DIR and port, see playwright.config.ts): every other admin journey signs in with the
// password alone.
const TWO_FACTOR_PORT = Number(process.env.E2E_PORT ?? 4310) + 5;
const root = join(import.meta.dirname, "..", "..");
const binary = join(root, "dist", "cam-guide");
const command = async () =>
  process.env.E2E_SOURCE !== "1" && (await Bun.file(binary).exists())
    ? [binary]
    : ["bun", join(root, "src/server/main.ts")];

// One server for the file: its journeys run one after the other, in order.
test.describe.configure({ mode: "serial" });

let dataDir = "";
let server: ReturnType<typeof Bun.spawn> | null = null;
const env = () => ({
  ...process.env,
  PORT: String(TWO_FACTOR_PORT),
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  ADMIN_USERNAME: "admin",
  ADMIN_PASSWORD,
  NODE_ENV: "production",
  LINK_CHECK_INTERVAL: "off",
});

test.beforeAll(async () => {
  test.setTimeout(60_000);
  dataDir = mkdtempSync(join(tmpdir(), `cam-guide-e2e-${TWO_FACTOR_PORT}-`));
  server = Bun.spawn(await command(), { env: env(), stdout: "ignore", stderr: "inherit" });
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${TWO_FACTOR_PORT}/healthz`).catch(() => null))?.status ?? 0, {
      timeout: 45_000,
    })
    .toBe(200);
});

test.afterAll(async () => {
  server?.kill("SIGTERM");
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

const codeAt = (secret: string, offset = 0) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

async function password(page: Page) {
  await page.goto("/admin-login");
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
}

const dashboard = (page: Page) =>
  expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();

test("enrol with the QR code's secret and the password, sign in with a code and (without JavaScript) a recovery code once, told how many are left, make new ones (the other session ends), then reset-2fa from the command line", async ({
  page,
  browser,
  scan,
  allowProblem,
}) => {
  test.setTimeout(90_000);
  allowProblem(/HTTP 401 for .*\/api\/auth\/login\/code/);
  allowProblem(/status of 401/);
  // The wrong password typed on purpose at the set-up.
  allowProblem(/HTTP 422 for .*\/api\/admin\/account\/two-factor\/confirm/);
  allowProblem(/status of 422/);

  await password(page);
  await dashboard(page);
  await page.getByRole("link", { name: "Account" }).click();
  await page.getByRole("button", { name: "Set Up Two-Factor Sign-In" }).click();
  await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
  const secret = (await page.locator(".totp-secret").textContent())!.replaceAll(" ", "");
  await scan();
  // The set-up asks for the password too, and everything works from the keyboard: a wrong
  // password is said at its field, which takes the focus; Enter sends the form.
  const enrol = page.getByRole("region", { name: "Two-factor sign-in" });
  const current = enrol.getByLabel("Current password");
  await expect(current).toHaveAttribute("autocomplete", "current-password");
  await enrol.getByLabel("Code from the app").fill(codeAt(secret));
  await enrol.getByLabel("Code from the app").press("Tab");
  await expect(current).toBeFocused();
  await page.keyboard.type("not-the-password");
  await page.keyboard.press("Enter");
  await expect(current).toHaveAccessibleDescription("That is not your current password.");
  await expect(current).toBeFocused();
  await scan();
  await current.fill(ADMIN_PASSWORD);
  await current.press("Enter");
  const items = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(items).toHaveCount(10);
  const codes = await items.allTextContents();
  await page.getByRole("button", { name: "I Have Saved Them" }).click();
  await expect(page.getByText("10 of 10 recovery codes left")).toBeVisible();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/admin-login$/);

  // The password alone opens nothing: the code step, then the dashboard.
  await password(page);
  const code = page.getByLabel("Code from your authenticator app");
  await expect(code).toBeFocused();
  await waitForHydration(page);
  await scan();
  expect((await page.context().cookies()).some((c) => c.name === "cg_session")).toBe(false);
  // The step after the one used to enrol (a code is accepted once).
  await code.fill(codeAt(secret, 1));
  await page.getByRole("button", { name: "Verify" }).click();
  await dashboard(page);

  // A recovery code, without JavaScript: the forms post themselves; the same code twice is refused.
  const baseURL = `http://127.0.0.1:${TWO_FACTOR_PORT}`;
  const noJs = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const plain = await noJs.newPage();
  let signedInWithoutScript: Awaited<ReturnType<typeof noJs.storageState>> | null = null;
  for (const attempt of ["first", "again"]) {
    await password(plain);
    await expect(plain).toHaveURL(/\/admin-login\?step=code$/);
    await plain.getByRole("link", { name: "Use a recovery code" }).click();
    await plain.getByLabel("Recovery code").fill(codes[0]!);
    await plain.getByRole("button", { name: "Verify" }).click();
    if (attempt === "first") {
      await expect(plain).toHaveURL(/\/admin$/);
      signedInWithoutScript = await noJs.storageState();
      await noJs.clearCookies();
    } else {
      await expect(plain).toHaveURL(/\/admin-login\?error=code&step=code&use=recovery$/);
      await expect(plain.getByRole("alert")).toHaveText("That code is not right. Try again.");
    }
  }
  expect((await noJs.cookies()).some((c) => c.name === "cg_session")).toBe(false);
  await noJs.close();

  // The session the form flow opened, once the browser runs the dashboard: the home says how many
  // recovery codes are left and leads to new ones.
  const later = await browser.newContext({ baseURL, storageState: signedInWithoutScript! });
  const other = await later.newPage();
  await other.goto("/admin");
  const attention = other.getByRole("region", { name: "Needs your attention" });
  await expect(attention.getByRole("listitem").first()).toHaveText(
    /^A recovery code was used on .+: 9 of 10 left\. If it was not you, change your password too\. Make new recovery codes$/,
  );
  await axeScan(other);
  await attention.getByRole("link", { name: "Make new recovery codes" }).click();
  await expect(other).toHaveURL(/\/admin\/account$/);
  await expect(other.getByText("9 of 10 recovery codes left")).toBeVisible();
  await other.getByLabel("Current code (from the app, or a recovery code)").fill(codes[1]!);
  await other.getByRole("button", { name: "New Recovery Codes" }).click();
  await expect(other.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await other.getByRole("button", { name: "I Have Saved Them" }).click();
  await expect(other.getByText("10 of 10 recovery codes left")).toBeVisible();
  await other.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Home" }).click();
  await expect(other.getByRole("region", { name: "Posts" })).toBeVisible();
  await expect(other.getByText(/A recovery code was used/)).toHaveCount(0);
  // New recovery codes signed out every other session: the first browser is back at the sign-in,
  // which says why.
  await page.reload();
  await expect(page).toHaveURL(/\/admin-login\?session=ended$/);
  await expect(page.getByRole("status")).toHaveText("Your session ended. Sign in again.");
  await scan();

  // Lost phone and codes: the operator turns it off on the server; every session ends.
  const reset = Bun.spawnSync([...(await command()), "admin", "reset-2fa"], { env: env() });
  expect(reset.exitCode).toBe(0);
  expect(reset.stdout.toString()).toContain('Two-factor sign-in is now off for the admin "admin"');
  await other.reload();
  await expect(other).toHaveURL(/\/admin-login\?session=ended$/);
  await later.close();
  await password(page);
  await dashboard(page);
});

test("two-factor turned on from a phone while a post is typed on the desktop: the save says so at once, the sign-in happens in place by keyboard (a recovery code pasted in the app's field, also without JavaScript), and the post is then saved", async ({
  page,
  browser,
  scan,
  allowProblem,
}) => {
  test.setTimeout(90_000);
  // The refused save and the editor's own calls while signed out, on purpose.
  allowProblem(/HTTP 401 for .*\/api\/admin\//);
  allowProblem(/status of 401/);
  const baseURL = `http://127.0.0.1:${TWO_FACTOR_PORT}`;
  const saves: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/admin/blog/post") saves.push("POST");
  });

  await password(page);
  await dashboard(page);
  await page.goto("/admin/posts/new");
  const title = page.getByLabel("Title");
  const content = page.getByLabel("Content", { exact: true });
  await title.fill("Written while the phone changed the sign-in");
  await content.fill("Every word of this was typed on the desktop.");
  // The editor's own calls are done (its copy kept on the server), so the save is the first
  // call the server refuses below.
  await expect(page.getByText(/^Saved as a draft copy at /)).toBeVisible();

  // The phone: signed in, it turns two-factor sign-in on, which ends every other session.
  const phone = await browser.newContext({ baseURL });
  const send = (path: string, data: unknown) => phone.request.post(path, { data, headers: { origin: baseURL } });
  expect((await send("/api/auth/login", { username: "admin", password: ADMIN_PASSWORD })).status()).toBe(200);
  const { secret } = (await (await send("/api/admin/account/two-factor/start", {})).json()) as { secret: string };
  const confirmed = await send("/api/admin/account/two-factor/confirm", {
    currentPassword: ADMIN_PASSWORD,
    code: codeAt(secret, -1),
  });
  expect(confirmed.status()).toBe(200);
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };

  // Narrow as a phone's screen, the dialog fits; the save is refused once and said at once.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.getByRole("button", { name: "Create Post" }).click();
  const dialog = page.getByRole("dialog", { name: "You have been signed out" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    "Your session ended, for example after a sign-in change on another device. Sign in again to save: what you typed here is kept.",
  );
  expect(saves).toEqual(["POST"]);
  await expect(dialog.getByLabel("Username")).toHaveValue("admin");
  await expect(dialog.getByLabel("Password")).toBeFocused();
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await fits()).toBe(true);
  await scan();

  // Escape puts it off: a line above the sections keeps saying so, and opens it again.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  const line = page.getByRole("alert").filter({ hasText: "You are signed out" });
  await expect(line).toBeVisible();
  expect(await fits()).toBe(true);
  await scan();
  await line.getByRole("button", { name: "Sign In Again" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Password")).toBeFocused();
  // Put off by its button, the focus goes back to the save that asked, as after Escape.
  await dialog.getByRole("button", { name: "Not Now" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Create Post" })).toBeFocused();
  await line.getByRole("button", { name: "Sign In Again" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Password")).toBeFocused();
  // Put off and asked for again before the next frame, as a busy phone can: the browser's
  // late word that the first one closed does not close the second.
  const stillOpen = await page.evaluate(async () => {
    const press = (selector: string, text: string) =>
      [...document.querySelectorAll<HTMLButtonElement>(selector)].find((b) => b.textContent === text)?.click();
    press("dialog.sign-in-again button", "Not Now");
    await new Promise((resolve) => setTimeout(resolve, 0));
    press('[role="alert"] button', "Sign In Again");
    for (let frame = 0; frame < 3; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    return document.querySelector<HTMLDialogElement>("dialog.sign-in-again")?.open;
  });
  expect(stillOpen).toBe(true);
  await expect(dialog.getByLabel("Password")).toBeFocused();

  // By keyboard: the password, then a recovery code pasted where the app's code goes.
  await page.keyboard.type(ADMIN_PASSWORD);
  await page.keyboard.press("Enter");
  const code = dialog.getByLabel("Code from your authenticator app");
  await expect(code).toBeFocused();
  await code.fill(recoveryCodes[0]!);
  await expect(code).toHaveValue(recoveryCodes[0]!);
  await scan();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("toast")).toContainText("What you typed is still here: save it now.");
  await expect(title).toHaveValue("Written while the phone changed the sign-in");
  await expect(content).toHaveValue("Every word of this was typed on the desktop.");
  // The focus is back where it was: Enter saves again, and this time it is kept.
  await expect(page.getByRole("button", { name: "Create Post" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("toast")).toContainText("Post created successfully");
  expect(saves).toEqual(["POST", "POST"]);

  // Without JavaScript the app's field takes a recovery code too.
  const noJs = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const plain = await noJs.newPage();
  await password(plain);
  await expect(plain).toHaveURL(/\/admin-login\?step=code$/);
  await plain.getByLabel("Code from your authenticator app").fill(recoveryCodes[1]!);
  await plain.getByRole("button", { name: "Verify" }).click();
  await expect(plain).toHaveURL(/\/admin$/);
  await noJs.close();

  // Put back what changed: the post goes, two-factor goes off.
  const slug = "written-while-the-phone-changed-the-sign-in";
  const { posts } = (await (await phone.request.get(`/api/admin/blog/posts?q=${slug}`)).json()) as {
    posts: { id: number; slug: string }[];
  };
  const made = posts.find((post) => post.slug === slug)!;
  expect(
    (await phone.request.delete(`/api/admin/blog/post/${made.id}`, { headers: { origin: baseURL } })).status(),
  ).toBe(200);
  expect((await send("/api/admin/account/two-factor/disable", { code: recoveryCodes[2] })).status()).toBe(200);
  await phone.close();
});
