import { describe, expect, test } from "bun:test";
import { pageData, type Reader } from "./page-route.ts";
import { matchPage, notFoundPage, type PageDef, pages } from "./routes.ts";

const loaded = pages.filter((p): p is PageDef => "load" in p);

describe("page table", () => {
  test.each([
    ["/", "home"],
    ["/learn-more", "about"],
    ["/terms", "terms"],
    ["/privacy", "privacy"],
    ["/quiz", "quiz"],
    ["/quiz/result", "quiz-result"],
    ["/quiz/earnings", "earnings"],
    ["/quiz/earnings?quizId=abc", "earnings"],
    ["/quiz/earnings?tier=Power%20Earner&id=abc", "tier-result"],
    ["/quiz/earnings?tier=Power%20Earner", "earnings"],
    ["/quiz/starter-kit", "starter-kit"],
    ["/quiz/other", "not-found"],
    ["/course-complete", "course-complete-redirect"],
    ["/anything/else", "not-found"],
  ])("%s -> %s", (address, id) => {
    const [path = "", query] = address.split("?");
    expect(matchPage(path, new URLSearchParams(query)).page.id).toBe(id);
  });

  test("ids are unique and the wildcard 404 is last", async () => {
    expect(new Set(pages.map((p) => p.id)).size).toBe(pages.length);
    expect(pages.at(-1)).toMatchObject({ id: "not-found", path: "*" });
    expect(pages.at(-1)).toBe(notFoundPage);
    expect((await notFoundPage.load()).route).toMatchObject({ status: 404 });
  });

  test("every page reads the site settings; terms also reads its text", async () => {
    const match = matchPage("/terms");
    const { route = {} } = await (match.page as PageDef).load();
    const read: Reader = async () => null;
    const needs = await pageData(route, {
      params: match.params,
      search: new URLSearchParams(),
      pathname: "/terms",
      read,
    });
    expect(Array.isArray(needs) && needs.map((n) => n.key)).toEqual(["/api/settings", "/api/pages/terms"]);
  });

  test("every page module loads and exports a component", async () => {
    for (const page of loaded) expect(typeof (await page.load()).default).toBe("function");
  });

  test("a moved address names a page that exists", () => {
    for (const page of pages) if ("movedTo" in page) expect(matchPage(page.movedTo).page).not.toBe(notFoundPage);
  });
});
