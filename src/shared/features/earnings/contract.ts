import { type Static, Type } from "@sinclair/typebox";
import { literalUnion } from "#shared/schema/common.ts";
import { EARNINGS_QUESTION_COUNT, TIERS, type TierName } from "./constants.ts";

export { TIERS } from "./constants.ts";

const TIER_NAMES = TIERS.map((t) => t.name) as readonly TierName[];

const TierNameSchema = literalUnion(TIER_NAMES, { error: `tier must be one of: ${TIER_NAMES.join(", ")}` });
const AnswerValue = Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
  error: "Each answer must be the number 1, 2 or 3",
});

export const EarningsQuestion = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: EARNINGS_QUESTION_COUNT }),
  question: Type.String({ minLength: 10, maxLength: 160 }),
  options: Type.Array(Type.Object({ value: AnswerValue, label: Type.String({ minLength: 3, maxLength: 120 }) }), {
    minItems: 3,
    maxItems: 3,
  }),
});
export type EarningsQuestion = Static<typeof EarningsQuestion>;

export const TierProfile = Type.Object({
  tier: TierNameSchema,
  emoji: Type.String({ minLength: 1, maxLength: 16 }),
  tagline: Type.String({ minLength: 10, maxLength: 140 }),
  description: Type.String({ minLength: 250, maxLength: 1400 }),
  schedule: Type.Array(Type.String({ minLength: 10, maxLength: 200 }), { minItems: 2, maxItems: 5 }),
  tip: Type.String({ minLength: 40, maxLength: 400 }),
});
export type TierProfile = Static<typeof TierProfile>;

export const EarningsResultInput = Type.Object(
  {
    quizResultId: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])),
    tier: TierNameSchema,
    estimatedEarnings: Type.String({ maxLength: 64 }),
    score: Type.Integer({ minimum: EARNINGS_QUESTION_COUNT, maximum: EARNINGS_QUESTION_COUNT * 3 }),
    answers: Type.Array(AnswerValue, {
      minItems: EARNINGS_QUESTION_COUNT,
      maxItems: EARNINGS_QUESTION_COUNT,
      error: `answers must be a list of exactly ${EARNINGS_QUESTION_COUNT} numbers from 1 to 3`,
    }),
  },
  { additionalProperties: false },
);
export type EarningsResultInput = Static<typeof EarningsResultInput>;

export const EarningsResult = Type.Object({
  id: Type.String(),
  quizResultId: Type.Union([Type.String(), Type.Null()]),
  tier: TierNameSchema,
  estimatedEarnings: Type.String(),
  score: Type.Integer(),
  answers: Type.Array(Type.Integer()),
  createdAt: Type.String(),
});
export type EarningsResult = Static<typeof EarningsResult>;
