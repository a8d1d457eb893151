import { statSync } from "node:fs";
import { and, desc, eq } from "drizzle-orm";
import { backupRunLocked } from "#server/db/lock.ts";
import type { Db } from "#server/db/types.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { BackupRun, LastBackup } from "#shared/features/backups/contract.ts";
import type { HomeBackup } from "#shared/features/home/contract.ts";
import type { AutoBackupResult } from "./auto-backup.ts";
import { backupFilePath } from "./files.ts";
import { backupRuns } from "./table.ts";

// The record of each run in backup_runs. The process doing the run writes it (started, the
// file's name, the end), so it stays true when the server that started the run is gone; a
// server only fills in the end of a run whose process died without writing it.

type Row = typeof backupRuns.$inferSelect;

/** Runs listed in the admin. */
export const RUNS_SHOWN = 20;

/** Said of a run whose process is gone and left no backup. */
export const PROCESS_GONE = "The backup process stopped before it finished, so no backup was written.";

export const toRun = (row: Row): BackupRun => ({
  id: row.id,
  trigger: row.trigger,
  status: row.status,
  startedAt: row.startedAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
  // The name is recorded before the file has it; it is the run's file only once it succeeded.
  file: row.status === "ok" ? row.file : null,
  size: row.size,
  error: row.error,
});

/** A run begins: its record, "running". */
export async function startRun(db: Db, trigger: Row["trigger"]): Promise<Row> {
  const [row] = await db.insert(backupRuns).values({ trigger, status: "running" }).returning();
  return row!;
}

/** The name the run's backup gets, recorded before the file is given it. */
export async function nameRun(db: Db, id: number, file: string): Promise<void> {
  await db.update(backupRuns).set({ file }).where(eq(backupRuns.id, id));
}

/**
 * A run's end. The run's own process records it as it is; a server (`onlyIfRunning`) records
 * it only when the process did not, so it never overwrites what the process said.
 */
export async function finishRun(
  db: Db,
  id: number,
  result: AutoBackupResult,
  { onlyIfRunning = false, at = new Date() } = {},
): Promise<boolean> {
  const ended = await db
    .update(backupRuns)
    .set(
      result.ok
        ? { status: "ok", finishedAt: at, file: result.file, size: result.size, error: null }
        : { status: "failed", finishedAt: at, file: null, size: null, error: result.error },
    )
    .where(onlyIfRunning ? and(eq(backupRuns.id, id), eq(backupRuns.status, "running")) : eq(backupRuns.id, id))
    .returning({ id: backupRuns.id });
  return ended.length > 0;
}

/** The runs recorded as running, newest first. */
export function runningRuns(db: Db): Promise<Row[]> {
  return db.select().from(backupRuns).where(eq(backupRuns.status, "running")).orderBy(desc(backupRuns.id));
}

/**
 * Ends the records of runs whose process is gone: while a process holds the backup-run lock,
 * the newest running record is its run and stays; every other running record's process died
 * without saying how it ended (kill -9, a power cut). Such a run succeeded when its backup
 * file exists under the name it recorded (the file is named only once checked), else it
 * failed. Answers whether another process's run is still going.
 */
export async function settleRuns(
  db: Db,
  { dataDir, backupDir, watched }: { dataDir: string; backupDir: string; watched: number | null },
): Promise<boolean> {
  const running = await runningRuns(db);
  if (running.length === 0) return false;
  const live = backupRunLocked(dataDir);
  for (const row of live ? running.slice(1) : running) {
    // The run of this server's own child: its end is recorded from the child's exit, which says more.
    if (row.id === watched) continue;
    const path = row.file ? backupFilePath(backupDir, row.file) : null;
    const stat = path ? statSync(path, { throwIfNoEntry: false }) : undefined;
    await finishRun(
      db,
      row.id,
      stat && row.file
        ? { ok: true, file: row.file, size: stat.size, deleted: [] }
        : { ok: false, error: PROCESS_GONE },
      { onlyIfRunning: true, at: stat?.mtime },
    );
  }
  return live;
}

/**
 * The last finished backup run (ok or failed), for the admin home and /healthz; null when
 * none has finished yet.
 */
export async function lastFinishedBackup(db: Db): Promise<LastBackup | null> {
  const rows = await db.select().from(backupRuns).orderBy(desc(backupRuns.id)).limit(RUNS_SHOWN);
  const row = rows.find((r) => r.status !== "running" && r.finishedAt);
  if (!row || row.status === "running") return null;
  return { status: row.status, finishedAt: row.finishedAt!.toISOString(), size: row.size, error: row.error };
}

/**
 * The latest backup run, whatever its state (running included), for the admin home; null
 * when none ever ran.
 */
export async function latestBackupRun(db: Db): Promise<HomeBackup | null> {
  const [run] = await db.select().from(backupRuns).orderBy(desc(backupRuns.startedAt), desc(backupRuns.id)).limit(1);
  if (!run) return null;
  return {
    status: run.status,
    trigger: run.trigger,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    size: run.size,
    error: run.error,
  };
}

/** "Back up now" while a run is going (this server's or another process's): 409. */
export class BackupBusy extends HttpError {
  constructor(readonly running: string) {
    super(409, `${running}; wait for it to finish, then try again.`);
  }
}

/** "2026-11-24 03:30:05 UTC" */
const utc = (at: Date) => `${at.toISOString().slice(0, 19).replace("T", " ")} UTC`;

/** The refusal for a run while another goes, saying when that one started once it is recorded. */
export async function backupBusy(db: Db): Promise<BackupBusy> {
  const [newest] = await runningRuns(db);
  return new BackupBusy(
    newest ? `A backup is already running (started at ${utc(newest.startedAt)})` : "A backup is already running",
  );
}
