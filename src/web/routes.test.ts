import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ADMIN_SECTIONS, adminPath, NEW_RECORD } from "./admin/admin-sections.ts";
import { pageQueries, type Reader } from "./page-route.ts";
import { matchPage, notFoundPage, type PageDef, pageCacheKey, pages, searchAt } from "./routes.ts";

const loaded = pages.filter((p): p is PageDef => "load" in p);

describe("route table", () => {
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
    ["/admin", "admin"],
    ["/admin/posts", "admin-posts"],
    ["/admin/posts/new", "admin-post"],
    ["/admin/posts/12", "admin-post"],
    ["/admin/categories", "admin-categories"],
    ["/admin/offers", "admin-offers"],
    ["/admin/offers/new", "admin-offer"],
    ["/admin/products", "admin-products"],
    ["/admin/settings", "admin-settings"],
    ["/admin/analytics?days=7", "admin-analytics"],
    ["/admin/nope", "not-found"],
    ["/admin/categories/1", "not-found"],
    ["/admin-login", "admin-login"],
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
    const queries = await pageQueries(route, {
      params: match.params,
      search: new URLSearchParams(),
      pathname: "/terms",
      read,
    });
    expect(Array.isArray(queries) && queries.map((n) => n.key)).toEqual(["/api/settings", "/api/pages/terms"]);
  });

  test("every page module loads and exports a component", async () => {
    for (const page of loaded) expect(typeof (await page.load()).default).toBe("function");
  });

  test("every admin section's address is an admin page", () => {
    for (const { id } of ADMIN_SECTIONS) {
      for (const path of [adminPath(id), ...(id === "posts" || id === "offers" ? [adminPath(id, NEW_RECORD)] : [])])
        expect([path, matchPage(path).page.id.startsWith("admin")]).toEqual([path, true]);
    }
  });

  test("a moved address names a page that exists", () => {
    for (const page of pages) if ("movedTo" in page) expect(matchPage(page.movedTo).page).not.toBe(notFoundPage);
  });
});

describe("what a page reads from its address", () => {
  const address = (url: string) => {
    const { pathname, searchParams } = new URL(url, "http://x");
    return pageCacheKey(matchPage(pathname, searchParams), pathname, searchParams);
  };

  test.each([
    ["/blog?utm=1&category=tips-and-tricks&category=x", "category=tips-and-tricks", "shared"],
    ["/blog?category=made-up", "category=made-up", "visitor"],
    ["/blog?q=webcam+privacy&utm=1&category=tips-and-tricks", "category=tips-and-tricks&q=webcam+privacy", "visitor"],
    ["/quiz/result?id=abc&archetype=Couple&x=1", "archetype=Couple&id=abc", "visitor"],
    ["/quiz/result?archetype=Couple", "archetype=Couple", "shared"],
    ["/quiz/earnings?tier=Power+Earner&id=e1&quizId=q", "tier=Power+Earner&id=e1", "visitor"],
    ["/learn/3?quiz=yes", "", "shared"],
    ["/learn/3?quiz=true&quiz=false", "quiz=true", "shared"],
    ["/learn/03", "", "visitor"],
    ["/learn/3?topic=3&utm=1", "topic=3", "shared"],
    ["/learn/3?topic=1", "", "shared"],
    ["/learn/3?topic=6", "", "shared"],
    ["/learn/3?topic=02", "", "shared"],
    ["/learn/3?topic=x", "", "shared"],
    ["/learn/3?a2=c&quiz=true&a1=B&a3=E", "quiz=true&a1=B&a2=C", "visitor"],
    ["/learn/3?retry=42&quiz=true&a1=B&a3=D&retry=5", "quiz=true&a1=B&a3=D&retry=24", "visitor"],
    ["/learn/3?quiz=true&retry=26", "quiz=true", "shared"],
    ["/learn/3?quiz=true&retry=0", "quiz=true", "shared"],
    ["/learn/module-complete?moduleId=007", "moduleId=7", "shared"],
    ["/learn/module-complete?moduleId=11", "moduleId=11", "visitor"],
    ["/learn/module-complete?moduleId=x", "", "shared"],
    ["/BLOG", "", "visitor"],
    ["/blog/", "", "visitor"],
    ["/?anything=1", "", "shared"],
    ["/admin/analytics?days=90&x=1", "days=90", "shared"],
    ["/admin/analytics?days=14", "", "shared"],
    ["/admin/analytics?days=07", "", "shared"],
    ["/admin/posts?q=light&x=1&page=3", "page=3&q=light", "visitor"],
    ["/admin/posts?page=1", "", "shared"],
    ["/admin/posts?page=0&page=2", "", "shared"],
    ["/admin/posts?page=100001", "", "shared"],
  ])("%s reads %p (%s)", (url, search, partition) => {
    expect(address(url)).toMatchObject({ search, partition });
    // The browser's search hook gives the page the same query string.
    const { pathname, search: raw } = new URL(url, "http://x");
    expect(searchAt(pathname, raw)).toBe(search);
    // Reading it again changes nothing.
    expect(searchAt(pathname, search)).toBe(search);
  });

  test("a page reads only the query parameters the route table declares for it", () => {
    // Every `.get("name")` on a search in a page module names a parameter its entry declares.
    const declared = new Map(pages.filter((p): p is PageDef => "load" in p).map((p) => [p.id, p]));
    const modules = new Map<string, string[]>();
    for (const page of declared.values()) {
      const file = /import\("\.\/(.+?)"\)/.exec(page.load.toString())?.[1];
      if (!file) continue;
      modules.set(file, [...(modules.get(file) ?? []), page.id]);
    }
    expect(modules.size).toBeGreaterThan(10);
    const problems: string[] = [];
    let reads = 0;
    for (const [file, ids] of modules) {
      const source = readFileSync(join(import.meta.dir, file), "utf8");
      const names = [...source.matchAll(/search(?:\(\))?\)?\.get\("([^"]+)"\)/gi)].map((m) => m[1]!);
      reads += names.length;
      const allowed = new Set(ids.flatMap((id) => Object.keys(declared.get(id)?.search ?? {})));
      for (const name of names) if (!allowed.has(name)) problems.push(`${file} reads "${name}"`);
    }
    expect(problems).toEqual([]);
    // The scan finds the reads there are (so an empty result means something).
    expect(reads).toBeGreaterThan(15);
  });
});
