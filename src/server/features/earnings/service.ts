import type { Db } from "#server/db/types.ts";
import { quizResultExists } from "#server/features/quiz/service.ts";
import { keptResult } from "#server/features/settings/expired-results.ts";
import { resultRetentionDays } from "#server/features/settings/result-retention.ts";
import { newId } from "#server/lib/ids.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { EarningsResult, EarningsResultInput } from "#shared/features/earnings/contract.ts";
import { computeTier } from "#shared/features/earnings/tiers.ts";
import { describeRetention } from "#shared/features/settings/result-retention.ts";
import { earningsResults } from "./table.ts";

/**
 * The server computes tier, range and score from the answers and refuses a body that disagrees.
 * `beforeSave` runs once the result is checked, just before it is written (the daily limit).
 */
export async function createEarningsResult(
  db: Db,
  input: EarningsResultInput,
  beforeSave?: () => Promise<void>,
): Promise<{ id: string; tier: string }> {
  const computed = computeTier(input.answers);
  const problems: { field: string; message: string }[] = [];
  if (input.tier !== computed.tier)
    problems.push({ field: "tier", message: `Expected "${computed.tier}" for these answers` });
  if (input.estimatedEarnings !== computed.estimatedEarnings) {
    problems.push({
      field: "estimatedEarnings",
      message: `Expected "${computed.estimatedEarnings}" for these answers`,
    });
  }
  if (input.score !== computed.score)
    problems.push({ field: "score", message: `Expected ${computed.score} (the sum of the answers)` });
  if (problems.length > 0)
    throw new HttpError(422, "The tier, estimate or score does not match the answers.", problems);

  const quizResultId = input.quizResultId ?? null;
  if (quizResultId !== null && !(await quizResultExists(db, quizResultId))) {
    throw new HttpError(422, "quizResultId does not name a saved quiz result.", [
      { field: "quizResultId", message: "Unknown quiz result" },
    ]);
  }
  await beforeSave?.();
  const id = newId();
  await db.insert(earningsResults).values({
    id,
    quizResultId,
    tier: computed.tier,
    estimatedEarnings: computed.estimatedEarnings,
    score: computed.score,
    answers: [...input.answers],
  });
  return { id, tier: computed.tier };
}

/** A saved estimate, unless it is older than the retention in Settings (then it is gone, deleted yet or not). */
export async function getEarningsResult(db: Db, id: string, now = new Date()): Promise<EarningsResult> {
  const days = await resultRetentionDays(db);
  const [row] = await db
    .select()
    .from(earningsResults)
    .where(keptResult(earningsResults, id, now, days))
    .limit(1);
  if (!row)
    throw new HttpError(404, `No earnings result with that id (results are kept for ${describeRetention(days)}).`);
  return {
    id: row.id,
    quizResultId: row.quizResultId,
    tier: row.tier as EarningsResult["tier"],
    estimatedEarnings: row.estimatedEarnings,
    score: row.score,
    answers: row.answers,
    createdAt: row.createdAt.toISOString(),
  };
}
