// The tier profiles, typed by the contract (tests/content.test.ts checks the file against
// the schema). Server only: the tier result reads the one profile it shows.
import tiersJson from "#content/earnings/tiers.json" with { type: "json" };
import type { TierProfile } from "#shared/features/earnings/contract.ts";

const tierProfiles = tiersJson as TierProfile[];

export function tierProfile(name: string): TierProfile | undefined {
  return tierProfiles.find((p) => p.tier === name);
}
