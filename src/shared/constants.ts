// Plain values and rules both sides use. No schema library here: this file ships to
// every page, and TypeBox stays out of the browser bundle unless a form needs it.

/** DECISIONS P1: the one canonical archetype list, in SPEC order (earlier wins ties). */
export const ARCHETYPES = [
  "Girl Next Door",
  "Dominatrix",
  "Submissive / Brat",
  "Goth / Alt Girl",
  "Bimbo / Bombshell",
  "MILF / Cougar",
  "Cosplay Babe",
  "Fitness Queen",
  "Seductress",
  "Couple",
] as const;
export type Archetype = (typeof ARCHETYPES)[number];
export const DEFAULT_ARCHETYPE: Archetype = "Girl Next Door";

export function isArchetype(name: string): name is Archetype {
  return (ARCHETYPES as readonly string[]).includes(name);
}

export const LETTERS = ["A", "B", "C", "D"] as const;
export const QUIZ_QUESTION_COUNT = 15;
export type Letter = (typeof LETTERS)[number];

export const ALL_ARCHETYPES = "All Archetypes";
/** DECISIONS P1: the ten archetypes, or 'All Archetypes' for the essentials. */
export const PRODUCT_ARCHETYPES = [...ARCHETYPES, ALL_ARCHETYPES] as const;
export type ProductArchetype = (typeof PRODUCT_ARCHETYPES)[number];
export const PRODUCT_BADGES = ["ESSENTIAL", "TOP EARNER", "PREMIUM", "RECOMMENDED"] as const;

/** SPEC 3: 'perfect' -> secondary, 'pro' or 'him' -> accent, anything else -> primary. */
export function badgeTone(badge: string): "primary" | "secondary" | "accent" {
  const b = badge.trim().toLowerCase();
  if (b === "perfect") return "secondary";
  if (b === "pro" || b === "him") return "accent";
  return "primary";
}

/** SPEC 3: the badge label is the slug with hyphens turned to spaces, each word capitalised. */
export function categoryLabel(slug: string): string {
  return slug
    .split("-")
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

/** SPEC 3 badge colours by slug; any other slug is grey. */
export function categoryColor(slug: string): "green" | "blue" | "purple" | "amber" | "grey" {
  switch (slug) {
    case "getting-started":
      return "green";
    case "tips-and-tricks":
      return "blue";
    case "platform-reviews":
      return "purple";
    case "income-strategies":
      return "amber";
    default:
      return "grey";
  }
}

export const MODULE_COUNT = 10;
export const TOPICS_PER_MODULE = 5;
export const QUIZ_QUESTIONS_PER_MODULE = 5;
/** SPEC 3: the fallback when a module-topic pair has no pro tip. */
export const DEFAULT_PRO_TIP = "Most successful cam models completed this entire course.";

export const EARNINGS_QUESTION_COUNT = 15;

/** SPEC 4: below 40% Casual Starter, 40 up to below 70 Hustler Mode, 70 and above Power Earner. */
export const TIERS = [
  { name: "Casual Starter", range: "$500 - $1,500 / month", minPercent: 0 },
  { name: "Hustler Mode", range: "$2,000 - $5,000 / month", minPercent: 40 },
  { name: "Power Earner", range: "$5,000 - $15,000+ / month", minPercent: 70 },
] as const;
export type TierName = (typeof TIERS)[number]["name"];

export const offersPath = (moduleId: number | string) => `/api/module/${moduleId}/affiliate-offers`;
