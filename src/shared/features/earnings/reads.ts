import { defineRead } from "#shared/read.ts";
import type { EarningsResult, TierProfile } from "./contract.ts";

export const earningsResultRead = defineRead<EarningsResult | null>()("/api/earnings/result/:id", {
  id: { minLength: 1, maxLength: 64 },
});

/** One tier's profile: the tier result shows one, so the browser never loads all three. */
export const tierProfileRead = defineRead<TierProfile | null>()("/api/earnings/tiers/:name", {
  name: { minLength: 1, maxLength: 64 },
});
