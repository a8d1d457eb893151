// What a result page shows beyond the winner, and the addresses a result is shared by.
// Pure: the same on the server, in the browser and in the build that draws the images.
import { ARCHETYPES, type Archetype, type Letter } from "./constants.ts";
import type { ScoringTable } from "./contract.ts";
import { scoreArchetype } from "./scoring.ts";

export interface ArchetypeShare {
  archetype: Archetype;
  points: number;
  /** The share of all points, rounded to a whole percent. */
  percent: number;
}

/**
 * Every archetype's share of the points, highest first. A tie is ranked the way scoring
 * breaks it: the archetype listed first comes first, so the top row is always the result.
 * Each share is rounded on its own, so equal points always show the same number and no row
 * is nudged to make a total come out at 100. Empty without points.
 */
export function archetypeShares(answers: readonly Letter[], table: ScoringTable): ArchetypeShare[] {
  const { totals } = scoreArchetype(answers, table);
  const sum = ARCHETYPES.reduce((s, a) => s + totals[a], 0);
  if (sum === 0) return [];
  return ARCHETYPES.map((archetype, order) => ({ archetype, order, points: totals[archetype] }))
    .sort((a, b) => b.points - a.points || a.order - b.order)
    .map(({ archetype, points }) => ({ archetype, points, percent: Math.round((points * 100) / sum) }));
}

/** The first three of archetypeShares: what the result page charts. */
export function topArchetypes(answers: readonly Letter[], table: ScoringTable, count = 3): ArchetypeShare[] {
  return archetypeShares(answers, table).slice(0, count);
}

/** "Submissive / Brat" -> "submissive-brat": the archetype's name in a file name. */
export function archetypeSlug(archetype: Archetype): string {
  return archetype
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The archetype's social card, drawn at build time (1200x630 PNG). */
export function shareImagePath(archetype: Archetype): string {
  return `/social/${archetypeSlug(archetype)}.png`;
}

/** The address a result is shared by: the archetype only, never the answers or the result's id. */
export function shareAddress(archetype: Archetype): string {
  return `/quiz/result?archetype=${encodeURIComponent(archetype)}`;
}
