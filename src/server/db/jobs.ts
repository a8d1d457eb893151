// Jobs that run beside requests on a timer (link checks, the analytics roll-up, deleting expired
// results) and must run on one instance at a time: on PostgreSQL several instances share the
// database, and a job run twice at once counts twice (a link's failures, a day's visitors). A
// PostgreSQL database registers a runner that takes an advisory lock for the job; on SQLite
// one server owns DATA_DIR, so a job simply runs.
import type { Db } from "./types.ts";

export type JobName = "link-checks" | "analytics-roll-up" | "result-retention";

/** Runs `work` when no other instance runs the same job now; null (nothing run) when one does. */
type JobRunner = <T>(job: JobName, work: () => Promise<T>) => Promise<T | null>;

const runners = new WeakMap<Db, JobRunner>();

/** Called once per database by the code that opens a PostgreSQL one. */
export function registerJobRunner(db: Db, runner: JobRunner): void {
  runners.set(db, runner);
}

/**
 * Runs `work` as the one run of `job` across every instance on this database, or answers null
 * at once when another instance runs it now (it does the work; this one skips its turn).
 */
export function alone<T>(db: Db, job: JobName, work: () => Promise<T>): Promise<T | null> {
  const runner = runners.get(db);
  return runner ? runner(job, work) : work();
}
