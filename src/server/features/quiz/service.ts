import { sql } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { keptResult } from "#server/features/settings/expired-results.ts";
import { resultRetentionDays } from "#server/features/settings/result-retention.ts";
import { newId } from "#server/lib/ids.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { scoringTable } from "#shared/features/quiz/content.ts";
import type { QuizResult, QuizResultInput } from "#shared/features/quiz/contract.ts";
import { scoreArchetype } from "#shared/features/quiz/scoring.ts";
import { describeRetention } from "#shared/features/settings/result-retention.ts";
import { quizResults } from "./table.ts";

// The hot write path prepares its statement once per database instead of per request:
// prepared statements hold native memory until the garbage collector finalizes them.
const prepared = new WeakMap<Db, ReturnType<typeof prepareInsert>>();
function prepareInsert(db: Db) {
  return db
    .insert(quizResults)
    .values({ id: sql.placeholder("id"), archetype: sql.placeholder("archetype"), answers: sql.placeholder("answers") })
    .prepare();
}

/**
 * Scores the answers itself; a claimed archetype the answers do not give is refused.
 * `beforeSave` runs once the result is checked, just before it is written (the daily limit).
 */
export async function createQuizResult(
  db: Db,
  input: QuizResultInput,
  beforeSave?: () => Promise<void>,
): Promise<{ id: string; archetype: string }> {
  const { archetype } = scoreArchetype(input.answers, scoringTable);
  if (archetype !== input.archetype) {
    throw new HttpError(422, `These answers score as "${archetype}", not "${input.archetype}".`, [
      { field: "archetype", message: `Expected "${archetype}" for these answers` },
    ]);
  }
  await beforeSave?.();
  const id = newId();
  let insert = prepared.get(db);
  if (!insert) {
    insert = prepareInsert(db);
    prepared.set(db, insert);
  }
  await insert.execute({ id, archetype, answers: [...input.answers] });
  return { id, archetype };
}

/**
 * A saved result, unless it is older than the retention in Settings: from then on it is gone
 * for everyone, whether or not the hourly pass has deleted it yet.
 */
export async function getQuizResult(db: Db, id: string, now = new Date()): Promise<QuizResult> {
  const days = await resultRetentionDays(db);
  const [row] = await db
    .select()
    .from(quizResults)
    .where(keptResult(quizResults, id, now, days))
    .limit(1);
  if (!row) throw new HttpError(404, `No quiz result with that id (results are kept for ${describeRetention(days)}).`);
  return {
    id: row.id,
    archetype: row.archetype as QuizResult["archetype"],
    answers: row.answers as QuizResult["answers"],
    createdAt: row.createdAt.toISOString(),
  };
}

/** Whether a quiz result is saved and not yet expired. */
export async function quizResultExists(db: Db, id: string, now = new Date()): Promise<boolean> {
  const days = await resultRetentionDays(db);
  const [row] = await db
    .select({ id: quizResults.id })
    .from(quizResults)
    .where(keptResult(quizResults, id, now, days))
    .limit(1);
  return row !== undefined;
}
