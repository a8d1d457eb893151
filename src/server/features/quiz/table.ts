import { index, json, table, text, textId, timestampNow } from "#server/db/columns.ts";

// Result ids are random and unguessable (a visitor's result is private by address), so they are text keys.
export const quizResults = table(
  "quiz_results",
  {
    id: textId("id"),
    archetype: text("archetype").notNull(),
    answers: json<string[]>("answers").notNull(),
    createdAt: timestampNow("created_at"),
  },
  // Results are deleted oldest first, a few hundred at a time, once they are older than the retention.
  (table) => [index("quiz_results_created_idx").on(table.createdAt)],
);
