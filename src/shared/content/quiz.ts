// The quiz and calculator content, typed by the contract. tests/content.test.ts checks
// every file against these schemas, so the casts below are verified, not assumed.
import questionsJson from "../../../content/quiz/questions.json" with { type: "json" };
import scoringJson from "../../../content/quiz/scoring.json" with { type: "json" };
import archetypesJson from "../../../content/quiz/archetypes.json" with { type: "json" };
import earningsQuestionsJson from "../../../content/earnings/questions.json" with { type: "json" };
import tiersJson from "../../../content/earnings/tiers.json" with { type: "json" };
import type { ArchetypeProfile, ArchetypeQuestion, ScoringTable } from "../contract/quiz.ts";
import type { EarningsQuestion, TierName, TierProfile } from "../contract/earnings.ts";

export const archetypeQuestions = questionsJson as ArchetypeQuestion[];
export const scoringTable = scoringJson as ScoringTable;
export const archetypeProfiles = archetypesJson as ArchetypeProfile[];
export const earningsQuestions = earningsQuestionsJson as EarningsQuestion[];
export const tierProfiles = tiersJson as TierProfile[];

export function archetypeProfile(name: string): ArchetypeProfile | undefined {
  return archetypeProfiles.find((p) => p.name === name);
}

export function tierProfile(name: string): TierProfile | undefined {
  return tierProfiles.find((p) => p.tier === name);
}


export type { TierName };
