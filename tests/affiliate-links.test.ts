// Every outbound affiliate link on every public page goes through a managed link
// (/go/<slug>?p=<placement>, docs/product.md#managed-links): the server's HTML names no
// affiliate destination anywhere, not in a link and not in the data the page hydrates from.
import { describe, expect, test } from "bun:test";
import { links } from "#server/features/links/table.ts";
import { MODULE_COUNT } from "#shared/features/course/constants.ts";
import { TIERS } from "#shared/features/earnings/constants.ts";
import { PLACEMENT_PAGES } from "#shared/features/links/constants.ts";
import { testApp } from "#tests/support/app.ts";
import { createEarningsResult, createQuizResult, createSitePage } from "#tests/support/factories.ts";
import { renderPage } from "#tests/support/page.ts";
import { pages } from "#web/routes.ts";

const t = testApp();
const quiz = await createQuizResult(t.db, { archetype: "Cosplay Babe" });
const tier = await createEarningsResult(t.db, { quizResultId: quiz.id, tier: TIERS[1]!.name });
// A page the owner added, linked from the footer.
await createSitePage(t.db, { slug: "about-us", title: "About us", inFooter: true });
const { posts } = (await (await t.request("/api/blog/posts")).json()) as { posts: { slug: string }[] };
const postSlugs = posts.map((post) => post.slug);

/** The addresses each public page of the route table is seen at, with the data it needs. */
const ADDRESSES: Record<string, string[]> = {
  "quiz-result": [`/quiz/result?archetype=Cosplay%20Babe&id=${quiz.id}`, "/quiz/result?archetype=Couple"],
  "tier-result": [`/quiz/earnings?tier=${encodeURIComponent(tier.tier)}&id=${tier.id}`],
  earnings: ["/quiz/earnings", `/quiz/earnings?quizId=${quiz.id}`],
  "starter-kit": [`/quiz/starter-kit?quizId=${quiz.id}`],
  "module-complete": ["/learn/module-complete?moduleId=1"],
  "quiz-complete": ["/learn/quiz-complete?moduleId=1"],
  module: Array.from({ length: MODULE_COUNT }, (_, i) => `/learn/${i + 1}`),
  "blog-post": postSlugs.map((slug) => `/blog/${slug}`),
  "not-found": ["/no-such-page"],
  "added-page": ["/about-us"],
};

const publicPages = pages.filter((page) => !("movedTo" in page) && !page.id.startsWith("admin"));
const addresses = publicPages.flatMap((page) => ADDRESSES[page.id] ?? [page.path]);

describe("affiliate links on every public page", () => {
  test("the route table's public pages all have addresses here", () => {
    for (const page of publicPages)
      expect(ADDRESSES[page.id] ?? (page.path.includes(":") ? [] : [page.path])).not.toEqual([]);
    expect(postSlugs.length).toBeGreaterThan(0);
  });

  test("no page names an affiliate destination; its sponsored links go through /go/ with a placement", async () => {
    const destinations = (await t.db.select({ destination: links.destination }).from(links)).map((l) => l.destination);
    expect(destinations.length).toBeGreaterThan(10);
    const slugs = new Set((await t.db.select({ slug: links.slug }).from(links)).map((l) => l.slug));
    const placements = new Set<string>();
    for (const address of addresses) {
      const page = await renderPage(t.request, address);
      expect([address, page.status]).toEqual([address, address === "/no-such-page" ? 404 : 200]);
      for (const destination of destinations) {
        if (page.html.includes(destination)) throw new Error(`${address} names the destination ${destination}`);
      }
      const anchors = [...page.document.querySelectorAll("a[href]")];
      // A link marked as paid always goes through a managed link (other outbound links, such
      // as a guide's sources, are not affiliate links and carry no destination checked above).
      for (const a of anchors.filter((a) => /\bsponsored\b/.test(a.getAttribute("rel") ?? "")))
        expect(`${address}: ${a.getAttribute("href")}`).toStartWith(`${address}: /go/`);
      const sponsored = anchors.filter((a) => a.getAttribute("href")!.startsWith("/go/"));
      // The footer's two platforms are on every page.
      expect(sponsored.length).toBeGreaterThanOrEqual(2);
      for (const a of sponsored) {
        const url = new URL(a.getAttribute("href")!, "http://site.test");
        const [, , slug, ...rest] = url.pathname.split("/");
        expect(rest).toEqual([]);
        expect(slugs.has(slug!)).toBe(true);
        expect([...url.searchParams.keys()]).toEqual(["p"]);
        expect(Object.keys(PLACEMENT_PAGES)).toContain(url.searchParams.get("p")!);
        placements.add(url.searchParams.get("p")!);
        expect(a.getAttribute("rel")).toBe("sponsored noopener");
        expect(a.getAttribute("target")).toBe("_blank");
      }
    }
    // Each kind of placement was seen on some page (offers are loaded by the browser: below).
    expect([...placements, "offer"].sort()).toEqual(Object.keys(PLACEMENT_PAGES).sort());
  });

  test("the offers the browser loads carry their managed link, not the destination", async () => {
    const destinations = (await t.db.select({ destination: links.destination }).from(links)).map((l) => l.destination);
    let seen = 0;
    for (let module = 1; module <= MODULE_COUNT; module++) {
      const body = await (await t.request(`/api/module/${module}/affiliate-offers`)).text();
      for (const destination of destinations) expect(body).not.toContain(destination);
      for (const offer of JSON.parse(body) as { linkUrl: string }[]) {
        expect(offer.linkUrl).toMatch(/^\/go\/[a-z0-9-]+$/);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});
