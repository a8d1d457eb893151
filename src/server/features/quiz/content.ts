// The archetype profiles, typed by the contract (tests/content.test.ts checks the file
// against the schema). Server only: a page reads the one profile it shows.
import archetypesJson from "#content/quiz/archetypes.json" with { type: "json" };
import type { ArchetypeProfile } from "#shared/features/quiz/contract.ts";

export const archetypeProfiles = archetypesJson as ArchetypeProfile[];

export function archetypeProfile(name: string): ArchetypeProfile | undefined {
  return archetypeProfiles.find((p) => p.name === name);
}
