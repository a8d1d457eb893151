export const EARNINGS_QUESTION_COUNT = 15;

/** Below 40% Casual Starter, 40 up to below 70 Hustler Mode, 70 and above Power Earner. */
export const TIERS = [
  { name: "Casual Starter", range: "$500 - $1,500 / month", minPercent: 0 },
  { name: "Hustler Mode", range: "$2,000 - $5,000 / month", minPercent: 40 },
  { name: "Power Earner", range: "$5,000 - $15,000+ / month", minPercent: 70 },
] as const;
export type TierName = (typeof TIERS)[number]["name"];
