// The quiz content, typed by the contract. tests/content.test.ts checks every file
// against these schemas, so the casts below are verified, not assumed.
import archetypesJson from "#content/quiz/archetypes.json" with { type: "json" };
import questionsJson from "#content/quiz/questions.json" with { type: "json" };
import scoringJson from "#content/quiz/scoring.json" with { type: "json" };
import type { ArchetypeProfile, ArchetypeQuestion, ScoringTable } from "./contract.ts";

export const archetypeQuestions = questionsJson as ArchetypeQuestion[];
export const scoringTable = scoringJson as ScoringTable;
export const archetypeProfiles = archetypesJson as ArchetypeProfile[];

export function archetypeProfile(name: string): ArchetypeProfile | undefined {
  return archetypeProfiles.find((p) => p.name === name);
}
