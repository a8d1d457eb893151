import { ARCHETYPES } from "#shared/features/quiz/constants.ts";

export const ALL_ARCHETYPES = "All Archetypes";
/** A product is for one of the ten quiz archetypes, or 'All Archetypes' (the essentials). */
export const PRODUCT_ARCHETYPES = [...ARCHETYPES, ALL_ARCHETYPES] as const;
export const PRODUCT_BADGES = ["ESSENTIAL", "TOP EARNER", "PREMIUM", "RECOMMENDED"] as const;

/** Badge colour on the starter kit: 'perfect' is secondary, 'pro' or 'him' accent, anything else primary. */
export function badgeTone(badge: string): "primary" | "secondary" | "accent" {
  const b = badge.trim().toLowerCase();
  if (b === "perfect") return "secondary";
  if (b === "pro" || b === "him") return "accent";
  return "primary";
}
