import { describe, expect, test } from "bun:test";
import { TIERS } from "./constants.ts";
import {
  defaultInputs,
  dollars,
  estimateBand,
  inputsFor,
  monthRange,
  readWhatIf,
  tierBand,
  tierRangeText,
} from "./estimate.ts";
import { computeTier } from "./tiers.ts";

describe("earnings estimate", () => {
  test("the arithmetic: hours × 60 × paid share × per minute × payout × weeks, to the nearest $10", () => {
    const band = estimateBand({
      hoursPerWeek: 10,
      daysPerWeek: 4,
      paidSharePercent: 20,
      perPaidMinute: { low: 1, typical: 2, high: 4 },
      payoutPercent: 50,
      weeksPerMonth: 4.33,
    });
    // 10 × 60 × 0.2 × 4.33 = 519.6 paid minutes; × 0.5 = 259.8 per dollar a minute.
    expect(band).toEqual({
      low: 260,
      typical: 520,
      high: 1040,
      paidMinutesPerMonth: 520,
      hoursPerShow: 2.5,
      countedHours: 10,
    });
  });

  test("no more than 12 hours a day live are counted", () => {
    const inputs = { ...defaultInputs("Hustler Mode", Array(15).fill(2)), hoursPerWeek: 60, daysPerWeek: 2 };
    const band = estimateBand(inputs);
    expect([band.countedHours, band.hoursPerShow]).toEqual([24, 12]);
    expect(band.typical).toBe(estimateBand({ ...inputs, hoursPerWeek: 24 }).typical);
    expect(estimateBand({ ...inputs, daysPerWeek: 5 }).countedHours).toBe(60);
  });

  test("no paid time, no money", () => {
    const inputs = { ...defaultInputs("Hustler Mode", Array(15).fill(2)), paidSharePercent: 0 };
    expect(estimateBand(inputs)).toMatchObject({ low: 0, typical: 0, high: 0 });
  });

  test("defaults follow the answers and the tier", () => {
    const middle = defaultInputs("Hustler Mode", Array(15).fill(2));
    expect(middle).toMatchObject({ hoursPerWeek: 18, daysPerWeek: 4, paidSharePercent: 20, payoutPercent: 50 });
    expect(estimateBand(middle)).toMatchObject({ low: 470, typical: 940, high: 1870 });
    const top = defaultInputs("Power Earner", Array(15).fill(3));
    expect(top).toMatchObject({ hoursPerWeek: 30, daysPerWeek: 5, paidSharePercent: 30 });
    const low = defaultInputs("Casual Starter", Array(15).fill(1));
    expect(low).toMatchObject({ hoursPerWeek: 8, daysPerWeek: 3, paidSharePercent: 10 });
  });

  test("low ≤ typical ≤ high, and more hours never earn less", () => {
    for (const tier of ["Casual Starter", "Hustler Mode", "Power Earner"] as const) {
      const base = defaultInputs(tier, Array(15).fill(2));
      const band = estimateBand(base);
      expect(band.low).toBeLessThanOrEqual(band.typical);
      expect(band.typical).toBeLessThanOrEqual(band.high);
      expect(estimateBand({ ...base, hoursPerWeek: base.hoursPerWeek + 5 }).typical).toBeGreaterThan(band.typical);
    }
  });

  test("what-if values from the address are whole numbers clamped to their limits", () => {
    expect(readWhatIf("hoursPerWeek", "12")).toBe(12);
    expect(readWhatIf("hoursPerWeek", "500")).toBe(60);
    expect(readWhatIf("hoursPerWeek", "0")).toBe(1);
    expect(readWhatIf("daysPerWeek", "9")).toBe(7);
    expect(readWhatIf("paidSharePercent", "0")).toBe(0);
    expect(readWhatIf("paidSharePercent", "-3")).toBeNull();
    expect(readWhatIf("hoursPerWeek", "1.5")).toBeNull();
    expect(readWhatIf("hoursPerWeek", "abc")).toBeNull();
    expect(readWhatIf("hoursPerWeek", null)).toBeNull();
  });

  test("dollars", () => {
    expect(dollars(1870)).toBe("$1,870");
    expect(dollars(0.5)).toBe("$0.50");
  });

  test("a tier's general range is the same model over its usual schedule, and what a result records", () => {
    // Casual Starter: 4 h × 60 × 10 % × 4.33 × 50 % × $0.50 = $26, up to 9 h × 20 % × $2 = $468.
    expect(tierBand("Casual Starter")).toEqual({ low: 30, high: 470 });
    expect(TIERS.map((t) => tierRangeText(t.name))).toEqual([
      "$30 – $470 a month",
      "$160 – $3,120 a month",
      "$940 – $11,220 a month",
    ]);
    for (const answer of [1, 2, 3]) {
      const result = computeTier(Array(15).fill(answer));
      expect(result.estimatedEarnings).toBe(tierRangeText(result.tier));
    }
  });

  test("a visitor's own band, as the answers give it, lies within the tier's general range", () => {
    for (const answer of [1, 2, 3]) {
      const answers = Array(15).fill(answer);
      const { tier } = computeTier(answers);
      const own = estimateBand(defaultInputs(tier, answers));
      const general = tierBand(tier);
      expect([tier, own.low >= general.low, own.high <= general.high]).toEqual([tier, true, true]);
    }
  });

  test("the what-if values of an address change the inputs; others keep the defaults", () => {
    const answers = Array(15).fill(3);
    const search = new URLSearchParams("hours=31&days=x&share=500");
    expect(inputsFor("Power Earner", answers, search)).toMatchObject({
      hoursPerWeek: 31,
      daysPerWeek: defaultInputs("Power Earner", answers).daysPerWeek,
      paidSharePercent: 100,
    });
    expect(monthRange(2340, 7010)).toBe("$2,340 – $7,010 a month");
  });
});
