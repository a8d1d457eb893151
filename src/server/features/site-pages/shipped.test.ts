import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { eq } from "drizzle-orm";
import { content } from "#server/db/content.ts";
import { readMarkdown } from "#server/lib/markdown.ts";
import { SitePage } from "#shared/features/site-pages/contract.ts";
import { testApp } from "#tests/support/app.ts";
import { refreshShippedPages } from "./shipped.ts";
import { sitePages } from "./table.ts";

// The privacy page as the release before visit counts shipped it.
const before = readMarkdown(
  "privacy.md",
  await Bun.file(`${import.meta.dir}/../../../../tests/fixtures/privacy-before-counting.md`).text(),
  Type.Pick(SitePage, ["slug", "title", "description"]),
).html;
const current = content.sitePages.find((page) => page.slug === "privacy")!;

describe("shipped legal pages on upgrade", () => {
  test("a page with an earlier release's text, never edited, gets this release's; an edited one is kept", async () => {
    const t = testApp();
    const body = async () =>
      (await t.db.select({ body: sitePages.body }).from(sitePages).where(eq(sitePages.slug, "privacy")))[0]!.body;
    expect(before).not.toContain("Visit counts");
    expect(current.body).toContain("Visit counts");

    // As a release before the editor seeded it: the HTML only.
    await t.db.update(sitePages).set({ body: before, bodyMarkdown: null }).where(eq(sitePages.slug, "privacy"));
    expect(await refreshShippedPages(t.db, content.sitePages)).toEqual(["privacy"]);
    expect(await body()).toBe(current.body);
    const page = await (await t.request("/privacy")).text();
    expect(page).toContain("Visit counts");
    // Once up to date, nothing more to do.
    expect(await refreshShippedPages(t.db, content.sitePages)).toEqual([]);

    // The operator's own wording stays, even if it started as a shipped text.
    const edited = `${before}<p>Our own note.</p>`;
    await t.db.update(sitePages).set({ body: edited }).where(eq(sitePages.slug, "privacy"));
    expect(await refreshShippedPages(t.db, content.sitePages)).toEqual([]);
    expect(await body()).toBe(edited);
  });
});
