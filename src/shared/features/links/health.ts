import type { AdminLink } from "./contract.ts";

// What the links' last checks say as a whole: which links need the admin, and whether the
// server itself looks offline. The Links list and the admin home (server and browser) use them.

type Checked = Pick<AdminLink, "healthClass" | "lastCheckedAt" | "lastStatus">;

/** An active link whose last check found it broken or blocked: the only kind that needs the admin. */
export const needsAttention = (link: Pick<AdminLink, "healthClass" | "active">) =>
  link.active && (link.healthClass === "broken" || link.healthClass === "blocked");

/**
 * True when two or more links were checked and every one of them is broken without any answer:
 * the last checks most likely ran while this server was offline.
 */
export function looksOffline(links: Checked[]): boolean {
  const checked = links.filter((link) => link.healthClass && link.lastCheckedAt);
  return checked.length >= 2 && checked.every((link) => link.healthClass === "broken" && link.lastStatus === null);
}

/** What the admin reads when no destination could be reached: the server, not the links, is the likely problem. */
export const OFFLINE_HINT =
  "None of the links could be reached. This server may have no internet connection (or no working DNS): check its connection before turning links off.";

/** The Links list's health filter, also read from its address (?health=attention). */
const HEALTH_FILTERS = ["all", "attention", "unchecked"] as const;
export type HealthFilter = (typeof HEALTH_FILTERS)[number];

/** The filter named in an address, or null for none or an unknown one. */
export const readHealthFilter = (value: string | null | undefined): HealthFilter | null =>
  HEALTH_FILTERS.find((filter) => filter === value) ?? null;
