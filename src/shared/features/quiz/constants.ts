// Plain values of the archetype quiz. No schema library here: this file ships to every
// funnel page, and TypeBox stays out of the browser bundle unless a form needs it.

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
