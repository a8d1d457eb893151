// The fairness of the archetype quiz, measured by simulation (docs/product.md#quiz-scoring):
// 100,000 answer sets from a seeded generator, so every run sees the same answers and a
// failure is a change in the table or the questions, never luck.
import { describe, expect, test } from "bun:test";
import { ARCHETYPES, type Letter } from "./constants.ts";
import { archetypeQuestions } from "./content.ts";
import { winShares } from "./fairness.ts";

const letterOf = (question: number, label: RegExp): Letter => {
  const option = archetypeQuestions.find((q) => q.id === question)?.options.find((o) => label.test(o.label));
  if (!option) throw new Error(`question ${question} has no option matching ${label}`);
  return option.value;
};

describe("uniformly random answers", () => {
  const shares = winShares(13);

  test.each([...ARCHETYPES])("%s wins between 5% and 15% of the time", (archetype) => {
    expect(shares[archetype]).toBeGreaterThanOrEqual(0.05);
    expect(shares[archetype]).toBeLessThanOrEqual(0.15);
  });
});

describe("an answer that states a fact about the person", () => {
  test("a couple (both couple answers) gets Couple at least 90% of the time over random other answers", () => {
    const partner = letterOf(7, /with my partner/);
    const couple = letterOf(14, /couple/);
    expect([partner, couple]).toEqual(["D", "D"]);
    expect(winShares(14, { 7: partner, 14: couple }).Couple).toBeGreaterThanOrEqual(0.9);
  });

  test("the oldest age range gives MILF / Cougar a clear plurality over random other answers", () => {
    const shares = winShares(15, { 13: letterOf(13, /45 or over/) });
    const runnerUp = Math.max(...ARCHETYPES.filter((a) => a !== "MILF / Cougar").map((a) => shares[a]));
    expect(shares["MILF / Cougar"]).toBeGreaterThanOrEqual(0.3);
    expect(shares["MILF / Cougar"]).toBeGreaterThanOrEqual(2 * runnerUp);
  });
});

describe("the questions about the person", () => {
  test("the age ranges start at 18 and leave no adult out", () => {
    const bands = archetypeQuestions
      .find((q) => q.id === 13)!
      .options.map((o) => o.label.match(/(\d+)(?:–(\d+)| or over)/))
      .map((m) => [Number(m?.[1]), m?.[2] === undefined ? Number.POSITIVE_INFINITY : Number(m[2])] as const);
    expect(bands[0]![0]).toBe(18);
    for (let i = 1; i < bands.length; i++) expect(bands[i]![0]).toBe(bands[i - 1]![1] + 1);
    expect(bands.at(-1)![1]).toBe(Number.POSITIVE_INFINITY);
  });

  test("no other option names an age or a decade of life", () => {
    const others = archetypeQuestions.filter((q) => q.id !== 13).flatMap((q) => q.options.map((o) => o.label));
    for (const label of others) expect(label).not.toMatch(/\d|twenties|thirties|forties|fifties|teen/i);
  });
});
