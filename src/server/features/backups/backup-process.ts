import { existsSync } from "node:fs";
import { join } from "node:path";
import { siteDatabase } from "#server/data-dir.ts";
import { openDatabase } from "#server/db/client.ts";
import { lockBackupRun } from "#server/db/lock.ts";
import { describeFailure } from "#server/features/backups/archive.ts";
import { type AutoBackupResult, autoBackup } from "./auto-backup.ts";
import type { BackupKind } from "./files.ts";
import type { OffSite } from "./offsite.ts";
import { finishRun, nameRun, startRun } from "./runs.ts";

/**
 * What `cam-guide backup-auto` tells the server that started it, one JSON line each: the run
 * it recorded ("started"), or that another run holds the lock ("busy"); then how it ended.
 */
export type BackupReport = { started: { id: number; startedAt: string } } | { busy: true } | AutoBackupResult;

/** One line of the child's output as a report; null for anything else. */
export function parseReport(line: string): BackupReport | null {
  try {
    const value = JSON.parse(line) as BackupReport | null;
    if (!value || typeof value !== "object") return null;
    if ("started" in value && typeof value.started?.id === "number") return value;
    if ("busy" in value && value.busy === true) return value;
    if ("ok" in value && typeof value.ok === "boolean") return value;
  } catch {
    // Not a report.
  }
  return null;
}

/**
 * The whole of one run, in the process `cam-guide backup-auto` (the caller holds DATA_DIR's
 * shared lock): the backup-run lock first, held until the process ends, so no other run can
 * start beside this one whichever server asks; then the run's record, written here and not
 * by the server, so it follows the file even when the server that started the run is killed
 * meanwhile. Answers the result, or null when another run holds the lock.
 */
export async function backupProcess(
  options: {
    dataDir: string;
    backupDir: string;
    kind: BackupKind;
    keep: number;
    signal?: AbortSignal;
    offSite?: OffSite | null;
  },
  report: (message: BackupReport) => void,
): Promise<AutoBackupResult | null> {
  const { dataDir } = options;
  let lock: ReturnType<typeof lockBackupRun>;
  try {
    lock = lockBackupRun(dataDir);
  } catch (error) {
    return ended({ ok: false, error: (error as Error).message }, report);
  }
  if (!lock) {
    report({ busy: true });
    return null;
  }
  try {
    const file = join(dataDir, "app.db");
    if (!existsSync(file)) return ended({ ok: false, error: `No database at ${file}; is DATA_DIR right?` }, report);
    // Judged before SQLite opens it, as every command does: the run is recorded in it.
    const found = siteDatabase(dataDir);
    if (found.state === "unrecognised")
      return ended({ ok: false, error: `The database ${file} ${found.problem}; nothing was backed up.` }, report);
    const database = openDatabase(file);
    try {
      const { db } = database;
      let run: Awaited<ReturnType<typeof startRun>>;
      try {
        run = await startRun(db, options.kind === "auto" ? "schedule" : "manual");
      } catch (error) {
        return ended({ ok: false, error: `The run could not be recorded: ${describeFailure(error, file)}` }, report);
      }
      report({ started: { id: run.id, startedAt: run.startedAt.toISOString() } });
      const result = await autoBackup({ ...options, named: (name) => nameRun(db, run.id, name) });
      try {
        await finishRun(db, run.id, result);
      } catch {
        // The server that started the run records it from the report below; failing that,
        // the next server start finds the file under the name recorded before it was given.
      }
      return ended(result, report);
    } finally {
      database.close();
    }
  } finally {
    lock.release();
  }
}

function ended(result: AutoBackupResult, report: (message: BackupReport) => void): AutoBackupResult {
  report(result);
  return result;
}
