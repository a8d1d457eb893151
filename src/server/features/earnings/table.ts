import { sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { quizResults } from "#server/features/quiz/table.ts";

export const earningsResults = sqliteTable("earnings_results", {
  id: text("id").primaryKey(),
  // Optional: the calculator can be taken without the quiz. The API refuses an unknown id;
  // the key keeps the link valid if results are ever deleted.
  quizResultId: text("quiz_result_id").references(() => quizResults.id, { onDelete: "set null" }),
  tier: text("tier").notNull(),
  estimatedEarnings: text("estimated_earnings").notNull(),
  score: integer("score").notNull(),
  answers: text("answers", { mode: "json" }).$type<number[]>().notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
});
