import { CAPPING_QUESTIONS, TIERS, type TierName } from "./constants.ts";
import { tierRangeText } from "./estimate.ts";

type CappingQuestion = keyof typeof CAPPING_QUESTIONS;

/**
 * The highest tier each capping question allows when answered with its lowest option:
 * under 10 hours a week cannot support more than Casual Starter; a laptop camera or an
 * upload under 5 Mbps cannot support Power Earner.
 */
const CAPS: Record<CappingQuestion, TierName> = {
  hours: "Casual Starter",
  equipment: "Hustler Mode",
  upload: "Hustler Mode",
};

/**
 * Where the sum sits between the lowest and the highest possible score, as a fraction:
 * Hustler Mode from 1/2 (the middle option everywhere), Power Earner from 3/4.
 * Kept as numerator/denominator so the comparison is done in integers.
 */
const TIER_THRESHOLDS: Record<TierName, { num: number; den: number }> = {
  "Casual Starter": { num: 0, den: 1 },
  "Hustler Mode": { num: 1, den: 2 },
  "Power Earner": { num: 3, den: 4 },
};

export interface TierResult {
  tier: TierName;
  /** What the tier earns in general, as text ("$30 – $470 a month"): the model's band for the tier. */
  estimatedEarnings: string;
  /** The raw sum of the answers. */
  score: number;
  /** (sum − lowest possible) / (highest − lowest possible), 0 to 1. */
  position: number;
  /** The capping questions that lowered the tier from the one the position gives (empty when none did). */
  cappedBy: CappingQuestion[];
}

const tierIndex = (name: TierName) => TIERS.findIndex((t) => t.name === name);

/**
 * Earnings tiers (docs/decisions/029-honest-earnings-tier.md): the tier the position of the
 * sum reaches, lowered to the cap of any capping question answered with its lowest option.
 */
export function computeTier(answers: readonly number[]): TierResult {
  const score = answers.reduce((sum, a) => sum + a, 0);
  const min = answers.length;
  const span = answers.length * 2;
  let reached = 0;
  TIERS.forEach((tier, i) => {
    const { num, den } = TIER_THRESHOLDS[tier.name];
    if (span > 0 && (score - min) * den >= num * span) reached = i;
  });
  let chosen = reached;
  const cappedBy: CappingQuestion[] = [];
  for (const [question, id] of Object.entries(CAPPING_QUESTIONS) as [CappingQuestion, number][]) {
    if (answers[id - 1] !== 1) continue;
    const cap = tierIndex(CAPS[question]);
    if (cap < reached) cappedBy.push(question);
    chosen = Math.min(chosen, cap);
  }
  const tier = TIERS[chosen] ?? TIERS[0];
  return {
    tier: tier.name,
    estimatedEarnings: tierRangeText(tier.name),
    score,
    position: span > 0 ? (score - min) / span : 0,
    cappedBy,
  };
}
