import { index, integer, json, table, text, textId, timestampNow } from "#server/db/columns.ts";
import { quizResults } from "#server/features/quiz/table.ts";

export const earningsResults = table(
  "earnings_results",
  {
    id: textId("id"),
    // Optional: the calculator can be taken without the quiz. The API refuses an unknown id;
    // the key keeps the link valid if results are ever deleted.
    quizResultId: text("quiz_result_id").references(() => quizResults.id, { onDelete: "set null" }),
    tier: text("tier").notNull(),
    estimatedEarnings: text("estimated_earnings").notNull(),
    score: integer("score").notNull(),
    answers: json<number[]>("answers").notNull(),
    createdAt: timestampNow("created_at"),
  },
  (table) => [
    // Results are deleted oldest first, a few hundred at a time, once they are older than the retention.
    index("earnings_results_created_idx").on(table.createdAt),
    // Deleting a quiz result clears the link to it here: found by this index, not by reading every row.
    index("earnings_results_quiz_result_idx").on(table.quizResultId),
  ],
);
