import { describe, expect, test } from "bun:test";
import { matchPage, pageQueries, pages } from "./routes.ts";

describe("page table", () => {
  test.each([
    ["/", "home"],
    ["/learn-more", "about"],
    ["/terms", "terms"],
    ["/privacy", "privacy"],
    ["/quiz", "quiz"],
    ["/quiz/result", "quiz-result"],
    ["/quiz/earnings", "earnings"],
    ["/quiz/starter-kit", "starter-kit"],
    ["/quiz/other", "not-found"],
    ["/course-complete", "course-complete-redirect"],
    ["/anything/else", "not-found"],
  ])("%s -> %s", (path, id) => expect(matchPage(path).page.id).toBe(id));

  test("ids are unique and the wildcard 404 is last", () => {
    expect(new Set(pages.map((p) => p.id)).size).toBe(pages.length);
    expect(pages.at(-1)).toMatchObject({ id: "not-found", path: "*", status: 404 });
  });

  test("every page reads the site settings; terms also reads its text", () => {
    const match = matchPage("/terms");
    expect(pageQueries(match, new URLSearchParams(), () => null)).toEqual(["/api/settings", "/api/pages/terms"]);
  });

  test("every page module loads and exports a component", async () => {
    for (const page of pages) expect(typeof (await page.load()).default).toBe("function");
  });
});
