import { and, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { earningsResults } from "#server/features/earnings/table.ts";
import { quizResults } from "#server/features/quiz/table.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Results saved before this moment have expired: they are not shown, and the next pass deletes them. */
function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/**
 * What picks the saved result `id` while it is kept (`days` of retention): a quiz result or an
 * estimate. An id with a NUL character (U+0000) picks nothing without asking PostgreSQL, whose
 * text cannot hold one and would fail the query instead of finding nothing, as SQLite does.
 */
export function keptResult(
  table: typeof quizResults | typeof earningsResults,
  id: string,
  now: Date,
  days: number,
): SQL {
  if (id.includes("\u0000")) return sql`1 = 0`;
  return and(eq(table.id, id), gte(table.createdAt, retentionCutoff(now, days)))!;
}

/** Rows per statement: a few milliseconds of the server's one thread, so requests wait at most that long. */
const RETENTION_BATCH = 500;

/**
 * Between two statements: as long as the last one took (a timer, so the event loop polls the
 * sockets), so the deletion takes at most half of the server's one thread while requests wait.
 */
const restAsLong = (lastMs: number) => new Promise<void>((resolve) => setTimeout(resolve, lastMs));

export interface DeleteExpiredOptions {
  now: Date;
  days: number;
  batchSize?: number;
  /** Awaited between two statements, with how long the last one took (ms). */
  pause?: (lastMs: number) => Promise<void>;
  /** Checked before each statement: true stops the pass (the server is shutting down). */
  stopped?: () => boolean;
}

export interface DeletedResults {
  quiz: number;
  earnings: number;
}

/** One statement: deletes up to `limit` of the results in `table` saved before `cutoff`; the ids deleted. */
function deleteSavedBefore(db: Db, table: typeof quizResults | typeof earningsResults, cutoff: Date, limit: number) {
  const expired = db.select({ id: table.id }).from(table).where(lt(table.createdAt, cutoff)).limit(limit);
  return db.delete(table).where(inArray(table.id, expired)).returning({ id: table.id });
}

/** Runs `batch` until it deletes fewer rows than a full batch; the rows deleted. */
async function inBatches(
  batch: () => Promise<unknown[]>,
  size: number,
  pause: (lastMs: number) => Promise<void>,
  stopped: () => boolean,
): Promise<number> {
  let total = 0;
  while (!stopped()) {
    const begun = performance.now();
    const deleted = (await batch()).length;
    total += deleted;
    if (deleted < size) break;
    await pause(performance.now() - begun);
  }
  return total;
}

/**
 * Deletes every quiz and calculator result saved more than `days` before `now`, oldest first,
 * `batchSize` rows per statement, resting after each as long as it took so requests are
 * served meanwhile. Calculator results go first; a deleted quiz result clears the link to it from
 * a newer calculator result (the key's ON DELETE SET NULL).
 */
export async function deleteExpiredResults(
  db: Db,
  { now, days, batchSize = RETENTION_BATCH, pause = restAsLong, stopped = () => false }: DeleteExpiredOptions,
): Promise<DeletedResults> {
  const cutoff = retentionCutoff(now, days);
  const earnings = await inBatches(
    () => deleteSavedBefore(db, earningsResults, cutoff, batchSize),
    batchSize,
    pause,
    stopped,
  );
  if (earnings > 0 && !stopped()) await pause(0);
  const quiz = await inBatches(() => deleteSavedBefore(db, quizResults, cutoff, batchSize), batchSize, pause, stopped);
  return { quiz, earnings };
}
