import { sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Result ids are random and unguessable (a visitor's result is private by address), so they are text keys.
export const quizResults = sqliteTable("quiz_results", {
  id: text("id").primaryKey(),
  archetype: text("archetype").notNull(),
  answers: text("answers", { mode: "json" }).$type<string[]>().notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
});
