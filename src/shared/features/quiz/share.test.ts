import { describe, expect, test } from "bun:test";
import { ARCHETYPES, LETTERS, type Letter } from "./constants.ts";
import { scoringTable } from "./content.ts";
import type { ScoringTable } from "./contract.ts";
import { scoreArchetype } from "./scoring.ts";
import { archetypeShares, archetypeSlug, shareAddress, shareImagePath, topArchetypes } from "./share.ts";

const letters = (s: string) => s.split("") as Letter[];
/** Base points only: A, B, C and D each give one point to their archetype. */
const baseOnly: ScoringTable = { base: scoringTable.base, extras: [] };

describe("topArchetypes", () => {
  test("three equal totals: ranked as scoring breaks the tie, each shown as 33%", () => {
    const top = topArchetypes(letters("AAAAABBBBBCCCCC"), baseOnly);
    expect(top.map((t) => [t.archetype, t.points, t.percent])).toEqual([
      ["Girl Next Door", 5, 33],
      ["Dominatrix", 5, 33],
      ["Cosplay Babe", 5, 33],
    ]);
    expect(scoreArchetype(letters("AAAAABBBBBCCCCC"), baseOnly).archetype).toBe("Girl Next Door");
  });

  test("a tie for second goes to the archetype listed first", () => {
    // Seductress (D) is listed after Cosplay Babe (C): with the same points it comes third.
    const top = topArchetypes(letters("AAAAAAADDDDCCCC"), baseOnly);
    expect(top.map((t) => t.archetype)).toEqual(["Girl Next Door", "Cosplay Babe", "Seductress"]);
    expect(top.map((t) => t.percent)).toEqual([47, 27, 27]);
  });

  test("one archetype with every point: 100%, and the rows after it at 0%", () => {
    const top = topArchetypes(letters("BBBBBBBBBBBBBBB"), baseOnly);
    expect(top.map((t) => [t.archetype, t.percent])).toEqual([
      ["Dominatrix", 100],
      ["Girl Next Door", 0],
      ["Submissive / Brat", 0],
    ]);
  });

  test("no answers, no points: nothing to chart", () => {
    expect(topArchetypes([], scoringTable)).toEqual([]);
  });

  test("for many answer sets: the first row is the result, shares fall, rounding moves no row by more than half a point", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let run = 0; run < 500; run++) {
      const answers = Array.from({ length: 15 }, () => LETTERS[next() % 4]!);
      const all = archetypeShares(answers, scoringTable);
      const { archetype, totals } = scoreArchetype(answers, scoringTable);
      const sum = Object.values(totals).reduce((a, b) => a + b, 0);
      expect(all).toHaveLength(ARCHETYPES.length);
      expect(all[0]!.archetype).toBe(archetype);
      expect(all.reduce((s, a) => s + a.points, 0)).toBe(sum);
      // The top three's shown shares add up to their real share of the points, give or take rounding.
      const topThree = all.slice(0, 3);
      const exactTop = (topThree.reduce((s, a) => s + a.points, 0) * 100) / sum;
      expect(Math.abs(topThree.reduce((s, a) => s + a.percent, 0) - exactTop)).toBeLessThanOrEqual(1.5);
      all.forEach((row, i) => {
        expect(row.points).toBe(totals[row.archetype]);
        expect(Math.abs(row.percent - (row.points * 100) / sum)).toBeLessThanOrEqual(0.5);
        if (i > 0) {
          expect(row.points).toBeLessThanOrEqual(all[i - 1]!.points);
          expect(row.percent).toBeLessThanOrEqual(all[i - 1]!.percent);
        }
      });
    }
  });
});

describe("share addresses", () => {
  test("the archetype only, no answers and no id", () => {
    expect(shareAddress("Submissive / Brat")).toBe("/quiz/result?archetype=Submissive%20%2F%20Brat");
    for (const a of ARCHETYPES)
      expect([...new URL(shareAddress(a), "http://x").searchParams.keys()]).toEqual(["archetype"]);
  });

  test("one image file per archetype", () => {
    expect(archetypeSlug("MILF / Cougar")).toBe("milf-cougar");
    expect(shareImagePath("Girl Next Door")).toBe("/social/girl-next-door.png");
    expect(new Set(ARCHETYPES.map(shareImagePath)).size).toBe(ARCHETYPES.length);
  });
});
