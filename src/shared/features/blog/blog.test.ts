import { describe, expect, test } from "bun:test";
import {
  blogListAddress,
  blogListQuery,
  blogListState,
  longDate,
  markWords,
  pageNumbers,
  passageParts,
  readingMinutes,
  relativeTime,
} from "./blog.ts";
import { MATCH_END, MATCH_START } from "./constants.ts";
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

describe("the list's address", () => {
  const state = (search: string) => blogListState(new URLSearchParams(search));
  test("reads page, category and search; a page that is not a whole number from 1 is the first", () => {
    expect(state("")).toEqual({ page: 1, category: null, search: "" });
    expect(state("?page=3&category=tips&q=tax+rates")).toEqual({ page: 3, category: "tips", search: "tax rates" });
    for (const page of ["0", "-2", "abc", "1.5", "100000", "02", ""]) expect(state(`?page=${page}`).page).toBe(1);
    expect(state(`?q=${"a".repeat(300)}`).search).toHaveLength(200);
  });
  test("writes each part only when it is not the default, and back again", () => {
    expect(blogListAddress({ page: 1, category: null, search: " " })).toBe("/blog");
    const address = blogListAddress({ page: 2, category: "tips", search: "tax & fees" });
    expect(address).toBe("/blog?category=tips&q=tax+%26+fees&page=2");
    expect(state(address.slice(5))).toEqual({ page: 2, category: "tips", search: "tax & fees" });
  });
  test("the read's query is trimmed, so one search has one answer", () => {
    expect(blogListQuery({ page: 1, category: null, search: "  tax   rates " })).toEqual({ q: "tax rates" });
    expect(blogListQuery({ page: 2, category: "tips", search: "" })).toEqual({ category: "tips", page: "2" });
  });
});

describe("marking what a search found", () => {
  const marked = (parts: { text: string; mark: boolean }[]) =>
    parts.map((p) => (p.mark ? `[${p.text}]` : p.text)).join("");
  test("each word starting with a searched word, in any case, whole", () => {
    expect(marked(markWords("Taxes for Cam Models: tax rates", "TAX mod"))).toBe(
      "[Taxes] for Cam [Models]: [tax] rates",
    );
    expect(marked(markWords("Lighting on a budget", ""))).toBe("Lighting on a budget");
    expect(marked(markWords("Lighting on a budget", "zebra"))).toBe("Lighting on a budget");
  });
  test("a passage's marked words, from the server's markers", () => {
    expect(marked(passageParts(`…models ${MATCH_START}make${MATCH_END} their ${MATCH_START}money${MATCH_END}.`))).toBe(
      "…models [make] their [money].",
    );
  });
});

describe("the list's page numbers", () => {
  test("the first, the last and the current page with its neighbours; a gap for the rest", () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(1, 2)).toEqual([1, 2]);
    expect(pageNumbers(2, 3)).toEqual([1, 2, 3]);
    expect(pageNumbers(1, 834)).toEqual([1, 2, "gap", 834]);
    expect(pageNumbers(5, 834)).toEqual([1, "gap", 4, 5, 6, "gap", 834]);
    expect(pageNumbers(834, 834)).toEqual([1, "gap", 833, 834]);
    expect(pageNumbers(417, 834)).toEqual([1, "gap", 416, 417, 418, "gap", 834]);
  });

  test("a gap never hides a single page", () => {
    expect(pageNumbers(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageNumbers(1, 3)).toEqual([1, 2, 3]);
    expect(pageNumbers(3, 10)).toEqual([1, 2, 3, 4, "gap", 10]);
    expect(pageNumbers(8, 10)).toEqual([1, "gap", 7, 8, 9, 10]);
    expect(pageNumbers(5, 10)).toEqual([1, "gap", 4, 5, 6, "gap", 10]);
  });

  test("never more than seven entries, each page once and in order", () => {
    for (let last = 1; last <= 40; last++)
      for (let current = 1; current <= last; current++) {
        const entries = pageNumbers(current, last);
        expect(entries.length).toBeLessThanOrEqual(7);
        const numbers = entries.filter((e): e is number => e !== "gap");
        expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
        expect(numbers).toContain(current);
        expect([numbers[0], numbers.at(-1)]).toEqual([1, last]);
      }
  });
});
