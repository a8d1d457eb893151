import { describe, expect, test } from "bun:test";
import { scoringTable } from "./content.ts";
import type { ARCHETYPES, Letter, ScoringTable } from "./contract.ts";
import { scoreArchetype } from "./scoring.ts";

const letters = (s: string) => s.split("") as Letter[];
const totalsFor = (answers: string) => scoreArchetype(letters(answers), scoringTable).totals;
/** Fifteen answers that are all `fill` except the given question numbers (1-based). */
function answersWith(fill: Letter, set: Record<number, Letter>): string {
  return Array.from({ length: 15 }, (_, i) => set[i + 1] ?? fill).join("");
}
/** The extra points question n answered with `letter` gives `archetype` (base point excluded). */
function extraPoints(n: number, letter: Letter, archetype: (typeof ARCHETYPES)[number]): number {
  const onlyQuestionN: ScoringTable = {
    base: scoringTable.base,
    extras: scoringTable.extras.filter((e) => e.question === n),
  };
  const totals = scoreArchetype(
    Array.from({ length: n }, () => letter),
    onlyQuestionN,
  ).totals;
  return totals[archetype] - (scoringTable.base[letter] === archetype ? n : 0);
}

describe("base points", () => {
  test.each([
    ["A", "Girl Next Door"],
    ["B", "Dominatrix"],
    ["C", "Cosplay Babe"],
    ["D", "Seductress"],
  ] as const)("each %s gives 1 point to %s", (letter, archetype) => {
    expect(scoringTable.base[letter]).toBe(archetype);
    // Question 1 has no extras, so its answer gives exactly the base point.
    const totals = scoreArchetype([letter], scoringTable).totals;
    expect(totals[archetype]).toBe(1);
    expect(Object.values(totals).reduce((a, b) => a + b, 0)).toBe(1);
  });
});

describe("the extra-point examples", () => {
  const extra = (question: number, answer: Letter, archetype: string) =>
    scoringTable.extras.filter((e) => e.question === question && e.answer === answer && e.archetype === archetype);

  test.each([
    [7, "D", "MILF / Cougar"],
    [14, "B", "MILF / Cougar"],
    [7, "C", "Submissive / Brat"],
    [7, "A", "Fitness Queen"],
    [11, "A", "Fitness Queen"],
    [15, "A", "Fitness Queen"],
  ] as const)("question %i %s gives %s points", (question, answer, archetype) => {
    expect(extra(question, answer, archetype).length).toBe(1);
    expect(extraPoints(question, answer, archetype)).toBeGreaterThan(0);
  });

  test.each([
    [7, "D"],
    [14, "D"],
  ] as const)("question %i %s gives Couple 5 points", (question, answer) => {
    expect(extra(question, answer, "Couple")[0]?.points).toBe(5);
    expect(extraPoints(question, answer, "Couple")).toBe(5);
  });

  test("answers count by position: the same letter elsewhere gives no extra", () => {
    // D on question 6 instead of 7 gives Couple nothing.
    expect(totalsFor(answersWith("A", { 6: "D" })).Couple).toBe(0);
    expect(totalsFor(answersWith("A", { 7: "D" })).Couple).toBe(5);
  });
});

describe("winner", () => {
  test("one answer set per archetype reaches each of the ten", () => {
    const sets: Record<(typeof ARCHETYPES)[number], string> = {
      "Girl Next Door": "AAAAAAAAAAAAAAA",
      Dominatrix: "BBBBBBBBBBBBBBB",
      "Submissive / Brat": answersWith("A", {
        2: "B",
        3: "C",
        4: "D",
        5: "C",
        6: "B",
        7: "C",
        8: "D",
        10: "B",
        12: "C",
        13: "D",
        15: "B",
      }),
      "Goth / Alt Girl": answersWith("A", {
        2: "B",
        3: "D",
        4: "B",
        6: "C",
        7: "B",
        8: "B",
        10: "D",
        11: "B",
        13: "C",
        15: "D",
      }),
      "Bimbo / Bombshell": answersWith("A", {
        2: "D",
        5: "B",
        6: "D",
        7: "B",
        8: "D",
        10: "C",
        11: "D",
        13: "B",
        15: "D",
      }),
      "MILF / Cougar": answersWith("A", {
        3: "B",
        4: "C",
        6: "C",
        7: "D",
        9: "D",
        10: "B",
        11: "C",
        12: "D",
        14: "B",
        15: "B",
      }),
      "Cosplay Babe": "CCCCCCCCCCCCCCC",
      "Fitness Queen": "BCDBDBACCAACDCA",
      Seductress: "DDDDDDDDDDDDDDD",
      Couple: answersWith("A", { 3: "B", 4: "C", 6: "B", 7: "D", 8: "C", 10: "B", 11: "C", 13: "B", 14: "D", 15: "C" }),
    };
    for (const [archetype, answers] of Object.entries(sets)) {
      expect(answers).toHaveLength(15);
      expect([archetype, scoreArchetype(letters(answers), scoringTable).archetype]).toEqual([archetype, archetype]);
    }
  });

  test("a tie goes to the archetype listed first", () => {
    const tied: ScoringTable = {
      base: { A: "Seductress", B: "Girl Next Door", C: "Couple", D: "Dominatrix" },
      extras: [],
    };
    // One point each for Seductress and Girl Next Door: Girl Next Door is listed first.
    expect(scoreArchetype(letters("AB"), tied).archetype).toBe("Girl Next Door");
    // Couple and Dominatrix tie: Dominatrix is listed first.
    expect(scoreArchetype(letters("CD"), tied).archetype).toBe("Dominatrix");
    expect(scoreArchetype(letters("DC"), tied).archetype).toBe("Dominatrix");
  });

  test("with no points at all the default is Girl Next Door", () => {
    expect(scoreArchetype([], scoringTable).archetype).toBe("Girl Next Door");
    const nothing: ScoringTable = { base: { A: "Couple", B: "Couple", C: "Couple", D: "Couple" }, extras: [] };
    expect(scoreArchetype([], nothing).archetype).toBe("Girl Next Door");
  });

  test("the highest total wins", () => {
    const { archetype, totals } = scoreArchetype(letters("BBBBBBBBBBBBBBB"), scoringTable);
    const max = Math.max(...Object.values(totals));
    expect(totals[archetype]).toBe(max);
  });
});
