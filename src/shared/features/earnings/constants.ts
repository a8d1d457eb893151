import { parseAnswers } from "#shared/answers.ts";

export const EARNINGS_QUESTION_COUNT = 15;

/**
 * The three tiers, lowest first; the rule that picks one is in tiers.ts, and what each earns
 * in general comes from the same model as a visitor's own estimate (estimate.ts).
 */
export const TIERS = [{ name: "Casual Starter" }, { name: "Hustler Mode" }, { name: "Power Earner" }] as const;
export type TierName = (typeof TIERS)[number]["name"];

/** The questions whose lowest answer bounds earnings most, by id (content/earnings/questions.json). */
export const CAPPING_QUESTIONS = {
  /** "How many hours a week can you realistically spend live on camera?" */
  hours: 1,
  /** "What does your camera, lighting and audio setup look like?" */
  equipment: 5,
  /** "What internet upload speed do you have?" */
  upload: 6,
} as const;

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
