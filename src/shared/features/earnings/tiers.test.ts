import { describe, expect, test } from "bun:test";
import { CAPPING_QUESTIONS } from "./constants.ts";
import { earningsQuestions } from "./content.ts";
import { computeTier } from "./tiers.ts";

const fifteen = (value: number) => Array.from({ length: 15 }, () => value);
/** Fifteen answers with the given ones replaced (question id → value). */
const withAnswers = (base: number[], changes: Record<number, number>) =>
  base.map((value, i) => changes[i + 1] ?? value);
/** Middle answers everywhere, then `up` of the free questions (not hours, equipment, upload) raised to 3. */
function sumOf(target: number): number[] {
  const answers = fifteen(2);
  const free = [2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15];
  let diff = target - 30;
  for (const id of free) {
    if (diff === 0) break;
    const step = diff > 0 ? 1 : -1;
    answers[id - 1] = 2 + step;
    diff -= step;
  }
  return answers;
}

describe("earnings tiers", () => {
  test("the capping questions are the hours, equipment and upload questions", () => {
    const text = (id: number) => earningsQuestions.find((q) => q.id === id)?.question ?? "";
    expect(text(CAPPING_QUESTIONS.hours)).toMatch(/hours a week/);
    expect(text(CAPPING_QUESTIONS.equipment)).toMatch(/camera, lighting and audio/);
    expect(text(CAPPING_QUESTIONS.upload)).toMatch(/upload speed/);
  });

  test("all-lowest answers: Casual Starter, position 0", () => {
    expect(computeTier(fifteen(1))).toEqual({
      tier: "Casual Starter",
      estimatedEarnings: "$30 – $470 a month",
      score: 15,
      position: 0,
      cappedBy: [],
    });
  });

  test("all-highest answers: Power Earner, position 1", () => {
    expect(computeTier(fifteen(3))).toMatchObject({
      tier: "Power Earner",
      estimatedEarnings: "$940 – $11,220 a month",
      score: 45,
      position: 1,
    });
  });

  test("all-middle answers sit at position 1/2: the lowest Hustler Mode score", () => {
    expect(computeTier(fifteen(2))).toMatchObject({ tier: "Hustler Mode", score: 30, position: 0.5 });
    expect(computeTier(sumOf(29))).toMatchObject({ tier: "Casual Starter", score: 29 });
  });

  test("Power Earner from position 3/4 (a sum of 38); 37 is Hustler Mode", () => {
    expect(computeTier(sumOf(38))).toMatchObject({ tier: "Power Earner", score: 38 });
    expect(computeTier(sumOf(37))).toMatchObject({ tier: "Hustler Mode", score: 37 });
  });

  test("under 10 hours a week caps at Casual Starter", () => {
    expect(computeTier(withAnswers(fifteen(3), { 1: 1 }))).toMatchObject({
      tier: "Casual Starter",
      score: 43,
      cappedBy: ["hours"],
    });
    expect(computeTier(withAnswers(fifteen(2), { 1: 1 }))).toMatchObject({ tier: "Casual Starter" });
  });

  test("a laptop camera or a slow upload caps at Hustler Mode", () => {
    expect(computeTier(withAnswers(fifteen(3), { 5: 1 }))).toMatchObject({
      tier: "Hustler Mode",
      cappedBy: ["equipment"],
    });
    expect(computeTier(withAnswers(fifteen(3), { 6: 1 }))).toMatchObject({
      tier: "Hustler Mode",
      cappedBy: ["upload"],
    });
    // A cap never raises: a low sum with a lowest equipment answer stays Casual Starter, not capped.
    expect(computeTier(withAnswers(fifteen(1), { 5: 1 }))).toMatchObject({ tier: "Casual Starter", cappedBy: [] });
  });

  test("under 10 hours, a laptop camera and nerves, with every other answer at the top: Casual Starter", () => {
    expect(computeTier(withAnswers(fifteen(3), { 1: 1, 5: 1, 11: 1 }))).toMatchObject({
      tier: "Casual Starter",
      score: 39,
      cappedBy: ["hours", "equipment"],
    });
  });

  test("the middle options on the capping questions do not cap", () => {
    expect(computeTier(withAnswers(fifteen(3), { 1: 2, 5: 2, 6: 2 }))).toMatchObject({
      tier: "Power Earner",
      cappedBy: [],
    });
  });
});
