import { Cron } from "croner";
import { desc, eq } from "drizzle-orm";
import { dialect } from "#server/db/dialect.ts";
import { backupRunLocked } from "#server/db/lock.ts";
import type { Db } from "#server/db/types.ts";
import { cronProblem } from "#server/env.ts";
import { updateSettingsRow } from "#server/features/settings/settings-row.ts";
import { siteSettings } from "#server/features/settings/table.ts";
import type { Logger } from "#server/logger.ts";
import { HttpError } from "#server/plugins/errors.ts";
import {
  type BackupOverview,
  type BackupRun,
  type BackupSchedule,
  type BackupScheduleInput,
  type BackupSummary,
  DEFAULT_KEEP,
} from "#shared/features/backups/contract.ts";
import type { AutoBackupResult } from "./auto-backup.ts";
import { type BackupChild, startBackupChild } from "./child.ts";
import { backupsBesideData, listBackupFiles } from "./files.ts";
import {
  BackupBusy,
  backupBusy,
  finishRun,
  lastFinishedBackup,
  RUNS_SHOWN,
  runningRuns,
  settleRuns,
  startRun,
  toRun,
} from "./runs.ts";
import { backupRuns } from "./table.ts";

/** How often a server looks again at a run another process owns, to notice when it ends. */
const ORPHAN_CHECK_MS = 2000;

/**
 * On PostgreSQL the database is not a file in DATA_DIR this server can copy: it is backed up where
 * it lives (docs/deploy.md), and this server takes no backup of its own.
 */
const POSTGRES_BACKUPS =
  "This site's database is PostgreSQL: back it up with pg_dump or your provider's backups (docs/deploy.md says how). cam-guide's own backups copy a SQLite database, so none was started.";

/** What the Backups section says on PostgreSQL instead of its schedule and button. */
const POSTGRES_ELSEWHERE =
  "This site's database is PostgreSQL, so cam-guide does not back it up: back it up where it lives, with your provider's automatic backups or pg_dump on a schedule, and copy DATA_DIR/uploads beside each one, or, with the uploads in a bucket (S3_BUCKET), turn on the bucket's versioning (docs/deploy.md, On PostgreSQL).";

/** The longest a press waits for a run's process that is starting or ending. */
const PASSING_MS = 3000;

export interface BackupsOptions {
  db: Db;
  dataDir: string;
  backupDir: string;
  /** BACKUP_CRON ("off" included) and BACKUP_KEEP; null when unset, so the Settings decide. */
  env: { cron: string | null; keep: number | null };
  logger: Logger;
}

/**
 * Automatic backups for one server: the schedule (BACKUP_CRON, else the Settings; changed
 * at once, without a restart), "Back up now", and the record of every run. Each run is a
 * child process (`cam-guide backup-auto`), so the database copy, the tar and its check never
 * hold up a request. The child owns its run: it holds the backup-run lock in DATA_DIR while
 * it lives and records the run itself, so one run goes at a time across restarts (and
 * servers), and a run outlives a killed server with a true record.
 */
export class Backups {
  private job: Cron | null = null;
  private child: BackupChild | null = null;
  private current: Promise<void> | null = null;
  /** The run this server's child recorded, while it goes. */
  private own: number | null = null;
  private orphanCheck: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(private readonly options: BackupsOptions) {}

  /**
   * At start: runs whose process is gone get their end recorded (a run another process still
   * owns is left to it), then the schedule starts.
   */
  async start(): Promise<void> {
    if (dialect === "postgresql") return;
    await this.settle();
    await this.reschedule();
  }

  /**
   * Records the end of runs whose process died without saying; while another process's run
   * goes, looks again every few seconds, so its end is noticed without anyone asking.
   */
  private async settle(): Promise<void> {
    const { db, dataDir, backupDir, logger } = this.options;
    let going: boolean;
    try {
      going = await settleRuns(db, { dataDir, backupDir, watched: this.own });
    } catch (error) {
      // A database that cannot be written now (a full disk) must not break the reads that
      // settle first, /healthz above all; the next settle tries again.
      logger.error("could not record the end of a backup run", { error });
      return;
    }
    // This server's own run is watched through its child.
    if (!going || this.own !== null || this.stopped || this.orphanCheck) return;
    this.orphanCheck = setTimeout(() => {
      this.orphanCheck = null;
      void this.settle();
    }, ORPHAN_CHECK_MS);
    this.orphanCheck.unref?.();
  }

  /**
   * Waits (briefly) while a run's process holds the lock with no run recorded as going: it has
   * recorded its end and is exiting, or has just taken the lock and is recording its start.
   * A press right after a run ends then starts the next run rather than being refused.
   */
  private async passing(): Promise<void> {
    const deadline = Date.now() + PASSING_MS;
    while (Date.now() < deadline && (this.current || backupRunLocked(this.options.dataDir))) {
      if ((await runningRuns(this.options.db)).length > 0) return;
      await Bun.sleep(50);
    }
  }

  private busy(): Promise<BackupBusy> {
    return backupBusy(this.options.db);
  }

  private async stored(): Promise<{ cron: string | null; keep: number | null }> {
    const [row] = await this.options.db
      .select({ cron: siteSettings.backupCron, keep: siteSettings.backupKeep })
      .from(siteSettings)
      .where(eq(siteSettings.id, 1))
      .limit(1);
    return { cron: row?.cron ?? null, keep: row?.keep ?? null };
  }

  /** The schedule in force: the environment's when set, else the Settings', else off and 7. */
  async schedule(): Promise<BackupSchedule> {
    const { env } = this.options;
    const stored = await this.stored();
    const rawCron = env.cron ?? stored.cron;
    const cron = dialect === "postgresql" || !rawCron || rawCron === "off" || cronProblem(rawCron) ? null : rawCron;
    let nextRun: string | null = null;
    if (cron) {
      const probe = new Cron(cron, { paused: true, mode: "5-or-6-parts" });
      nextRun = probe.nextRun()?.toISOString() ?? null;
      probe.stop();
    }
    return {
      cron,
      keep: env.keep ?? stored.keep ?? DEFAULT_KEEP,
      cronSource: env.cron !== null ? "environment" : "settings",
      keepSource: env.keep !== null ? "environment" : "settings",
      nextRun,
      folder: this.options.backupDir,
    };
  }

  /** Starts (or stops) the timer for the schedule in force; called at start and after each change in Settings. */
  async reschedule(): Promise<void> {
    const { cron } = await this.schedule();
    this.job?.stop();
    this.job = null;
    if (!cron || this.stopped) return;
    this.job = new Cron(cron, { mode: "5-or-6-parts", protect: true }, async () => {
      // A run still going when the next is due (this server's or any other process's): this
      // one is skipped, never overlapped.
      try {
        await this.run("schedule");
      } catch (error) {
        if (error instanceof BackupBusy) this.options.logger.info(`scheduled backup skipped: ${error.running}`);
        else this.options.logger.error("could not start a backup", { error });
      }
    });
  }

  /** Saves the owner's schedule and count (Settings) and applies them at once. */
  async saveSchedule(input: BackupScheduleInput): Promise<BackupSchedule> {
    if (dialect === "postgresql") throw new HttpError(409, POSTGRES_BACKUPS);
    const cron = input.cron.trim().replace(/\s+/g, " ");
    const problem = cron && cron.toLowerCase() !== "off" ? cronProblem(cron) : null;
    if (problem) throw new HttpError(422, `${problem}.`, [{ field: "cron", message: `${problem}.` }]);
    await updateSettingsRow(this.options.db, {
      backupCron: cron && cron.toLowerCase() !== "off" ? cron : null,
      backupKeep: input.keep,
      updatedAt: new Date(),
    });
    await this.reschedule();
    return this.schedule();
  }

  /**
   * Starts one run in a child process and answers its record ("running") once the child has
   * taken the backup-run lock and recorded it; 409 while another run goes, whoever started it.
   */
  async run(trigger: "schedule" | "manual"): Promise<BackupRun> {
    if (this.stopped) throw new HttpError(503, "The server is stopping; no backup was started.");
    if (dialect === "postgresql") throw new HttpError(409, POSTGRES_BACKUPS);
    await this.passing();
    if (this.current) throw await this.busy();
    // Taken before the first await, so two calls at once cannot both start a child.
    let release = () => {};
    this.current = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ours = true;
    const done = () => {
      ours = false;
      this.current = null;
      this.child = null;
      this.own = null;
      release();
    };
    try {
      await this.settle();
      // Asked first to spare a process start; the child's own lock is what decides.
      if (backupRunLocked(this.options.dataDir)) throw await this.busy();
      const { keep } = await this.schedule();
      const { dataDir, backupDir, db } = this.options;
      const child = startBackupChild(trigger === "schedule" ? "auto" : "manual", keep, {
        DATA_DIR: dataDir,
        BACKUP_DIR: backupDir,
      });
      this.child = child;
      const first = await child.first;
      if (first && "started" in first) {
        // From here the watch ends the run, whatever happens to this request.
        ours = false;
        this.own = first.started.id;
        void this.watch(child, first.started.id).finally(done);
        return this.record(first.started.id);
      }
      const result = await child.ended;
      if (first && "busy" in first) throw await this.busy();
      // The child ended before it could record a run: the server records why.
      const row = await startRun(db, trigger);
      await finishRun(db, row.id, result);
      this.log(result);
      done();
      return this.record(row.id);
    } catch (error) {
      if (ours) done();
      throw error;
    }
  }

  private async record(id: number): Promise<BackupRun> {
    const [row] = await this.options.db.select().from(backupRuns).where(eq(backupRuns.id, id)).limit(1);
    return toRun(row!);
  }

  /** Waits for this server's child to end; records the end only when the child could not. */
  private async watch(child: BackupChild, id: number): Promise<void> {
    const result = await child.ended;
    try {
      await finishRun(this.options.db, id, result, { onlyIfRunning: true });
    } catch (error) {
      this.options.logger.error("could not record the backup run", { error });
    }
    this.log(result);
  }

  private log(result: AutoBackupResult): void {
    if (result.ok)
      this.options.logger.info(`backup written: ${result.file} (${result.size} bytes)`, { deleted: result.deleted });
    else this.options.logger.error(`backup failed: ${result.error}`);
  }

  /** Resolves once no run of this server's is going (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.current) await this.current;
  }

  /** Whether BACKUP_DIR is inside DATA_DIR or on its disk (one failing disk would take both). */
  besideData(): boolean {
    if (dialect === "postgresql") return false;
    return backupsBesideData(this.options.dataDir, this.options.backupDir);
  }

  /** Everything the Backups section shows. */
  async overview(): Promise<BackupOverview> {
    await this.settle();
    const rows = await this.options.db.select().from(backupRuns).orderBy(desc(backupRuns.id)).limit(RUNS_SHOWN);
    const runs = rows.map(toRun);
    return {
      schedule: await this.schedule(),
      running: runs.find((run) => run.status === "running") ?? null,
      runs,
      files: listBackupFiles(this.options.backupDir),
      besideData: this.besideData(),
      elsewhere: dialect === "postgresql" ? POSTGRES_ELSEWHERE : null,
    };
  }

  async summary(): Promise<BackupSummary> {
    await this.settle();
    return {
      last: await lastFinishedBackup(this.options.db),
      running: (await runningRuns(this.options.db)).length > 0,
      schedule: await this.schedule(),
    };
  }

  /** For /healthz: the last run's result when backups are scheduled, else null. */
  async health(): Promise<{ status: "ok" | "degraded"; result: string; at: string | null } | null> {
    const { cron } = await this.schedule();
    if (!cron) return null;
    await this.settle();
    const last = await lastFinishedBackup(this.options.db);
    if (!last) return { status: "ok", result: "none yet", at: null };
    return { status: last.status === "ok" ? "ok" : "degraded", result: last.status, at: last.finishedAt };
  }

  /** On shutdown: no new run; this server's run is stopped (it removes its temporary files and records why). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.job?.stop();
    this.job = null;
    if (this.orphanCheck) clearTimeout(this.orphanCheck);
    this.orphanCheck = null;
    this.child?.stop();
    await this.idle();
  }
}
