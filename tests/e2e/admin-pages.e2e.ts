import { expect, signIn, test } from "./fixtures.ts";

// The owner publishes who runs the site, which the legal pages then name, and adds an About
// page with a footer link; the built-in pages offer Reset, never a Delete that does nothing.

test("the legal pages name the operator once set; an added page gets its address and footer link, then is deleted", async ({
  page,
  scan,
}) => {
  test.setTimeout(90_000);
  await page.goto("/terms");
  await expect(page.getByText("The operator has not published their name or contact details here yet.")).toBeVisible();
  await expect(page.getByText("contact details published at")).toHaveCount(0);

  await signIn(page);
  await page.goto("/admin/settings");
  await page.getByLabel("Operator's legal name").fill("Jane Doe Media Ltd");
  await page.getByLabel("Contact address").fill("not an address");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText(/The contact must be an email address/).first()).toBeVisible();
  await page.getByLabel("Contact address").fill("owner@guide.example");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByTestId("toast")).toContainText("Settings saved");

  await page.goto("/privacy");
  await expect(page.getByText("That is Jane Doe Media Ltd, reachable at owner@guide.example.")).toBeVisible();
  await expect(page.getByRole("link", { name: "owner@guide.example" })).toHaveAttribute(
    "href",
    "mailto:owner@guide.example",
  );
  await scan();

  await page.goto("/admin/pages");
  const terms = page.getByRole("row", { name: /Terms/ });
  await expect(terms.getByRole("button", { name: /Reset to shipped text/ })).toBeVisible();
  await expect(terms.getByRole("button", { name: /Delete/ })).toHaveCount(0);
  await scan();

  await page.getByRole("button", { name: "New page" }).click();
  const address = page.getByLabel(/^Address/);
  await address.fill("blog");
  await page.getByLabel("Title").fill("About us");
  await page.getByLabel("Description (shown in search results)").fill("Who writes this guide, and why it exists.");
  await page.getByRole("textbox", { name: "Text" }).fill("We write what we wish we had known when we started.");
  await page.getByRole("button", { name: "Create Page" }).click();
  await expect(page.getByText("The site uses /blog already: choose another address")).toBeVisible();
  await expect(address).toBeFocused();
  await address.fill("about-us");
  await page.getByRole("button", { name: "Create Page" }).click();
  await expect(page.getByTestId("toast")).toContainText("Page created");
  const about = page.getByRole("row", { name: /About us/ });
  await expect(about).toContainText("/about-us");

  await page.goto("/learn");
  await page.getByRole("contentinfo").getByRole("link", { name: "About us" }).click();
  await expect(page).toHaveURL(/\/about-us$/);
  await expect(page.getByRole("heading", { level: 1, name: "About us" })).toBeVisible();
  await expect(page.getByText("We write what we wish we had known")).toBeVisible();
  await scan();

  await page.goto("/admin/pages");
  await page
    .getByRole("row", { name: /About us/ })
    .getByRole("button", { name: /Delete/ })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("toast")).toContainText("Page deleted successfully");
  expect((await page.request.get("/about-us")).status()).toBe(404);
});
