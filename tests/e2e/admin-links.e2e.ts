import { expect, signIn, test } from "./fixtures.ts";

// The Links section's new-link form, clicks and Copy link, and the operator's disclosure wording.
// It changes content, so each journey runs on a site of its own (playwright.config.ts).
// Each journey scans several admin pages in both themes.
test.describe.configure({ timeout: 120_000 });

test("a new link made by hand is listed with its clicks and copied with its full address", async ({
  page,
  context,
  baseURL,
  visit,
  scan,
  allowProblem,
}) => {
  // The destination on this computer, refused on purpose.
  allowProblem(/HTTP 422 for .*\/api\/admin\/link$/);
  allowProblem(/status of 422/);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  await signIn(page);
  await visit("/admin/links");
  await page.getByRole("button", { name: "New link", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/links\/new$/);
  // The form's first field has the focus; the slug's hint says what a slug is.
  await expect(page.getByLabel("Slug")).toBeFocused();
  await expect(page.getByLabel("Slug")).toHaveAccessibleDescription(/short name in the address \/go\/<slug>/);
  await page.getByLabel("Slug").fill("Bad Slug");
  await page.getByLabel("Destination", { exact: true }).fill("https://hand.example/join");
  await page.getByRole("button", { name: "Create Link" }).click();
  await expect(page.getByLabel("Slug")).toHaveAccessibleDescription(/lower-case letters, digits and single hyphens/);
  await scan();
  // A destination on this computer: the server's refusal shows at its field as soon as it comes,
  // the link sent once (a refusal is an answer, never a reason to send it again).
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/admin/link") sent.push("POST");
  });
  await page.getByLabel("Slug").fill("on-this-computer");
  await page.getByLabel("Destination", { exact: true }).fill("http://127.0.0.1:8080/admin");
  const refused = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/admin/link");
  await page.getByRole("button", { name: "Create Link" }).click();
  expect((await refused).status()).toBe(422);
  await expect(page.getByLabel("Destination", { exact: true })).toHaveAccessibleDescription(/loopback address/, {
    timeout: 800,
  });
  expect(sent).toEqual(["POST"]);
  await page.getByLabel("Destination", { exact: true }).fill("https://hand.example/join");
  await page.getByLabel("Slug").fill("made-by-hand");
  await page.getByRole("button", { name: "Create Link" }).click();
  await expect(page.getByTestId("toast")).toContainText("Link created");
  await expect(page).toHaveURL(/\/admin\/links$/);
  const row = page.getByRole("row").filter({ hasText: "/go/made-by-hand" });
  await expect(row).toContainText("0 7 days · 0 30 days");
  await scan();
  await row.getByRole("button", { name: "Copy link made-by-hand" }).click();
  // The e2e site has no public address set: the confirmation says the address is the one in use now.
  await expect(row.getByText("Copied. The site's public address is not set yet (Settings)")).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^https?:\/\/[^/]+\/go\/made-by-hand$/);
  const go = await page.request.get(new URL(copied).pathname, { maxRedirects: 0 });
  expect(go.headers().location).toBe("https://hand.example/join");

  // A phone in the light theme: the list and the new-link form fit.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
  await visit("/admin/links");
  await expect(page.getByRole("row").filter({ hasText: "/go/made-by-hand" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await visit("/admin/links/new");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test("the operator rewords the Sponsored label; a public page shows it at once; blank brings the default back", async ({
  page,
  visit,
}) => {
  await signIn(page);
  await visit("/admin/settings");
  const label = page.getByLabel("Sponsored label");
  await expect(label).toHaveAttribute("placeholder", "Sponsored");
  const save = async (value: string) => {
    await label.fill(value);
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByTestId("toast").last()).toContainText("Settings saved");
  };
  try {
    await label.fill("x".repeat(41));
    await page.getByRole("button", { name: "Save Settings" }).click();
    // Refused before anything is sent, at its field.
    await expect(label).toHaveAccessibleDescription(/at most 40 characters/);
    await save("Paid partner");
    await visit("/quiz/earnings");
    const banner = page.getByRole("complementary", { name: "Sponsored" });
    await expect(banner.locator(".affiliate-label")).toHaveText("Paid partner");
    // A phone fits the settings page with the new group.
    await page.setViewportSize({ width: 375, height: 812 });
    await visit("/admin/settings");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/admin/settings");
    await save("");
  }
  await page.goto("/quiz/earnings");
  await expect(page.getByRole("complementary", { name: "Sponsored" }).locator(".affiliate-label")).toHaveText(
    "Sponsored",
  );
});

test("deleting a link asks first, names what uses it, and refuses while an offer or platform does", async ({
  page,
  visit,
  scan,
  baseURL,
}) => {
  await signIn(page);
  const headers = { origin: new URL(baseURL!).origin };
  const made = await page.request.post("/api/admin/link", {
    data: { slug: "to-delete", destination: "https://delete.example/join", active: true },
    headers,
  });
  expect(made.status()).toBe(201);
  const post = await page.request.post("/api/admin/blog/post", {
    data: {
      title: "A post with a link to delete",
      slug: "post-with-a-link-to-delete",
      contentMarkdown: "Try [this platform](/go/to-delete) first.",
      excerpt: "",
      category: null,
      coverImage: null,
      published: true,
      metaDescription: "",
      metaKeywords: "",
    },
    headers,
  });
  expect(post.status()).toBe(201);

  await visit("/admin/links");
  // A link the seeded platform uses: the dialog says so and cannot delete it.
  await page
    .getByRole("row")
    .filter({ hasText: "/go/platform-two" })
    .getByRole("button", { name: "Delete platform-two" })
    .click();
  let dialog = page.getByRole("dialog", { name: "Delete /go/platform-two" });
  await expect(dialog).toContainText(/cannot be deleted while the platform .* uses it/);
  await expect(dialog.getByRole("button", { name: "Delete" })).toBeDisabled();
  await scan();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole("row").filter({ hasText: "/go/to-delete" });
  await row.getByRole("button", { name: "Delete to-delete" }).click();
  dialog = page.getByRole("dialog", { name: "Delete /go/to-delete" });
  await expect(dialog).toContainText(
    '1 post links to it ("A post with a link to delete"): its text stays, and the link then leads to the home page until you edit it.',
  );
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("toast")).toContainText("/go/to-delete deleted");
  await expect(row).toHaveCount(0);
  expect((await page.request.get("/go/to-delete", { maxRedirects: 0 })).headers().location).toBe("/");
});
