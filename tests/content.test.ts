// content/ is data: every file is checked against the schemas the app uses.
import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import siteSettings from "../content/site-settings.json" with { type: "json" };
import pageIndex from "../content/pages/index.json" with { type: "json" };
import outline from "../content/course/outline.json" with { type: "json" };
import { SiteSettings } from "../src/shared/contract/settings.ts";
import { SITE_PAGE_SLUGS } from "../src/shared/contract/site-pages.ts";

const contentDir = join(import.meta.dir, "..", "content");

function problems(schema: Parameters<typeof Value.Errors>[0], value: unknown) {
  return [...Value.Errors(schema, value)].map((e) => `${e.path}: ${e.message}`);
}

describe("content/site-settings.json", () => {
  test("matches the SiteSettings schema", () => expect(problems(SiteSettings, siteSettings)).toEqual([]));
  test("uses neutral placeholders, not real companies (DECISIONS P5)", () => {
    for (const p of [siteSettings.platformA, siteSettings.platformB]) expect(new URL(p.url).hostname).toMatch(/^example\.(com|org|net)$/);
  });
});

describe("content/pages", () => {
  const Entry = Type.Object({
    slug: Type.Union(SITE_PAGE_SLUGS.map((s) => Type.Literal(s))),
    title: Type.String({ minLength: 3, maxLength: 80 }),
    description: Type.String({ minLength: 50, maxLength: 160 }),
    file: Type.String({ pattern: "^[a-z-]+\\.html$" }),
  });

  test("the index lists every site page once", () => {
    expect(problems(Type.Array(Entry), pageIndex)).toEqual([]);
    expect(pageIndex.map((p) => p.slug).sort()).toEqual([...SITE_PAGE_SLUGS].sort());
  });

  test.each(pageIndex.map((p) => [p.file]))("%s is safe, structured template text", (file) => {
    const html = readFileSync(join(contentDir, "pages", file), "utf8");
    const tags = new Set([...html.matchAll(/<([a-z0-9]+)[\s>]/g)].map((m) => m[1]));
    for (const tag of tags) expect(["h2", "h3", "p", "ul", "ol", "li", "strong", "em"]).toContain(tag!);
    expect(html).not.toMatch(/\son\w+=|javascript:|style=/i);
    expect(html).toContain("{{brand}}");
    const words = html.replace(/<[^>]+>/g, " ").split(/\s+/).filter(Boolean).length;
    expect(words).toBeGreaterThan(400);
  });
});

describe("content/course/outline.json", () => {
  test("ten modules with the titles SPEC section 3 gives", () => {
    expect(outline.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(outline[0]!.title).toBe("Camming 101 – What to Expect");
    expect(outline[9]!.title).toBe("Business Mindset, Goals & Evolving Your Career");
  });
});
