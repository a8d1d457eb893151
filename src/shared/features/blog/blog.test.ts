import { describe, expect, test } from "bun:test";
import { filterPosts, longDate, readingMinutes, relativeTime } from "./blog.ts";
import { categoryColor, categoryLabel } from "./contract.ts";

describe("category badges", () => {
  test.each([
    ["getting-started", "Getting Started", "green"],
    ["tips-and-tricks", "Tips And Tricks", "blue"],
    ["platform-reviews", "Platform Reviews", "purple"],
    ["income-strategies", "Income Strategies", "amber"],
    ["safety", "Safety", "grey"],
    ["my-new--category", "My New Category", "grey"],
  ] as const)("%s -> %s, %s", (slug, label, color) => {
    expect(categoryLabel(slug)).toBe(label);
    expect(categoryColor(slug)).toBe(color);
  });
});

describe("dates", () => {
  test.each([
    ["2026-11-05T09:00:00.000Z", "November 5, 2026"],
    ["2026-01-31T23:30:00.000Z", "January 31, 2026"],
    ["2026-03-01T00:10:00.000Z", "March 1, 2026"],
  ])("%s reads %s, whatever the local time zone", (iso, text) => expect(longDate(iso)).toBe(text));

  const now = new Date("2026-11-22T12:00:00.000Z");
  test.each([
    ["2026-11-22T11:59:30.000Z", "30 seconds ago"],
    ["2026-11-22T09:00:00.000Z", "3 hours ago"],
    ["2026-11-20T12:00:00.000Z", "2 days ago"],
    ["2026-10-01T12:00:00.000Z", "1 month ago"],
    ["2025-11-01T12:00:00.000Z", "1 year ago"],
  ])("%s is %s", (iso, text) => expect(relativeTime(iso, now)).toBe(text));
});

describe("reading time", () => {
  test.each([
    ["<p>one two three</p>", 1],
    [`<p>${"word ".repeat(200)}</p>`, 1],
    [`<p>${"word ".repeat(201)}</p>`, 2],
    [`<h2>T</h2><p>${"word ".repeat(999)}</p>`, 5],
  ])("%#: %i min", (html, minutes) => expect(readingMinutes(html)).toBe(minutes));
});

describe("list filter", () => {
  const posts = [
    { title: "Lighting on a Budget", excerpt: "Soft light for less", category: "tips-and-tricks" },
    { title: "Taxes for Cam Models", excerpt: "Set aside 25–30% of every payout", category: "income-strategies" },
    { title: "Tip Menus", excerpt: null, category: "income-strategies" },
  ];
  test("category and search must both match; search is case-insensitive over title and excerpt", () => {
    expect(filterPosts(posts, { category: null, search: "" })).toHaveLength(3);
    expect(filterPosts(posts, { category: "income-strategies", search: "" }).map((p) => p.title)).toEqual([
      "Taxes for Cam Models",
      "Tip Menus",
    ]);
    expect(filterPosts(posts, { category: null, search: "  LIGHT " }).map((p) => p.title)).toEqual([
      "Lighting on a Budget",
    ]);
    expect(filterPosts(posts, { category: null, search: "payout" }).map((p) => p.title)).toEqual([
      "Taxes for Cam Models",
    ]);
    expect(filterPosts(posts, { category: "tips-and-tricks", search: "tax" })).toEqual([]);
  });
  test("every word must match, in any order, across title and excerpt", () => {
    const titles = (search: string) => filterPosts(posts, { category: null, search }).map((p) => p.title);
    expect(titles("budget lighting")).toEqual(["Lighting on a Budget"]);
    expect(titles("  SOFT   budget ")).toEqual(["Lighting on a Budget"]);
    expect(titles("payout taxes")).toEqual(["Taxes for Cam Models"]);
    expect(titles("cam")).toEqual(["Taxes for Cam Models"]);
    expect(titles("lighting taxes")).toEqual([]);
    expect(titles("tip zebra")).toEqual([]);
  });
});
