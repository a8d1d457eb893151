import { existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { DIR_MODE } from "#server/data-dir.ts";
import {
  AUTOMATIC_TEMP,
  backup,
  backupFolderProblem,
  describeFailure,
  OperatorError,
  verifyBackup,
} from "#server/features/backups/archive.ts";
import { type BackupFileKind, backupFileName, rotateBackups } from "./files.ts";
import type { OffSite } from "./offsite.ts";

/** What one run did, as the child process reports it to the server (one JSON line). */
export type AutoBackupResult =
  | { ok: true; file: string; size: number; deleted: string[] }
  | { ok: false; error: string };

const PENDING = /^\.cam-guide-.*\.pending$/;
const VERIFYING = /^\.cam-guide-verify-/;

/**
 * A run killed midway (kill -9, a power cut) leaves only dot-names; the next run removes them.
 * Runs hold the backup-run lock, so the names found are never those of a run still going.
 */
function removeLeftovers(folder: string): void {
  for (const name of readdirSync(folder))
    if (PENDING.test(name) || VERIFYING.test(name) || name.startsWith(AUTOMATIC_TEMP))
      rmSync(join(folder, name), { recursive: true, force: true });
}

/**
 * One backup run, in the child process `cam-guide backup-auto` (never in the process serving
 * requests): a consistent snapshot written under a temporary dot-name in `backupDir`, checked
 * whole as a restore would check it, then renamed to cam-guide-<UTC time>.<kind>.tar; then
 * the automatic backups beyond `keep` are deleted. A run that fails or is killed leaves no
 * file under a final name. The caller holds the backup-run lock (`lockBackupRun`).
 */
export async function autoBackup(options: {
  dataDir: string;
  backupDir: string;
  kind: BackupFileKind;
  /** Automatic backups kept after this one; null deletes none (a backup taken before migrating). */
  keep: number | null;
  now?: Date;
  signal?: AbortSignal;
  /**
   * Told the file's final name once it has passed its check, before it gets that name: a run
   * whose process dies between the two is still found by its record.
   */
  named?: (name: string) => Promise<void>;
  /** Where each backup is copied off the machine (S3_BUCKET), or null. */
  offSite?: OffSite | null;
}): Promise<AutoBackupResult> {
  const { dataDir, backupDir, kind, keep, signal } = options;
  let pending: string | null = null;
  try {
    try {
      mkdirSync(backupDir, { recursive: true, mode: DIR_MODE });
    } catch (error) {
      throw new OperatorError(`Cannot create the backup folder: ${describeFailure(error, backupDir)}`);
    }
    const folder = realpathSync(backupDir);
    if (!statSync(folder).isDirectory()) throw new OperatorError(`The backup folder ${backupDir} is not a folder.`);
    const problem = backupFolderProblem(dataDir, folder);
    if (problem) throw new OperatorError(problem);
    removeLeftovers(folder);
    const name = backupFileName(options.now ?? new Date(), kind, (n) => existsSync(join(folder, n)));
    pending = join(folder, `.${name}.pending`);
    await backup(dataDir, pending, { signal, automaticDir: folder });
    try {
      await verifyBackup(pending, signal);
    } catch (error) {
      throw new OperatorError(`The backup was written but failed its check: ${describeFailure(error, pending)}`);
    }
    await options.named?.(name);
    const final = join(folder, name);
    renameSync(pending, final);
    pending = null;
    const deleted = keep === null ? [] : rotateBackups(folder, keep);
    try {
      await options.offSite?.copy(folder, name, deleted);
    } catch (error) {
      // The backup is here; the owner asked for a copy elsewhere too, and is told it is missing.
      throw new OperatorError(
        `The backup ${name} was written here, but could not be copied to the bucket (${(error as Error).message}); it is kept here.`,
      );
    }
    return { ok: true, file: name, size: statSync(final).size, deleted };
  } catch (error) {
    if (pending) rmSync(pending, { force: true });
    return { ok: false, error: describeFailure(error, backupDir) };
  }
}
