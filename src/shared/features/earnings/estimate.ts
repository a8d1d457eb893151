import { CAPPING_QUESTIONS, type TierName } from "./constants.ts";

/**
 * A small, visible model of a month's earnings. Every value is an assumption the visitor
 * can read (and the first three change): illustrative figures, not measured statistics.
 */
export interface EstimateInputs {
  /** Hours live on camera per week. */
  hoursPerWeek: number;
  /** Days live per week (the hours are spread over them). */
  daysPerWeek: number;
  /** Percentage of live time spent in paid shows (private, ticketed or tipped), 0 to 100. */
  paidSharePercent: number;
  /** What viewers spend per paid minute, in dollars, before the platform's share. */
  perPaidMinute: { low: number; typical: number; high: number };
  /** Percentage of what viewers spend that reaches the performer, 0 to 100. */
  payoutPercent: number;
  /** Weeks in an average month. */
  weeksPerMonth: number;
}

export interface EstimateBand {
  low: number;
  typical: number;
  high: number;
  /** Paid minutes in a month: hours × 60 × paid share × weeks per month. */
  paidMinutesPerMonth: number;
  /** Hours per show: the hours counted ÷ days per week. */
  hoursPerShow: number;
  /** The hours a week the band counts: at most MAX_HOURS_A_DAY on each day live. */
  countedHours: number;
}

/** No schedule counts more than this many hours live on one day. */
export const MAX_HOURS_A_DAY = 12;

const WEEKS_PER_MONTH = 4.33;
export const LIMITS = {
  hoursPerWeek: { min: 1, max: 60 },
  daysPerWeek: { min: 1, max: 7 },
  paidSharePercent: { min: 0, max: 100 },
} as const;
export type WhatIf = keyof typeof LIMITS;

/** The address parameter that holds each what-if value (routes.ts declares them, the page reads them). */
export const WHAT_IF_PARAMS: Record<WhatIf, string> = {
  hoursPerWeek: "hours",
  daysPerWeek: "days",
  paidSharePercent: "share",
};

/** A what-if value from an address or a form: a whole number, clamped to its limits; null when not a number. */
export function readWhatIf(name: WhatIf, value: string | null | undefined): number | null {
  if (value == null || !/^\s*\d{1,4}\s*$/.test(value)) return null;
  const { min, max } = LIMITS[name];
  return Math.min(max, Math.max(min, Number(value)));
}

/** Dollars per paid minute by tier: the habits of a tier (tip menus, regulars, private shows) earn more a minute. */
const PER_PAID_MINUTE: Record<TierName, EstimateInputs["perPaidMinute"]> = {
  "Casual Starter": { low: 0.5, typical: 1, high: 2 },
  "Hustler Mode": { low: 1, typical: 2, high: 4 },
  "Power Earner": { low: 2, typical: 3, high: 6 },
};
const DAYS: Record<TierName, number> = { "Casual Starter": 3, "Hustler Mode": 4, "Power Earner": 5 };
/** Hours a week by the answer to the hours question (under 10, 10–25, over 25). */
const HOURS_BY_ANSWER = [8, 18, 30];
/** Paid share by the answer to the private-shows question (public only, occasionally, yes). */
const PAID_SHARE_BY_ANSWER = [10, 20, 30];
/** "How open are you to offering private, paid one-on-one shows?" (content/earnings/questions.json). */
const PRIVATE_SHOWS_QUESTION = 8;
const DEFAULT_PAYOUT_PERCENT = 50;

/** The defaults for a saved result: from its tier and its answers to the hours and private-shows questions. */
export function defaultInputs(tier: TierName, answers: readonly number[]): EstimateInputs {
  const pick = (table: number[], answer: number | undefined) => table[(answer ?? 2) - 1] ?? table[1] ?? 0;
  return {
    hoursPerWeek: pick(HOURS_BY_ANSWER, answers[CAPPING_QUESTIONS.hours - 1]),
    daysPerWeek: DAYS[tier],
    paidSharePercent: pick(PAID_SHARE_BY_ANSWER, answers[PRIVATE_SHOWS_QUESTION - 1]),
    perPaidMinute: PER_PAID_MINUTE[tier],
    payoutPercent: DEFAULT_PAYOUT_PERCENT,
    weeksPerMonth: WEEKS_PER_MONTH,
  };
}

/** The model's inputs for a saved result: its defaults, with the what-if values an address holds. */
export function inputsFor(tier: TierName, answers: readonly number[], search: URLSearchParams): EstimateInputs {
  const inputs = defaultInputs(tier, answers);
  for (const [name, param] of Object.entries(WHAT_IF_PARAMS) as [WhatIf, string][])
    inputs[name] = readWhatIf(name, search.get(param)) ?? inputs[name];
  return inputs;
}

/**
 * What each tier spans once it runs, read from its suggested schedule (content/earnings/tiers.json):
 * Casual Starter 2–3 short shows a week of 2–3 hours, Hustler Mode 3–5 days at 2–4 hours,
 * Power Earner 4–6 days at 3–6 hours; the paid share rises with the tier.
 */
const TIER_SPAN: Record<TierName, { hours: [number, number]; paidSharePercent: [number, number] }> = {
  "Casual Starter": { hours: [4, 9], paidSharePercent: [10, 20] },
  "Hustler Mode": { hours: [6, 20], paidSharePercent: [20, 30] },
  "Power Earner": { hours: [12, 36], paidSharePercent: [30, 40] },
};

/**
 * A tier in general, by the same model as a visitor's own band: its fewest hours and lowest
 * paid share at the low rate, up to its most hours and highest paid share at the high rate.
 */
export function tierBand(tier: TierName): { low: number; high: number } {
  const { hours, paidSharePercent } = TIER_SPAN[tier];
  const at = (i: 0 | 1) =>
    estimateBand({
      hoursPerWeek: hours[i],
      daysPerWeek: DAYS[tier],
      paidSharePercent: paidSharePercent[i],
      perPaidMinute: PER_PAID_MINUTE[tier],
      payoutPercent: DEFAULT_PAYOUT_PERCENT,
      weeksPerMonth: WEEKS_PER_MONTH,
    });
  return { low: at(0).low, high: at(1).high };
}

/** "$40 – $170 a month". */
export const monthRange = (low: number, high: number) => `${dollars(low)} – ${dollars(high)} a month`;

/** A tier's general band as text: what a saved result records as the tier's earnings. */
export function tierRangeText(tier: TierName): string {
  const { low, high } = tierBand(tier);
  return monthRange(low, high);
}

/** Rounds to the nearest ten dollars: the model is not precise to the dollar. */
const roundTen = (value: number) => Math.round(value / 10) * 10;

/**
 * The monthly band: hours per week × 60 × paid share × dollars per paid minute × payout
 * share × weeks per month, for the low, typical and high dollars per minute. Hours beyond
 * MAX_HOURS_A_DAY on each day live are not counted: no one keeps up longer shows.
 */
export function estimateBand(inputs: EstimateInputs): EstimateBand {
  const hours = Math.min(Math.max(0, inputs.hoursPerWeek), Math.max(0, inputs.daysPerWeek) * MAX_HOURS_A_DAY);
  const paidMinutesPerMonth = hours * 60 * (inputs.paidSharePercent / 100) * inputs.weeksPerMonth;
  const payout = inputs.payoutPercent / 100;
  const month = (perMinute: number) => roundTen(paidMinutesPerMonth * perMinute * payout);
  return {
    low: month(inputs.perPaidMinute.low),
    typical: month(inputs.perPaidMinute.typical),
    high: month(inputs.perPaidMinute.high),
    paidMinutesPerMonth: Math.round(paidMinutesPerMonth),
    hoursPerShow: inputs.daysPerWeek > 0 ? Math.round((hours / inputs.daysPerWeek) * 10) / 10 : 0,
    countedHours: hours,
  };
}

/** "$1,230", or "$0.50" for a fraction of a dollar. */
export function dollars(value: number): string {
  const cents = Number.isInteger(value) ? 0 : 2;
  return `$${value.toLocaleString("en-US", { minimumFractionDigits: cents, maximumFractionDigits: cents })}`;
}
