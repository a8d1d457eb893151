import { describe, expect, test } from "bun:test";
import { computeTier } from "./tiers.ts";

const fifteen = (value: number) => Array.from({ length: 15 }, () => value);

describe("earnings tiers", () => {
  test("all-lowest answers: Casual Starter", () => {
    expect(computeTier(fifteen(1))).toEqual({
      tier: "Casual Starter",
      estimatedEarnings: "$500 - $1,500 / month",
      score: 15,
      percentage: (15 / 45) * 100,
    });
  });

  test("all-highest answers: Power Earner", () => {
    expect(computeTier(fifteen(3))).toMatchObject({
      tier: "Power Earner",
      estimatedEarnings: "$5,000 - $15,000+ / month",
      score: 45,
      percentage: 100,
    });
  });

  test("all-middle answers (66.7%): Hustler Mode", () => {
    expect(computeTier(fifteen(2))).toMatchObject({
      tier: "Hustler Mode",
      estimatedEarnings: "$2,000 - $5,000 / month",
      score: 30,
    });
  });

  test("exactly 40% is Hustler Mode; just below is Casual Starter", () => {
    // 15 answers: 40% of 45 is a sum of 18.
    const at40 = [...fifteen(1).slice(0, 12), 2, 2, 2];
    expect(computeTier(at40)).toMatchObject({ score: 18, percentage: 40, tier: "Hustler Mode" });
    const below = [...fifteen(1).slice(0, 13), 2, 2];
    expect(computeTier(below)).toMatchObject({ score: 17, tier: "Casual Starter" });
  });

  test("exactly 70% is Power Earner; just below is Hustler Mode", () => {
    // 70% of 45 is 31.5, not a whole sum: ten answers (max 30) reach exactly 70% with 21.
    const at70 = [3, 3, 3, 2, 2, 2, 2, 2, 1, 1];
    expect(computeTier(at70)).toMatchObject({ score: 21, percentage: 70, tier: "Power Earner" });
    expect(computeTier([3, 3, 2, 2, 2, 2, 2, 2, 1, 1])).toMatchObject({ score: 20, tier: "Hustler Mode" });
    // With fifteen answers: 31 (68.9%) is Hustler Mode, 32 (71.1%) Power Earner.
    expect(computeTier([...fifteen(2).slice(0, 14), 3])).toMatchObject({ score: 31, tier: "Hustler Mode" });
    expect(computeTier([...fifteen(2).slice(0, 13), 3, 3])).toMatchObject({ score: 32, tier: "Power Earner" });
  });
});
