import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import { alone } from "#server/db/jobs.ts";
import type { Db } from "#server/db/types.ts";
import { forgetExpiredLimits } from "#server/features/limits/shared.ts";
import type { Logger } from "#server/logger.ts";
import { adminJson } from "#server/plugins/admin-route.ts";
import { ResultRetentionInput } from "#shared/features/settings/contract.ts";
import {
  DEFAULT_RESULT_RETENTION_DAYS,
  describeRetention,
  type ResultRetention,
  type RetentionRun,
} from "#shared/features/settings/result-retention.ts";
import { deleteExpiredResults } from "./expired-results.ts";
import { updateSettingsRow } from "./settings-row.ts";
import { siteSettings } from "./table.ts";

const HOUR_MS = 60 * 60 * 1000;

export interface ResultRetentionOptions {
  db: Db;
  logger: Logger;
  now?: () => Date;
  /** False while the data cannot be kept (storage health): a pass then deletes nothing. */
  writable?: () => boolean;
  /** After a pass deleted results: the pages of saved results held in memory are dropped. */
  onDeleted?: (count: number) => void;
  /** Between passes (default hourly). */
  every?: number;
  batchSize?: number;
  pause?: (lastMs: number) => Promise<void>;
}

/**
 * How long anonymous quiz and calculator results are kept (site_settings.result_retention_days,
 * null: the default), and the passes that delete the expired ones: at start, then hourly, and
 * at once when Settings shorten it. One pass at a time; a pass asked for during one runs after it.
 */
export class ResultRetentionPolicy {
  private stored: number | null = null;
  private last: RetentionRun | null = null;
  private running: Promise<RetentionRun | null> | null = null;
  private again = false;
  private stopping = false;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly options: ResultRetentionOptions) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Reads the value saved in Settings. */
  async load(): Promise<void> {
    this.stored = await storedRetentionDays(this.options.db);
  }

  get days(): number {
    return this.stored ?? DEFAULT_RESULT_RETENTION_DAYS;
  }

  describe(): ResultRetention {
    return {
      days: this.days,
      stored: this.stored,
      defaultDays: DEFAULT_RESULT_RETENTION_DAYS,
      lastRun: this.last,
    };
  }

  /** Saves the owner's choice; expired results are deleted in the background, the answer does not wait. */
  async save(days: number | null): Promise<ResultRetention> {
    await updateSettingsRow(this.options.db, { resultRetentionDays: days });
    this.stored = days;
    void this.deleteExpired();
    return this.describe();
  }

  /** A pass at once, then one every hour; the timer never keeps the process alive. */
  start(): void {
    void this.deleteExpired();
    this.timer = setInterval(() => void this.deleteExpired(), this.options.every ?? HOUR_MS);
    this.timer.unref?.();
  }

  /** Stops the timer and a pass under way (after its current statement). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass (or the one under way, followed by another); never rejects: a failure is logged. */
  deleteExpired(): Promise<RetentionRun | null> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let result: RetentionRun | null = null;
      try {
        do {
          this.again = false;
          result = await this.pass();
        } while (this.again && !this.stopping);
      } catch (error) {
        this.options.logger.error("could not delete expired results", { error });
      } finally {
        this.running = null;
      }
      return result;
    })();
    return this.running;
  }

  private async pass(): Promise<RetentionRun | null> {
    if (this.stopping || (this.options.writable && !this.options.writable())) return null;
    await this.load();
    const days = this.days;
    // One instance at a time deletes (db/jobs.ts); another one's pass under way does the work.
    const done = await alone(this.options.db, "result-retention", async () => {
      const run = await deleteExpiredResults(this.options.db, {
        now: this.now(),
        days,
        batchSize: this.options.batchSize,
        pause: this.options.pause,
        stopped: () => this.stopping,
      });
      // The write budgets' and throttles' rows that no longer mean anything go with them.
      await forgetExpiredLimits(this.options.db, this.now().getTime());
      return run;
    });
    if (!done) return null;
    const { quiz, earnings } = done;
    const deleted = quiz + earnings;
    this.last = { finishedAt: this.now().toISOString(), deleted };
    if (deleted > 0) {
      this.options.onDeleted?.(deleted);
      this.options.logger.info(
        `deleted ${deleted} saved result${deleted === 1 ? "" : "s"} older than ${describeRetention(days)} (${quiz} quiz, ${earnings} calculator)`,
      );
    }
    return this.last;
  }
}

/** The value saved in Settings (null: the default); a missing settings row reads as none. */
async function storedRetentionDays(db: Db): Promise<number | null> {
  const [row] = await db
    .select({ days: siteSettings.resultRetentionDays })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
    .limit(1);
  return row?.days ?? null;
}

/** Days a saved result is kept now, as Settings say (for the result reads and the privacy page). */
export async function resultRetentionDays(db: Db): Promise<number> {
  return (await storedRetentionDays(db)) ?? DEFAULT_RESULT_RETENTION_DAYS;
}

/** GET and PUT /api/admin/settings/result-retention, behind the admin guard (see app.ts). */
export function resultRetentionRoutes(policy: ResultRetentionPolicy) {
  return new Elysia({ name: "result-retention-admin" })
    .get("/settings/result-retention", async () => {
      await policy.load();
      return policy.describe();
    })
    .put("/settings/result-retention", ({ body }) => policy.save(body.days), adminJson(ResultRetentionInput));
}
