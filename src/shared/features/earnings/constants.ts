import { parseAnswers } from "#shared/answers.ts";

export const EARNINGS_QUESTION_COUNT = 15;

/** The three tiers, lowest first; the rule that picks one is in tiers.ts. */
export const TIERS = [
  { name: "Casual Starter", range: "$500 - $1,500 / month" },
  { name: "Hustler Mode", range: "$2,000 - $5,000 / month" },
  { name: "Power Earner", range: "$5,000 - $15,000+ / month" },
] as const;
export type TierName = (typeof TIERS)[number]["name"];

/** Each calculator answer is 1, 2 or 3 (the higher, the more earning habits). */
const EARNINGS_ANSWERS = [1, 2, 3] as const;
export type EarningsAnswer = (typeof EARNINGS_ANSWERS)[number];

/** The answers before the last question, as a step's address spells them (`231`); null when not that. */
export function earningsAnswersSoFar(value: string): EarningsAnswer[] | null {
  return parseAnswers(value, EARNINGS_ANSWERS, { min: 1, max: EARNINGS_QUESTION_COUNT - 1 });
}

/** All the answers, as the last step's form posts them; null when not exactly that. */
export function earningsAnswersDone(value: string): EarningsAnswer[] | null {
  return parseAnswers(value, EARNINGS_ANSWERS, { min: EARNINGS_QUESTION_COUNT, max: EARNINGS_QUESTION_COUNT });
}
