// Every server-rendered page with an affiliate link labels each one next to it and shows the
// disclosure note once, near the first, linking to the terms page's disclosure section.

import { beforeAll, describe, expect, test } from "bun:test";
import { DISCLOSURE_ANCHOR, DISCLOSURE_HREF } from "#shared/features/disclosure/constants.ts";
import { siteApp, testApp } from "#tests/support/app.ts";
import { createEarningsResult, createQuizResult, createSitePage } from "#tests/support/factories.ts";
import { renderPage } from "#tests/support/page.ts";

const LABELS = ["Sponsored", "Affiliate link"];

/** The page's outbound affiliate links: marked sponsored, or sent through the site's /go/ links. */
function affiliateLinks(document: Document): HTMLAnchorElement[] {
  return [...document.querySelectorAll<HTMLAnchorElement>("a[href]")].filter(
    (a) => /\bsponsored\b/.test(a.getAttribute("rel") ?? "") || (a.getAttribute("href") ?? "").startsWith("/go/"),
  );
}

describe("affiliate disclosure on every page", () => {
  const { db, request } = testApp();
  const saved = { quiz: "", earnings: "" };
  beforeAll(async () => {
    saved.quiz = (await createQuizResult(db)).id;
    saved.earnings = (await createEarningsResult(db, { quizResultId: saved.quiz })).id;
  });
  const paths: [string, () => string][] = [
    ...[
      "/",
      "/learn-more",
      "/terms",
      "/privacy",
      "/quiz",
      "/plan",
      "/learn",
      "/learn/1",
      "/resources",
      "/blog",
      "/resume",
    ].map((path): [string, () => string] => [path, () => path]),
    ["/learn/module-complete", () => "/learn/module-complete?moduleId=1"],
    ["a quiz result", () => `/quiz/result?archetype=Girl+Next+Door&id=${saved.quiz}`],
    ["the calculator", () => `/quiz/earnings?quizId=${saved.quiz}`],
    ["a tier result", () => `/quiz/earnings?tier=Casual+Starter&id=${saved.earnings}`],
    ["the starter kit", () => `/quiz/starter-kit?quizId=${saved.quiz}`],
  ];

  test.each(paths)("%s: a label next to each affiliate link, one note near the first", async (_, path) => {
    const page = await renderPage(request, path());
    expect(page.status).toBe(200);
    const links = affiliateLinks(page.document);
    // The footer's platform links are on every page.
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of links) {
      const id = link.getAttribute("aria-describedby") ?? "";
      const label = page.document.getElementById(id);
      expect(LABELS).toContain(label?.textContent ?? `no label for ${link.outerHTML}`);
      expect(label?.className).toBe("affiliate-label");
      // Next to the link: in the element that holds it.
      expect(link.parentElement?.contains(label!)).toBe(true);
    }
    const notes = page.document.querySelectorAll(".affiliate-disclosure");
    expect(notes).toHaveLength(1);
    const note = notes[0]!;
    expect(note.textContent).toContain("We earn a commission");
    expect(note.querySelector("a")?.getAttribute("href")).toBe(DISCLOSURE_HREF);
    // Near the first affiliate link: in the block that holds it, or right after it.
    const block = note.parentElement!;
    expect(block.contains(links[0]!) || block.previousElementSibling?.contains(links[0]!)).toBe(true);
  });

  test("the banner's pages say it under the banner; platform buttons and the footer say it where they come first", async () => {
    const result = await renderPage(request, `/quiz/result?archetype=Girl+Next+Door&id=${saved.quiz}`);
    expect(result.screen.getByRole("complementary", { name: "Affiliate disclosure" }).textContent).toContain(
      "Our advice is not for sale.",
    );
    const learn = await renderPage(request, "/learn");
    expect(learn.document.querySelector(".platform-buttons .affiliate-disclosure")).not.toBeNull();
    const blog = await renderPage(request, "/blog");
    expect(blog.document.querySelector(".site-footer .affiliate-disclosure")).not.toBeNull();
  });

  test("the terms page has the section the note links to", async () => {
    const terms = await renderPage(request, "/terms");
    const section = terms.document.getElementById(DISCLOSURE_ANCHOR);
    expect(section?.tagName).toBe("H2");
    expect(section?.textContent).toBe("Affiliate disclosure");
  });
});

test("terms written without a disclosure section still have one to land on", async () => {
  const { db, request } = await siteApp();
  await createSitePage(db, {
    slug: "terms",
    title: "Terms of Service",
    body: "<h2>Who may use this site</h2><p>Adults.</p>",
  });
  const terms = await renderPage(request, "/terms");
  expect(terms.document.getElementById("who-may-use-this-site")?.textContent).toBe("Who may use this site");
  const section = terms.document.getElementById(DISCLOSURE_ANCHOR);
  expect(section?.textContent).toBe("Affiliate disclosure");
  expect(terms.screen.getByRole("region", { name: "Affiliate disclosure" }).textContent).toContain("commission");
});
