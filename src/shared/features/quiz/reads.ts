import { defineRead } from "#shared/read.ts";
import type { ArchetypeProfile, QuizResult } from "./contract.ts";

export const quizResultRead = defineRead<QuizResult | null>()("/api/quiz/result/:id", {
  id: { minLength: 1, maxLength: 64 },
});

/** One archetype's profile: a result page shows one, so the browser never loads all ten. */
export const archetypeProfileRead = defineRead<ArchetypeProfile | null>()("/api/quiz/archetypes/:name", {
  name: { minLength: 1, maxLength: 64 },
});
