import { type Static, Type } from "@sinclair/typebox";
import { literalUnion } from "#shared/schema/common.ts";
import { ARCHETYPES, LETTERS, QUIZ_QUESTION_COUNT } from "./constants.ts";

export { ARCHETYPES, type Letter } from "./constants.ts";

const ArchetypeName = literalUnion(ARCHETYPES, { error: `Archetype must be one of: ${ARCHETYPES.join(", ")}` });
const LetterSchema = literalUnion(LETTERS, { error: "Each answer must be one of the letters A, B, C or D" });

// ---- Content ----

export const ArchetypeQuestion = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: QUIZ_QUESTION_COUNT }),
  question: Type.String({ minLength: 10, maxLength: 160 }),
  options: Type.Array(
    Type.Object({
      value: LetterSchema,
      emoji: Type.String({ minLength: 1, maxLength: 16 }),
      label: Type.String({ minLength: 3, maxLength: 120 }),
    }),
    { minItems: 4, maxItems: 4 },
  ),
});
export type ArchetypeQuestion = Static<typeof ArchetypeQuestion>;

/** The scoring table: one point per letter to its base archetype, plus extras per question and letter. */
export const ScoringTable = Type.Object({
  base: Type.Object({ A: ArchetypeName, B: ArchetypeName, C: ArchetypeName, D: ArchetypeName }),
  extras: Type.Array(
    Type.Object({
      question: Type.Integer({ minimum: 1, maximum: QUIZ_QUESTION_COUNT }),
      answer: LetterSchema,
      archetype: ArchetypeName,
      points: Type.Integer({ minimum: 1, maximum: 5 }),
    }),
  ),
});
export type ScoringTable = Static<typeof ScoringTable>;

export const ArchetypeProfile = Type.Object({
  name: ArchetypeName,
  emoji: Type.String({ minLength: 1, maxLength: 16 }),
  tagline: Type.String({ minLength: 10, maxLength: 140 }),
  description: Type.String({ minLength: 400, maxLength: 1600 }),
  superpowers: Type.Array(
    Type.Object({
      emoji: Type.String({ minLength: 1, maxLength: 16 }),
      text: Type.String({ minLength: 10, maxLength: 160 }),
    }),
    { minItems: 3, maxItems: 3 },
  ),
});
export type ArchetypeProfile = Static<typeof ArchetypeProfile>;

// ---- API ----

export const QuizResultInput = Type.Object(
  {
    archetype: ArchetypeName,
    answers: Type.Array(LetterSchema, {
      minItems: QUIZ_QUESTION_COUNT,
      maxItems: QUIZ_QUESTION_COUNT,
      error: `answers must be a list of exactly ${QUIZ_QUESTION_COUNT} letters A–D`,
    }),
  },
  // Unknown fields are refused, not silently dropped: a client sending them has a bug.
  { additionalProperties: false },
);
export type QuizResultInput = Static<typeof QuizResultInput>;

export const QuizResult = Type.Object({
  id: Type.String(),
  archetype: ArchetypeName,
  answers: Type.Array(LetterSchema),
  createdAt: Type.String(),
});
export type QuizResult = Static<typeof QuizResult>;
