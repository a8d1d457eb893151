// content/ is data: every file is checked against the schemas the app uses.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import blogCategories from "#content/blog/categories.json" with { type: "json" };
import outline from "#content/course/outline.json" with { type: "json" };
import earningsQuestions from "#content/earnings/questions.json" with { type: "json" };
import tiers from "#content/earnings/tiers.json" with { type: "json" };
import offers from "#content/offers.json" with { type: "json" };
import products from "#content/products.json" with { type: "json" };
import archetypes from "#content/quiz/archetypes.json" with { type: "json" };
import questions from "#content/quiz/questions.json" with { type: "json" };
import runnerUp from "#content/quiz/runner-up.json" with { type: "json" };
import scoring from "#content/quiz/scoring.json" with { type: "json" };
import siteSettings from "#content/site-settings.json" with { type: "json" };
import { content } from "#server/db/content.ts";
import { seedPosts } from "#server/features/blog/seed-posts.ts";
import { courseModules } from "#server/features/course/content.ts";
import * as blogContract from "#shared/features/blog/contract.ts";
import * as courseContract from "#shared/features/course/contract.ts";
import * as earningsContract from "#shared/features/earnings/contract.ts";
import * as offersContract from "#shared/features/offers/contract.ts";
import * as productsContract from "#shared/features/products/contract.ts";
import * as quizContract from "#shared/features/quiz/contract.ts";
import { SiteSettings } from "#shared/features/settings/contract.ts";
import { SITE_PAGE_SLUGS } from "#shared/features/site-pages/contract.ts";

const contentDir = join(import.meta.dir, "..", "content");

/** The words a reader sees in a piece of HTML. */
function wordCount(html: string) {
  return html
    .replace(/<[^>]+>/g, " ")
    .split(/\s+/)
    .filter(Boolean).length;
}

/** The tags a piece of HTML uses. */
function tagsOf(html: string) {
  return new Set([...html.matchAll(/<([a-z0-9]+)[\s>]/g)].map((m) => m[1]!));
}

/**
 * What is wrong with the way a quiz explanation names options. An option is named by its
 * letter and the start of its text in quotes, as in: C (“Diffuse or dim the light”). A bare
 * letter (“option C”, “answer C”, “(C)”) is not allowed, since it cannot be checked.
 */
function optionReferenceProblems(
  text: string,
  question: { correctAnswer: string; options: { id: string; text: string }[] },
): string[] {
  const found: string[] = [];
  const folded = (t: string) => t.toLowerCase().replace(/[’']/g, "'");
  for (const m of text.matchAll(/\b([A-Z]) \(“([^”]+)”\)( is (?:the )?(?:correct|right)\b)?/g)) {
    const [, letter, quoted, callsRight] = m;
    const option = question.options.find((o) => o.id === letter);
    const start = folded(quoted!.replace(/…$/, "").trim());
    if (!option) found.push(`names option ${letter}, which does not exist`);
    else if (start.length < 12 && start !== folded(option.text)) found.push(`quotes too little of ${letter}`);
    else if (!folded(option.text).startsWith(start)) found.push(`quotes “${quoted}” as ${letter}, whose text differs`);
    if (callsRight && letter !== question.correctAnswer) found.push(`calls ${letter} right`);
  }
  const bare = /\b(?:option|answer|choice)s? [A-D]\b(?! \(“)|\([A-D]\)/i.exec(text);
  if (bare) found.push(`names an option without its text: “${bare[0]}”`);
  return found;
}

function problems(schema: Parameters<typeof Value.Errors>[0], value: unknown) {
  return [...Value.Errors(schema, value)].map((e) => `${e.path}: ${e.message}`);
}

describe("content/site-settings.json", () => {
  test("matches the SiteSettings schema", () => expect(problems(SiteSettings, siteSettings)).toEqual([]));
  test("uses neutral placeholders, not real companies", () => {
    for (const p of [siteSettings.platformA, siteSettings.platformB])
      expect(new URL(p.url).hostname).toMatch(/^example\.(com|org|net)$/);
  });
});

describe("content/pages", () => {
  test("one Markdown file per site page, each loaded", () => {
    const files = readdirSync(join(contentDir, "pages")).sort();
    expect(files).toEqual([...SITE_PAGE_SLUGS].map((slug) => `${slug}.md`).sort());
    expect(content.sitePages.map((p) => p.slug).sort()).toEqual([...SITE_PAGE_SLUGS].sort());
  });

  test.each(content.sitePages.map((p) => [p.slug, p] as const))("%s is safe, structured template text", (_, page) => {
    for (const tag of tagsOf(page.body)) expect(["h2", "h3", "p", "ul", "ol", "li", "strong", "em"]).toContain(tag);
    expect(page.body).not.toMatch(/\son\w+=|javascript:|style=/i);
    expect(page.body).toContain("{{brand}}");
    expect(wordCount(page.body)).toBeGreaterThan(400);
  });
});

describe("content/course/outline.json", () => {
  test("ten modules with the course titles", () => {
    expect(outline.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(outline[0]!.title).toBe("Camming 101 – What to Expect");
    expect(outline[9]!.title).toBe("Business Mindset, Goals & Evolving Your Career");
  });
});

describe("quiz and calculator content", () => {
  const { ArchetypeQuestion, ArchetypeProfile, ScoringTable, ARCHETYPES } = quizContract;
  const { EarningsQuestion, TierProfile, TIERS } = earningsContract;

  test("15 archetype questions, 4 options A–D each, numbered in order", () => {
    expect(problems(Type.Array(ArchetypeQuestion, { minItems: 15, maxItems: 15 }), questions)).toEqual([]);
    questions.forEach((q, i) => {
      expect(q.id).toBe(i + 1);
      expect(q.options.map((o) => o.value)).toEqual(["A", "B", "C", "D"]);
    });
  });

  test("the scoring table matches its schema and names only real questions", () => {
    expect(problems(ScoringTable, scoring)).toEqual([]);
    const pairs = scoring.extras.map((e) => `${e.question}${e.answer}${e.archetype}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  test("ten archetype profiles, one per archetype, in order", () => {
    expect(problems(Type.Array(ArchetypeProfile), archetypes)).toEqual([]);
    expect(archetypes.map((a) => a.name)).toEqual([...ARCHETYPES]);
  });

  test("one runner-up line per archetype, in order: a short sentence that promises no money", () => {
    expect(Object.keys(runnerUp)).toEqual([...ARCHETYPES]);
    for (const [name, line] of Object.entries(runnerUp)) {
      expect([name, line.length >= 60 && line.length <= 200]).toEqual([name, true]);
      expect([name, /^[A-Z].*\.$/.test(line)]).toEqual([name, true]);
      expect([name, /[$€£\d]|earn|income|guarantee|money/i.test(line)]).toEqual([name, false]);
    }
  });

  test("15 earnings questions with options valued 1, 2, 3", () => {
    expect(problems(Type.Array(EarningsQuestion, { minItems: 15, maxItems: 15 }), earningsQuestions)).toEqual([]);
    earningsQuestions.forEach((q, i) => {
      expect(q.id).toBe(i + 1);
      expect(q.options.map((o) => o.value)).toEqual([1, 2, 3]);
    });
  });

  test("three tier profiles with their first schedule line", () => {
    expect(problems(Type.Array(TierProfile, { minItems: 3, maxItems: 3 }), tiers)).toEqual([]);
    expect(tiers.map((t) => t.tier)).toEqual(TIERS.map((t) => t.name));
    expect(tiers.map((t) => t.schedule[0])).toEqual([
      "2–3 short shows a week",
      "3–5 days a week at 2–4 hours a show",
      "4–6 days a week at 3–6 hours a show",
    ]);
  });

  test("the texts stay non-explicit and invent no figures", () => {
    const all = JSON.stringify([questions, archetypes, runnerUp, earningsQuestions, tiers]).toLowerCase();
    for (const word of ["nude", "naked", "porn", "sex toy", "explicit act"]) expect(all).not.toContain(word);
    // Percentages other than the tax set-aside would be invented statistics.
    const percents = [...all.matchAll(/(\d+)\s?%/g)].map((m) => m[1]);
    for (const p of percents) expect(["25", "30", "20"]).toContain(p!);
  });
});

describe("content/products.json", () => {
  const { RecommendedProduct, PRODUCT_ARCHETYPES, PRODUCT_BADGES } = productsContract;

  test("every product matches the schema; ids are unique", () => {
    expect(problems(Type.Array(RecommendedProduct), products)).toEqual([]);
    expect(new Set(products.map((p) => p.id)).size).toBe(products.length);
    for (const p of products) expect(PRODUCT_BADGES as readonly string[]).toContain(p.badge);
  });

  test("at least three per archetype, four essentials, one featured per group", () => {
    for (const archetype of PRODUCT_ARCHETYPES) {
      const group = products.filter((p) => p.archetype === archetype);
      expect([archetype, group.length >= (archetype === "All Archetypes" ? 4 : 3)]).toEqual([archetype, true]);
      expect([archetype, group.filter((p) => p.isDefault).length]).toEqual([archetype, 1]);
    }
  });

  test("links are https pages of retailers an operator can replace", () => {
    for (const p of products) expect(new URL(p.link).protocol).toBe("https:");
  });
});

describe("content/course", () => {
  const { CourseModule, MODULE_COUNT } = courseContract;
  const ALLOWED_TAGS = ["h3", "h4", "p", "ul", "ol", "li", "strong", "em", "blockquote"];

  test("ten modules, in order, with the course titles (the outline agrees)", () => {
    expect(courseModules.map((m) => m.id)).toEqual(Array.from({ length: MODULE_COUNT }, (_, i) => i + 1));
    expect(courseModules.map((m) => m.title)).toEqual(outline.map((o) => o.title));
  });

  test.each(courseModules.map((m) => [m.id, m] as const))(
    "module %i matches the schema and the house rules",
    (_, module) => {
      expect(problems(CourseModule, module)).toEqual([]);
      expect(module.topics.map((t) => t.id)).toEqual([1, 2, 3, 4, 5]);
      for (const topic of module.topics) {
        const words = wordCount(topic.content);
        expect([topic.title, words >= 300 && words <= 600]).toEqual([topic.title, true]);
        for (const tag of tagsOf(topic.content)) expect(ALLOWED_TAGS).toContain(tag);
        expect(topic.content).not.toMatch(/<[a-z0-9]+\s[^>]*>/); // no attributes at all
        expect(topic.proTip?.length ?? 0).toBeGreaterThan(20);
      }
      const quiz = module.quiz!;
      expect(quiz.questions).toHaveLength(5);
      for (const q of quiz.questions) {
        expect(q.options.map((o) => o.id)).toEqual(["A", "B", "C", "D"]);
        expect(q.options.map((o) => o.id)).toContain(q.correctAnswer);
      }
      expect(module.checklist?.length ?? 0).toBeGreaterThanOrEqual(4);
    },
  );

  test("every file in content/course is a module file or one of its five lessons", () => {
    const dirs = readdirSync(join(contentDir, "course")).filter((f) => f !== "outline.json");
    expect(dirs.sort()).toEqual(courseModules.map((m) => `module-${String(m.id).padStart(2, "0")}`));
    for (const dir of dirs)
      expect(readdirSync(join(contentDir, "course", dir)).sort()).toEqual([
        "lesson-1.md",
        "lesson-2.md",
        "lesson-3.md",
        "lesson-4.md",
        "lesson-5.md",
        "module.yaml",
      ]);
  });

  test.each(courseModules.map((m) => [m.id, m] as const))(
    "module %i: every explanation that names an option names a real one, by letter and text, and calls only the right one right",
    (_, module) => {
      for (const q of module.quiz!.questions) {
        for (const option of q.options) {
          const where = `question ${q.id}, option ${option.id}`;
          expect([where, option.explanation.startsWith("TO WRITE")]).toEqual([where, false]);
          for (const problem of optionReferenceProblems(option.explanation, q)) expect(`${where}: ${problem}`).toBe("");
          // The explanation of the right option does not say it is wrong, nor a wrong one that it is right.
          const verdict = /^(correct|right|yes)\b/i.test(option.explanation)
            ? "right"
            : /^(not quite|wrong|incorrect|no)\b/i.test(option.explanation)
              ? "wrong"
              : "neutral";
          expect([where, verdict === (option.id === q.correctAnswer ? "wrong" : "right")]).toEqual([where, false]);
        }
      }
    },
  );

  test("the right option is the longest in at most a third of the questions", () => {
    const questions = courseModules.flatMap((m) => m.quiz!.questions);
    const longest = questions.filter((q) => {
      const right = q.options.find((o) => o.id === q.correctAnswer)!.text.length;
      return q.options.every((o) => o.id === q.correctAnswer || o.text.length < right);
    });
    expect(longest.length).toBeLessThanOrEqual(Math.floor(questions.length / 3));
  });

  test("the right answers are not one repeating pattern", () => {
    const patterns = new Set(courseModules.map((m) => m.quiz!.questions.map((q) => q.correctAnswer).join("")));
    expect(patterns.size).toBeGreaterThan(5);
  });

  test("the course states the 25–30% tax set-aside and the 5 Mbps upload minimum", () => {
    const all = JSON.stringify(courseModules);
    expect(all).toMatch(/25–30%/);
    expect(all).toMatch(/5 Mbps/);
  });

  test("worked examples vary their people: no one called Sam", () => {
    const all = JSON.stringify([courseModules, seedPosts]);
    expect(all.match(/\bSam\b/g) ?? []).toEqual([]);
  });

  test("lessons stay non-explicit and name no real platforms", () => {
    const all = JSON.stringify(courseModules).toLowerCase();
    for (const word of ["nude", "naked", "porn", "onlyfans", "chaturbate", "stripchat", "obs studio", "youtube"])
      expect(all).not.toContain(word);
  });
});

describe("content/offers.json and content/blog", () => {
  test("offers match the seed schema; every module has an active one; image, video and embed all appear", () => {
    expect(problems(Type.Array(offersContract.SeedOffer), offers)).toEqual([]);
    for (let m = 1; m <= courseContract.MODULE_COUNT; m++)
      expect(offers.some((o) => o.moduleId === m && o.isActive)).toBe(true);
    expect(offers.some((o) => o.imageUrl && !o.useEmbed)).toBe(true);
    expect(offers.some((o) => o.videoUrl && !o.useEmbed)).toBe(true);
    expect(offers.some((o) => o.useEmbed && o.embedCode)).toBe(true);
  });

  test("seeded media files exist in public/", () => {
    for (const o of offers) {
      for (const url of [o.imageUrl, o.videoUrl]) {
        if (url?.startsWith("/")) expect(existsSync(join(import.meta.dir, "..", "public", url))).toBe(true);
      }
    }
  });

  test("the four blog categories", () => {
    expect(blogCategories.map((c) => c.slug)).toEqual([
      "getting-started",
      "tips-and-tricks",
      "platform-reviews",
      "income-strategies",
    ]);
  });
});

describe("content/blog/posts", () => {
  const { SeedPost } = blogContract;
  const ALLOWED = ["h2", "h3", "p", "ul", "ol", "li", "strong", "em", "blockquote"];

  test("at least eight published articles across the four categories, one draft, platform-reviews among them", () => {
    const published = seedPosts.filter((p) => p.published);
    expect(published.length).toBeGreaterThanOrEqual(8);
    expect(new Set(published.map((p) => p.category)).size).toBe(4);
    expect(seedPosts.filter((p) => !p.published)).toHaveLength(1);
    expect(published.map((p) => p.slug)).toContain("platform-reviews");
    expect(new Set(seedPosts.map((p) => p.slug)).size).toBe(seedPosts.length);
  });

  test.each(seedPosts.map((p) => [p.slug, p] as const))(
    "%s: schema, 600+ words, safe markup, its cover exists",
    (_, post) => {
      expect(problems(SeedPost, post)).toEqual([]);
      expect(wordCount(post.content)).toBeGreaterThanOrEqual(600);
      for (const tag of tagsOf(post.content)) expect(ALLOWED).toContain(tag);
      expect(post.content).not.toMatch(/<[a-z0-9]+\s[^>]*>/);
      if (post.coverImage) expect(existsSync(join(import.meta.dir, "..", "public", post.coverImage))).toBe(true);
    },
  );

  test("every Markdown file in content/blog/posts is a seed post, named after its slug", () => {
    const files = readdirSync(join(contentDir, "blog", "posts")).sort();
    expect(files).toEqual(seedPosts.map((p) => `${p.slug}.md`).sort());
  });

  test("a cover is the post's own picture: named after its slug, never another post's (covers show their post's title)", () => {
    for (const post of seedPosts)
      if (post.coverImage) expect([post.slug, post.coverImage]).toEqual([post.slug, `/seed/blog/${post.slug}.jpg`]);
  });

  test("most posts have a cover image", () => {
    expect(seedPosts.filter((p) => p.coverImage).length).toBeGreaterThan(seedPosts.length / 2);
  });

  test("no real platform names or invented percentages", () => {
    const all = JSON.stringify(seedPosts).toLowerCase();
    for (const word of [
      "onlyfans",
      "chaturbate",
      "stripchat",
      "myfreecams",
      "camsoda",
      "bongacams",
      "livejasmin",
      "nude",
      "porn",
    ])
      expect(all).not.toContain(word);
    for (const m of all.matchAll(/(\d+)\s?%/g)) expect(["25", "30"]).toContain(m[1]!);
  });
});
