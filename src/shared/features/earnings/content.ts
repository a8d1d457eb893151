// The calculator's questions, typed by the contract. tests/content.test.ts checks the file
// against the schema, so the cast below is verified, not assumed. The tier profiles are
// served one at a time (src/server/features/earnings/content.ts).
import questionsJson from "#content/earnings/questions.json" with { type: "json" };
import type { EarningsQuestion } from "./contract.ts";

export const earningsQuestions = questionsJson as EarningsQuestion[];
