import { expect, test } from "./fixtures.ts";

test("home renders on the server and hydrates", async ({ page, visit }) => {
  await visit("/");
  await expect(page).toHaveTitle("Discover Your Webcam Alter Ego | Cam Guide");
  await expect(page.getByRole("heading", { level: 1, name: "Find your cam model alter ego" })).toBeVisible();
  await expect(page.getByRole("button", { name: "START THE QUIZ" })).toHaveAttribute("href", "/quiz");
  await expect(page.getByRole("button", { name: "LEARN MORE about the free course" })).toHaveAttribute(
    "href",
    "/learn-more",
  );
  for (const title of ["Discover Your Style", "Calculate Earnings", "Learn the Ropes"]) {
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
  }
  // Client navigation after hydration: no full reload.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await page.getByRole("button", { name: "LEARN MORE about the free course" }).click();
  await expect(page).toHaveURL(/\/learn-more$/);
  await expect(page.getByRole("heading", { level: 1, name: "About the free cam model course" })).toBeVisible();
  await expect(page).toHaveTitle("About the Free Cam Model Course | Cam Guide");
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
});

test("a link drawn as a button follows Space as well as Enter", async ({ page, visit }) => {
  await visit("/");
  const start = page.getByRole("button", { name: "START THE QUIZ" });
  await start.focus();
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/\/quiz$/);
  await expect(page.getByText("Question 1/15")).toBeVisible();
});
