// Rules of honesty and safety that the seeded products, offers and archetype profiles keep
// (the schemas themselves are checked in tests/content.test.ts).
import { describe, expect, test } from "bun:test";
import offers from "#content/offers.json" with { type: "json" };
import products from "#content/products.json" with { type: "json" };
import archetypes from "#content/quiz/archetypes.json" with { type: "json" };
import questions from "#content/quiz/questions.json" with { type: "json" };
import { seedPosts } from "#server/features/blog/seed-posts.ts";
import { courseModules } from "#server/features/course/content.ts";

/** The badges the seed uses, each with a meaning a buyer can check: none claims to raise earnings. */
const HONEST_BADGES = ["ESSENTIAL", "RECOMMENDED", "PREMIUM"];
const GEO_BLOCKING = /region block|block(ing)? (your own )?regions?|geo.?block/i;
const ALCOHOL =
  /\b(wine|wines|cocktails?|champagne|prosecco|beer|booze|bar shelves|drinks?)\b|🍷|🥂|🍸|🍹|🍺|🍻|🍾|🥃/i;

describe("content/products.json", () => {
  test("every badge is one of the honest ones: no product is sold as raising earnings", () => {
    for (const p of products) expect([p.id, HONEST_BADGES.includes(p.badge)]).toEqual([p.id, true]);
    expect(products.filter((p) => /earn/i.test(p.badge))).toEqual([]);
  });

  test("PREMIUM marks the pricier optional pieces, not cheap ones", () => {
    for (const p of products.filter((p) => p.badge === "PREMIUM")) {
      const top = Number(p.price.match(/\$(\d+)(?!.*\$)/)?.[1] ?? 0);
      expect([p.id, top >= 100]).toEqual([p.id, true]);
    }
  });

  test("each link searches for what the card describes", () => {
    for (const p of products) {
      const url = new URL(p.link);
      expect(url.protocol).toBe("https:");
      const query = url.searchParams.get("k") ?? url.searchParams.get("st") ?? url.searchParams.get("search") ?? "";
      const text = `${p.name} ${p.description} ${p.archetype}`
        .toLowerCase()
        .replace(/-/g, " ")
        .replace(/colour/g, "color");
      // Shopping words a retailer's search needs that a card has no reason to repeat.
      const filler = ["with", "women", "video", "stand", "card"];
      const words = query
        .toLowerCase()
        .split(/[\s+]+/)
        .filter((w) => w.length > 3 && !filler.includes(w));
      expect(words.length).toBeGreaterThan(0);
      // Each search word (or its stem) is in the card's own words.
      for (const w of words) expect([p.id, w, text.includes(w.slice(0, 5))]).toEqual([p.id, w, true]);
    }
  });

  test("no product puts alcohol on the set", () => {
    for (const p of products)
      expect([p.id, ALCOHOL.test(`${p.name} ${p.description} ${p.link}`)]).toEqual([p.id, false]);
  });
});

describe("content/offers.json", () => {
  test("every offer has a button text", () => {
    for (const o of offers) expect([o.title, (o.linkText ?? "").trim().length > 0]).toEqual([o.title, true]);
  });

  test("embed code is plain markup: no script, no figures", () => {
    for (const o of offers.filter((o) => o.embedCode)) {
      expect(o.embedCode).not.toMatch(/<script|\bon[a-z]+=|javascript:/i);
      const text = o.embedCode!.replace(/<[^>]+>/g, " ").replace(/Platform (One|Two)/g, "");
      expect(text).not.toMatch(/\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand)\b/i);
    }
  });

  test("an offer that talks about a platform links to a platform; one about gear links to a retailer", () => {
    for (const o of offers) {
      const platform = /Platform (One|Two)/.exec(o.description)?.[1];
      if (platform)
        expect([o.title, o.linkUrl]).toEqual([o.title, expect.stringContaining(`platform-${platform.toLowerCase()}`)]);
      else expect([o.title, o.linkUrl]).toEqual([o.title, expect.not.stringContaining("platform-")]);
    }
  });
});

test("region blocking is never sold as a guarantee", () => {
  const texts = [
    ...offers.map((o) => o.description),
    ...products.map((p) => p.description),
    ...archetypes.map((a) => a.description),
  ];
  for (const text of texts.filter((t) => GEO_BLOCKING.test(t))) expect(text).toMatch(/one layer[^.]*not a guarantee/);
});

describe("content/quiz", () => {
  const profiles = archetypes.map(
    (a) => [a.name, `${a.description} ${a.superpowers.map((s) => s.text).join(" ")}`] as const,
  );

  test.each(profiles)(
    "%s: a profile that mentions family at home says no one under 18 may be near a live show",
    (_, text) => {
      if (/\b(family|families|children|child|kids)\b/i.test(text)) {
        expect(text).toMatch(/No one under 18 may be in the room, in shot or within earshot/);
        expect(text).toMatch(/never stream when a child could walk in/);
      }
    },
  );

  test.each(profiles)("%s: music ideas come with the licensing rule", (_, text) => {
    if (/\b(music|songs?|playlists?|dance)\b/i.test(text)) expect(text).toMatch(/licensed or royalty-free/);
  });

  test("no alcohol in the profiles or the questions", () => {
    for (const [name, text] of profiles) expect([name, ALCOHOL.test(text)]).toEqual([name, false]);
    expect(ALCOHOL.test(JSON.stringify(archetypes.map((a) => [a.emoji, a.superpowers.map((s) => s.emoji)])))).toBe(
      false,
    );
    expect(ALCOHOL.test(JSON.stringify(questions))).toBe(false);
  });
});

describe("the course and the blog", () => {
  /** Every lesson (with its module's quiz and checklist) and every post, as the words a reader sees. */
  const documents = [
    ...courseModules.flatMap((m) =>
      m.topics.map((t) => [`module ${m.id}, lesson ${t.id}`, `${t.title} ${t.content} ${t.proTip ?? ""}`] as const),
    ),
    ...courseModules.map(
      (m) => [`module ${m.id}'s quiz`, JSON.stringify([m.description, m.checklist, m.quiz])] as const,
    ),
    ...seedPosts.map((p) => [`post ${p.slug}`, `${p.title} ${p.excerpt} ${p.content}`] as const),
  ].map(([name, html]) => [name, html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ")] as const);

  // A topic that was once given wrongly, and what a text that raises it must also say.
  const RULES: [string, RegExp, RegExp][] = [
    ["geo-blocking names what gets round it", GEO_BLOCKING, /VPN/],
    ["geo-blocking is one layer", GEO_BLOCKING, /(not|never|no) a guarantee|one (useful )?layer/i],
    [
      "music in a show comes with the licensing rule",
      /song request|playlist|guess the song|background music/i,
      /licensed or royalty-free/i,
    ],
    ["children near a show: no one under 18", /\b(child|children|kids?)\b/i, /under 18/i],
    ["a takedown notice says who files it", /takedown/i, /own name|content-protection/i],
    ["an upload speed is a minimum, with headroom for 1080p", /\d+ ?Mbps/i, /minimum|1080p/i],
    [
      "alcohol on the set: many platforms ban drinking on camera",
      /\b(wine|cocktails?|alcohol|drinking)\b/i,
      /ban(s)? drinking|no drinking|drinking or appearing intoxicated/i,
    ],
  ];

  test.each(RULES)("%s", (_, raises, mustSay) => {
    const raised = documents.filter(([, text]) => raises.test(text));
    expect(raised.length).toBeGreaterThan(0);
    for (const [name, text] of raised) expect([name, mustSay.test(text)]).toEqual([name, true]);
  });

  test("a tax set-aside is a suggestion to check, never a rule", () => {
    for (const [name, text] of documents)
      for (const [sentence] of text.matchAll(/[^.!?]*25–30%[^.!?]*/g))
        expect([name, sentence, /suggest|check|ask|accountant|rough/i.test(sentence)]).toEqual([name, sentence, true]);
  });
});
