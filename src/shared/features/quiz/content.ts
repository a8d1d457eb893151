// The quiz content the browser needs, typed by the contract. tests/content.test.ts checks
// every file against these schemas, so the casts below are verified, not assumed. The
// profiles are served one at a time (src/server/features/quiz/content.ts).
import questionsJson from "#content/quiz/questions.json" with { type: "json" };
import scoringJson from "#content/quiz/scoring.json" with { type: "json" };
import type { ArchetypeQuestion, ScoringTable } from "./contract.ts";

export const archetypeQuestions = questionsJson as ArchetypeQuestion[];
export const scoringTable = scoringJson as ScoringTable;
