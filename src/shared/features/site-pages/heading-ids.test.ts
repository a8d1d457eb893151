import { describe, expect, test } from "bun:test";
import { headingSlug, withHeadingIds } from "./heading-ids.ts";

describe("heading ids", () => {
  test("section headings get ids from their words; repeated ones are numbered", () => {
    expect(
      withHeadingIds(
        "<h2>Affiliate disclosure</h2><p>x</p><h3>Who &amp; <em>why</em></h3><h2>Affiliate disclosure</h2>",
      ),
    ).toBe(
      '<h2 id="affiliate-disclosure">Affiliate disclosure</h2><p>x</p><h3 id="who-why">Who &amp; <em>why</em></h3><h2 id="affiliate-disclosure-2">Affiliate disclosure</h2>',
    );
  });

  test("a heading without letters or digits stays as it is, and other tags are untouched", () => {
    expect(withHeadingIds("<h2>—</h2><h4>Small</h4>")).toBe("<h2>—</h2><h4>Small</h4>");
    expect(headingSlug("Café terms: 2025!")).toBe("cafe-terms-2025");
  });
});
