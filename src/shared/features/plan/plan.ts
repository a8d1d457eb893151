// The visitor's plan (docs/product.md#your-plan): which modules to take first for their
// archetype and earnings tier. Pure, so the table and the choice are tested without a page.
// tests/content.test.ts checks content/plan.json against the contract, so the cast is verified.
import planJson from "#content/plan.json" with { type: "json" };
import type { TierName } from "#shared/features/earnings/constants.ts";
import type { Archetype } from "#shared/features/quiz/constants.ts";

export interface PlanPick {
  module: number;
  reason: string;
}

export interface PlanTable {
  archetypes: Record<Archetype, PlanPick[]>;
  tiers: Record<TierName, PlanPick[]>;
}

export const planTable = planJson as PlanTable;

/** How many modules the plan suggests when both the archetype and the tier are known. */
export const PLAN_SIZE = 3;

/**
 * The modules to take first, in course order: the archetype's two picks, then the tier's
 * first pick that is not one of them. What is unknown adds nothing: an archetype alone gives
 * two, a tier alone gives its first pick, nothing known gives none.
 */
export function planModules(
  archetype: Archetype | null,
  tier: TierName | null,
  table: PlanTable = planTable,
): PlanPick[] {
  const picks = archetype ? [...table.archetypes[archetype]] : [];
  const extra = tier ? table.tiers[tier].find((pick) => !picks.some((p) => p.module === pick.module)) : undefined;
  if (extra) picks.push(extra);
  return picks.sort((a, b) => a.module - b.module);
}
