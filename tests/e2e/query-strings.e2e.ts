// A page is rendered, cached and hydrated with only the query parameters it declares:
// unknown parameters, repeats and junk in the address change nothing the visitor sees, the
// browser's first render matches the server's HTML (the fixture fails on any console
// error, hydration mismatches included), and client navigation still reads the parameters.
import { expect, test } from "./fixtures.ts";

test("the blog with tracking parameters and a repeated category: the first category, hydrated, filters still work", async ({
  page,
  visit,
}) => {
  await visit("/blog?utm_source=news&category=tips-and-tricks&category=platform-reviews&fbclid=%F0%9F%98%80");
  await expect(page.getByRole("button", { name: "Tips and Tricks", pressed: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Platform Reviews", pressed: false })).toBeVisible();
  await page.getByRole("button", { name: "Platform Reviews" }).click();
  await expect(page).toHaveURL(/\/blog\?category=platform-reviews$/);
  await expect(page.getByRole("button", { name: "Platform Reviews", pressed: true })).toBeVisible();
});

test("a module in quiz mode with junk beside it", async ({ page, visit }) => {
  await visit("/learn/1?junk=%E2%80%AE&quiz=true&quiz=false&x");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText(/Question 1 of/)).toBeVisible();
});

test("a completion page: the first module number counts, unknown parameters do not", async ({ page, visit }) => {
  await visit("/learn/module-complete?x=1&moduleId=4&moduleId=5");
  await expect(page.getByRole("heading", { level: 1, name: /Module 4 lessons done/ })).toBeVisible();
});

test("an archetype's result page with parameters before and after it", async ({ page, visit }) => {
  await visit("/quiz/result?ref=friend&archetype=Couple&archetype=Nobody&%zz=1");
  await expect(page.getByRole("heading", { level: 1, name: "Couple" })).toBeVisible();
});

test("the home page with malformed escapes in its query string", async ({ page, visit }) => {
  await visit("/?%=1&%zz=%E0%A4%A&x=%00");
  await expect(page.getByRole("button", { name: "START THE QUIZ" })).toBeVisible();
});
