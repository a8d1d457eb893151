import { describe, expect, test } from "bun:test";
import { fillTokens, pageTitle } from "./brand.ts";

describe("brand helpers", () => {
  test("page titles", () => expect(pageTitle("Webcam Model Blog", "Cam Guide")).toBe("Webcam Model Blog | Cam Guide"));
  test("tokens are filled; unknown ones stay visible", () => {
    expect(fillTokens("Welcome to {{brand}} — {{other}}", { brand: "Velvet" })).toBe("Welcome to Velvet — {{other}}");
  });
});
