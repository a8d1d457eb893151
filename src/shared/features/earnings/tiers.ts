import { TIERS, type TierName } from "./constants.ts";

export interface TierResult {
  tier: TierName;
  estimatedEarnings: string;
  /** The raw sum of the answers. */
  score: number;
  /** sum / (questions × 3) × 100 */
  percentage: number;
}

/**
 * Earnings tiers (docs/product.md#earnings-tiers): below 40% Casual Starter, from 40% up to below 70% Hustler Mode, 70% and
 * above Power Earner. Compared in integers so that exactly 40% and 70% land on the
 * upper tier without floating-point doubt.
 */
export function computeTier(answers: readonly number[]): TierResult {
  const score = answers.reduce((sum, a) => sum + a, 0);
  const max = answers.length * 3;
  let chosen: (typeof TIERS)[number] = TIERS[0];
  for (const tier of TIERS) if (max > 0 && score * 100 >= tier.minPercent * max) chosen = tier;
  return {
    tier: chosen.name,
    estimatedEarnings: chosen.range,
    score,
    percentage: max > 0 ? (score / max) * 100 : 0,
  };
}
