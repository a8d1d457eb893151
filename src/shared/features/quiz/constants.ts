// Plain values of the archetype quiz. No schema library here: this file ships to every
// funnel page, and TypeBox stays out of the browser bundle unless a form needs it.

import { parseAnswers } from "#shared/answers.ts";

/** The one canonical archetype list, in scoring order (the earlier one wins a tie). */
export const ARCHETYPES = [
  "Girl Next Door",
  "Dominatrix",
  "Submissive / Brat",
  "Goth / Alt Girl",
  "Bimbo / Bombshell",
  "MILF / Cougar",
  "Cosplay Babe",
  "Fitness Queen",
  "Seductress",
  "Couple",
] as const;
export type Archetype = (typeof ARCHETYPES)[number];
export const DEFAULT_ARCHETYPE: Archetype = "Girl Next Door";

export function isArchetype(name: string): name is Archetype {
  return (ARCHETYPES as readonly string[]).includes(name);
}

export const LETTERS = ["A", "B", "C", "D"] as const;
export const QUIZ_QUESTION_COUNT = 15;
export type Letter = (typeof LETTERS)[number];

/** The answers before the last question, as a step's address spells them (`ACD`); null when not that. */
export function quizAnswersSoFar(value: string): Letter[] | null {
  return parseAnswers(value, LETTERS, { min: 1, max: QUIZ_QUESTION_COUNT - 1 });
}

/** All the answers, as the last step's form posts them; null when not exactly that. */
export function quizAnswersDone(value: string): Letter[] | null {
  return parseAnswers(value, LETTERS, { min: QUIZ_QUESTION_COUNT, max: QUIZ_QUESTION_COUNT });
}
