import { type TSchema, Type } from "@sinclair/typebox";
import { MODULE_COUNT } from "#shared/features/course/constants.ts";
import { TIERS } from "#shared/features/earnings/constants.ts";
import { ARCHETYPES } from "#shared/features/quiz/constants.ts";

/** One module the plan suggests, with the one line that says why. */
const PlanPick = Type.Object(
  {
    module: Type.Integer({ minimum: 1, maximum: MODULE_COUNT }),
    reason: Type.String({ minLength: 10, maxLength: 110 }),
  },
  { additionalProperties: false },
);

const byName = (names: readonly string[], picks: TSchema) =>
  Type.Object(Object.fromEntries(names.map((name) => [name, picks])), { additionalProperties: false });

/**
 * content/plan.json: each archetype picks two modules by fit; each tier lists three in
 * order of preference, and the first that the archetype did not already pick is added.
 */
export const PlanTable = Type.Object(
  {
    archetypes: byName(ARCHETYPES, Type.Array(PlanPick, { minItems: 2, maxItems: 2 })),
    tiers: byName(
      TIERS.map((tier) => tier.name),
      Type.Array(PlanPick, { minItems: 3, maxItems: 3 }),
    ),
  },
  { additionalProperties: false },
);
