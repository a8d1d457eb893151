// The fairness of the archetype quiz, measured by simulation: each archetype's share of wins
// over answer sets from a seeded generator, so the same seed always gives the same figures.
// Used by scoring-simulation.test.ts (the bands) and bench/quiz-fairness.ts (the table).
import { ARCHETYPES, type Archetype, LETTERS, type Letter, QUIZ_QUESTION_COUNT } from "./constants.ts";
import { scoringTable } from "./content.ts";
import { scoreArchetype } from "./scoring.ts";

export const RUNS = 100_000;

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each archetype's share of wins over RUNS answer sets: `fixed` answers by question number, the rest uniform. */
export function winShares(seed: number, fixed: Record<number, Letter> = {}): Record<Archetype, number> {
  const random = seeded(seed);
  const wins = Object.fromEntries(ARCHETYPES.map((a) => [a, 0])) as Record<Archetype, number>;
  const answers: Letter[] = Array(QUIZ_QUESTION_COUNT).fill("A");
  for (let run = 0; run < RUNS; run++) {
    for (let q = 0; q < QUIZ_QUESTION_COUNT; q++) answers[q] = fixed[q + 1] ?? LETTERS[Math.floor(random() * 4)]!;
    wins[scoreArchetype(answers, scoringTable).archetype] += 1;
  }
  for (const a of ARCHETYPES) wins[a] /= RUNS;
  return wins;
}
