import { describe, expect, test } from "bun:test";
import { isActivePath, showsPromoBanner } from "./paths.ts";
import { fillTokens, pageTitle } from "./features/settings/brand.ts";

describe("promotional banner paths", () => {
  test.each([
    ["/quiz/result", true],
    ["/quiz/starter-kit", true],
    ["/quiz/earnings", true],
    ["/quiz", false],
    ["/", false],
    ["/learn", false],
    ["/blog/quiz", false],
  ])("%s -> %p", (path, shows) => expect(showsPromoBanner(path)).toBe(shows));
});

describe("active nav link", () => {
  test.each([
    ["/quiz", "/quiz", true],
    ["/quiz/result", "/quiz", true],
    ["/quizzes", "/quiz", false],
    ["/", "/", true],
    ["/blog", "/", false],
    ["/learn/3", "/learn", true],
    ["/learn-more", "/learn", false],
  ])("%s with link %s -> %p", (current, href, active) => expect(isActivePath(current, href)).toBe(active));
});

describe("brand helpers", () => {
  test("page titles", () => expect(pageTitle("Webcam Model Blog", "Cam Guide")).toBe("Webcam Model Blog | Cam Guide"));
  test("tokens are filled; unknown ones stay visible", () => {
    expect(fillTokens("Welcome to {{brand}} — {{other}}", { brand: "Velvet" })).toBe("Welcome to Velvet — {{other}}");
  });
});
