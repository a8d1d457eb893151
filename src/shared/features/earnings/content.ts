// The calculator content, typed by the contract. tests/content.test.ts checks every file
// against these schemas, so the casts below are verified, not assumed.
import questionsJson from "#content/earnings/questions.json" with { type: "json" };
import tiersJson from "#content/earnings/tiers.json" with { type: "json" };
import type { EarningsQuestion, TierProfile } from "./contract.ts";

export const earningsQuestions = questionsJson as EarningsQuestion[];
export const tierProfiles = tiersJson as TierProfile[];

export function tierProfile(name: string): TierProfile | undefined {
  return tierProfiles.find((p) => p.tier === name);
}
