import { ARCHETYPES, type Archetype, DEFAULT_ARCHETYPE, type Letter } from "./constants.ts";
import type { ScoringTable } from "./contract.ts";

export interface ArchetypeScore {
  archetype: Archetype;
  totals: Record<Archetype, number>;
}

/**
 * Quiz scoring (docs/product.md#quiz-scoring): each answer gives 1 point to its letter's base archetype, and the scoring
 * table's extras add points for specific question-and-letter pairs. Answers are by
 * position (index 0 is question 1). The highest total wins; a tie goes to the archetype
 * listed first; with no points at all it is Girl Next Door.
 */
export function scoreArchetype(answers: readonly Letter[], table: ScoringTable): ArchetypeScore {
  const totals = Object.fromEntries(ARCHETYPES.map((a) => [a, 0])) as Record<Archetype, number>;
  answers.forEach((letter, index) => {
    totals[table.base[letter]] += 1;
    for (const extra of table.extras) {
      if (extra.question === index + 1 && extra.answer === letter) totals[extra.archetype] += extra.points;
    }
  });
  let archetype: Archetype = DEFAULT_ARCHETYPE;
  let best = 0;
  for (const candidate of ARCHETYPES) {
    if (totals[candidate] > best) {
      best = totals[candidate];
      archetype = candidate;
    }
  }
  return { archetype, totals };
}
