// The result page as a crawler and a social network see it: its card names the archetype's
// own address and image, never the saved result's id or answers.
import { describe, expect, test } from "bun:test";
import { scoringTable } from "#shared/features/quiz/content.ts";
import { archetypeShares } from "#shared/features/quiz/share.ts";
import { testApp } from "#tests/support/app.ts";
import { createQuizResult } from "#tests/support/factories.ts";
import { renderPage } from "#tests/support/page.ts";

const origin = "https://guide.example.com";
const meta = (doc: Document, selector: string) =>
  doc.querySelector(selector)?.getAttribute("content") ?? doc.querySelector(selector)?.getAttribute("href");

describe("the result page's social card", () => {
  test("a saved result points its canonical, og:url and images at the archetype's own address", async () => {
    const t = testApp({ publicUrl: origin });
    const answers = "BBBBBBBBBBBBBBB".split("");
    const { id } = await createQuizResult(t.db, { archetype: "Dominatrix", answers });
    const { status, document } = await renderPage(t.request, `/quiz/result?archetype=Dominatrix&id=${id}`);
    expect(status).toBe(200);
    const address = `${origin}/quiz/result?archetype=Dominatrix`;
    expect(meta(document, 'link[rel="canonical"]')).toBe(address);
    expect(meta(document, 'meta[property="og:url"]')).toBe(address);
    expect(meta(document, 'meta[property="og:image"]')).toBe(`${origin}/social/dominatrix.png`);
    expect(meta(document, 'meta[name="twitter:image"]')).toBe(`${origin}/social/dominatrix.png`);
    for (const tag of document.querySelectorAll("head meta, head link")) expect(tag.outerHTML).not.toContain(id);

    // The chart is in the first HTML, from the stored answers.
    const top = archetypeShares(answers as never, scoringTable).slice(0, 3);
    const rows = [...document.querySelectorAll(".mix-list li")].map((li) =>
      li.textContent?.replace(/\s+/g, " ").trim(),
    );
    expect(rows).toEqual(top.map((r) => `${r.archetype} ${r.percent}%`));
    expect(document.querySelector(".runner-up")?.textContent).toStartWith(`Your runner-up is ${top[1]!.archetype}.`);

    const image = await t.request("/social/dominatrix.png");
    expect([image.status, image.headers.get("content-type")]).toEqual([200, "image/png"]);
  });

  test("the archetype-only address has its card and no chart (it holds no answers)", async () => {
    const t = testApp({ publicUrl: origin });
    const { document } = await renderPage(t.request, "/quiz/result?archetype=Submissive%20%2F%20Brat");
    expect(meta(document, 'meta[property="og:image"]')).toBe(`${origin}/social/submissive-brat.png`);
    expect(meta(document, 'meta[property="og:url"]')).toBe(`${origin}/quiz/result?archetype=Submissive%20%2F%20Brat`);
    expect(document.querySelector(".mix-list")).toBeNull();
    expect(document.querySelector(".share-address a")?.getAttribute("href")).toBe(
      "/quiz/result?archetype=Submissive%20%2F%20Brat",
    );
  });
});
