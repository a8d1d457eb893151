import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, waitForHydration } from "./fixtures.ts";

// Every outbound affiliate link the browser shows, once each page has hydrated and loaded what
// it loads itself (a module's offers), goes through /go/<slug>?p=<placement>: no anchor names a
// seeded affiliate destination, and each managed link answers with a redirect to one.

const content = join(import.meta.dir, "..", "..", "content");
const DESTINATIONS = ["offers.json", "products.json", "site-settings.json"].flatMap((file) => [
  ...new Set(readFileSync(join(content, file), "utf8").match(/https?:\/\/[^"'\s)]+/g) ?? []),
]);
const ANSWERS = ["A", "A", "B", "C", "A", "B", "D", "C", "A", "B", "C", "A", "B", "D", "C"];

test("no page the browser shows links straight to an affiliate destination", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  expect(DESTINATIONS.length).toBeGreaterThan(10);
  const saved = await (
    await page.request.post("/api/quiz/result", { data: { archetype: "Couple", answers: ANSWERS } })
  ).json();
  await page.goto("/blog");
  const post = await page.locator('main a[href^="/blog/"]').first().getAttribute("href");
  const paths = [
    "/",
    `/quiz/result?archetype=Couple&id=${saved.id}`,
    `/quiz/starter-kit?quizId=${saved.id}`,
    "/resources",
    "/learn",
    "/learn/1",
    post!,
  ];
  const managed = new Map<string, string>();
  for (const path of paths) {
    await page.goto(path);
    await waitForHydration(page);
    // The module's offer loads after the page: its card is whole once its link is there.
    if (path === "/learn/1")
      await expect(
        page.getByRole("complementary", { name: "Sponsored offer" }).locator('a[rel~="sponsored"]').first(),
      ).toBeVisible();
    const anchors = await page.locator("a[href]").evaluateAll((all) =>
      all.map((a) => ({
        href: (a as HTMLAnchorElement).href,
        rel: a.getAttribute("rel") ?? "",
        target: a.getAttribute("target") ?? "",
      })),
    );
    for (const a of anchors) {
      for (const destination of DESTINATIONS) expect(`${path}: ${a.href}`).not.toBe(`${path}: ${destination}`);
      const url = new URL(a.href);
      if (url.origin !== baseURL) expect(`${path}: ${a.href} ${a.rel}`).not.toContain("sponsored");
      if (!/\bsponsored\b/.test(a.rel)) continue;
      expect(`${path}: ${url.pathname}`).toMatch(/^\/\S*: \/go\/[a-z0-9-]+$/);
      expect(url.searchParams.get("p")).toBeTruthy();
      expect([a.rel, a.target]).toEqual(["sponsored noopener", "_blank"]);
      managed.set(`${url.pathname}${url.search}`, path);
    }
  }
  // Each placement seen: the footer, the banner, the result, the kit, resources, learn, the offer.
  const placements = new Set([...managed.keys()].map((href) => new URL(href, baseURL).searchParams.get("p")));
  expect([...placements].sort()).toEqual([
    "banner",
    "footer",
    "learn",
    "offer",
    "quiz-result",
    "resources",
    "starter-kit",
  ]);
  for (const href of managed.keys()) {
    const answer = await page.request.get(href, { maxRedirects: 0 });
    expect([href, answer.status()]).toEqual([href, 302]);
    expect(DESTINATIONS).toContain(answer.headers().location!);
  }
});
