import { join } from "node:path";
import { Cron } from "croner";
import { desc, eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { cronProblem } from "#server/env.ts";
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
  type LastBackup,
} from "#shared/features/backups/contract.ts";
import type { AutoBackupResult } from "./auto-backup.ts";
import { listBackupFiles } from "./files.ts";
import { backupRuns } from "./table.ts";

/** Runs listed in the admin. */
const RUNS_SHOWN = 20;

type Row = typeof backupRuns.$inferSelect;

const toRun = (row: Row): BackupRun => ({
  id: row.id,
  trigger: row.trigger,
  status: row.status,
  startedAt: row.startedAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
  file: row.file,
  size: row.size,
  error: row.error,
});

/**
 * The last finished backup run (ok or failed), for the admin home and /healthz; null when
 * none has finished yet.
 */
export async function lastBackup(db: Db): Promise<LastBackup | null> {
  const rows = await db.select().from(backupRuns).orderBy(desc(backupRuns.id)).limit(RUNS_SHOWN);
  const row = rows.find((r) => r.status !== "running" && r.finishedAt);
  if (!row || row.status === "running") return null;
  return { status: row.status, finishedAt: row.finishedAt!.toISOString(), size: row.size, error: row.error };
}

/** The command that runs one backup in a child process: this same program, compiled or from source. */
export function backupCommand(kind: "auto" | "manual", keep: number): string[] {
  const program = Bun.isStandaloneExecutable
    ? [process.execPath]
    : [process.execPath, join(import.meta.dir, "../../main.ts")];
  return [...program, "backup-auto", kind, String(keep)];
}

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
 * hold up a request; one at a time.
 */
export class Backups {
  private job: Cron | null = null;
  private child: ReturnType<typeof Bun.spawn> | null = null;
  private current: { id: number; done: Promise<void> } | null = null;
  private stopped = false;

  constructor(private readonly options: BackupsOptions) {}

  /** At start: a run left "running" by a server that stopped meanwhile is failed, then the schedule starts. */
  async start(): Promise<void> {
    await this.options.db
      .update(backupRuns)
      .set({ status: "failed", finishedAt: new Date(), error: "The server stopped before this backup finished." })
      .where(eq(backupRuns.status, "running"));
    await this.reschedule();
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
    const cron = !rawCron || rawCron === "off" || cronProblem(rawCron) ? null : rawCron;
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
    this.job = new Cron(cron, { mode: "5-or-6-parts", protect: true }, () => {
      // A run still going when the next is due: this one is skipped, never overlapped.
      if (this.current) return;
      this.run("schedule").catch((error) => this.options.logger.error("could not start a backup", { error }));
    });
  }

  /** Saves the owner's schedule and count (Settings) and applies them at once. */
  async saveSchedule(input: BackupScheduleInput): Promise<BackupSchedule> {
    const cron = input.cron.trim().replace(/\s+/g, " ");
    const problem = cron && cron.toLowerCase() !== "off" ? cronProblem(cron) : null;
    if (problem) throw new HttpError(422, `${problem}.`, [{ field: "cron", message: `${problem}.` }]);
    await this.options.db
      .update(siteSettings)
      .set({
        backupCron: cron && cron.toLowerCase() !== "off" ? cron : null,
        backupKeep: input.keep,
        updatedAt: new Date(),
      })
      .where(eq(siteSettings.id, 1));
    await this.reschedule();
    return this.schedule();
  }

  /**
   * Starts one run in a child process and answers its record at once ("running"); 409 while
   * another run is going. The run's end is recorded when the child exits.
   */
  async run(trigger: "schedule" | "manual"): Promise<BackupRun> {
    if (this.current) throw new HttpError(409, "A backup is already running; wait for it to finish, then try again.");
    if (this.stopped) throw new HttpError(503, "The server is stopping; no backup was started.");
    // Taken before the first await, so two calls at once cannot both start.
    let release = () => {};
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.current = { id: 0, done };
    try {
      const { keep } = await this.schedule();
      const [row] = await this.options.db.insert(backupRuns).values({ trigger, status: "running" }).returning();
      this.current.id = row!.id;
      void this.watch(row!.id, trigger, keep).finally(() => {
        this.current = null;
        release();
      });
      return toRun(row!);
    } catch (error) {
      this.current = null;
      release();
      throw error;
    }
  }

  private async watch(id: number, trigger: "schedule" | "manual", keep: number): Promise<void> {
    const { dataDir, backupDir, logger, db } = this.options;
    let result: AutoBackupResult;
    try {
      const child = Bun.spawn(backupCommand(trigger === "schedule" ? "auto" : "manual", keep), {
        env: { ...process.env, DATA_DIR: dataDir, BACKUP_DIR: backupDir },
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      this.child = child;
      const [out, err, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      result = parseResult(out) ?? {
        ok: false,
        error: `The backup process stopped before it finished (${child.signalCode ? `signal ${child.signalCode}` : `exit code ${code}`}${lastLine(err) ? `: ${lastLine(err)}` : ""}).`,
      };
    } catch (error) {
      result = { ok: false, error: `The backup process could not be started (${(error as Error).message}).` };
    } finally {
      this.child = null;
    }
    try {
      await db
        .update(backupRuns)
        .set(
          result.ok
            ? { status: "ok", finishedAt: new Date(), file: result.file, size: result.size }
            : { status: "failed", finishedAt: new Date(), error: result.error },
        )
        .where(eq(backupRuns.id, id));
    } catch (error) {
      logger.error("could not record the backup run", { error });
    }
    if (result.ok) logger.info(`backup written: ${result.file} (${result.size} bytes)`, { deleted: result.deleted });
    else logger.error(`backup failed: ${result.error}`);
  }

  /** Resolves once no run is going (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.current) await this.current.done;
  }

  /** Everything the Backups section shows. */
  async overview(): Promise<BackupOverview> {
    const rows = await this.options.db.select().from(backupRuns).orderBy(desc(backupRuns.id)).limit(RUNS_SHOWN);
    const runs = rows.map(toRun);
    return {
      schedule: await this.schedule(),
      running: runs.find((run) => run.status === "running") ?? null,
      runs,
      files: listBackupFiles(this.options.backupDir),
    };
  }

  async summary(): Promise<BackupSummary> {
    return {
      last: await lastBackup(this.options.db),
      running: this.current !== null,
      schedule: await this.schedule(),
    };
  }

  /** For /healthz: the last run's result when backups are scheduled, else null. */
  async health(): Promise<{ status: "ok" | "degraded"; result: string; at: string | null } | null> {
    const { cron } = await this.schedule();
    if (!cron) return null;
    const last = await lastBackup(this.options.db);
    if (!last) return { status: "ok", result: "none yet", at: null };
    return { status: last.status === "ok" ? "ok" : "degraded", result: last.status, at: last.finishedAt };
  }

  /** On shutdown: no new run; a run going is stopped (it removes its temporary files). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.job?.stop();
    this.job = null;
    this.child?.kill("SIGTERM");
    await this.idle();
  }
}

function lastLine(text: string): string {
  return text.trim().split("\n").pop()?.replace(/\s+/g, " ").slice(0, 300) ?? "";
}

/** The child's report: its last line of output, JSON. */
function parseResult(out: string): AutoBackupResult | null {
  try {
    const value = JSON.parse(out.trim().split("\n").pop() || "null") as AutoBackupResult | null;
    if (value && typeof value === "object" && typeof value.ok === "boolean") return value;
  } catch {
    // Not a report: the child stopped before writing one.
  }
  return null;
}
