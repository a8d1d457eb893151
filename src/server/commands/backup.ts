// `cam-guide backup <file>` and `cam-guide backup-auto`: a backup now, or the scheduled one.

import { resolve } from "node:path";
import { lockDataDir } from "#server/db/lock.ts";
import type { Config } from "#server/env.ts";
import { backup, describeFailure } from "#server/features/backups/archive.ts";
import { backupProcess } from "#server/features/backups/backup-process.ts";
import { offSite } from "#server/features/backups/offsite.ts";
import { fail, interruptions, orFail } from "./common.ts";

export async function runBackup(config: Config, file: string) {
  const dir = resolve(config.dataDir);
  const controller = interruptions();
  // Only a shared lock, and only if a lock file exists: a backup writes nothing in DATA_DIR.
  const lock = orFail(() => lockDataDir(dir, "shared", { create: false }));
  try {
    const { files, path } = await backup(dir, resolve(file), { raw: file, signal: controller.signal });
    console.log(`Backup written to ${path} (${files} files: the database, its secret and the uploads).`);
  } catch (error) {
    // A signal that arrived during a blocking step is delivered on the next turn.
    await new Promise((resolve) => setImmediate(resolve));
    if (controller.signal.aborted) fail(`Backup interrupted (${controller.signal.reason}); nothing was written.`);
    fail(`Backup failed: ${describeFailure(error, resolve(file))} No backup was written.`);
  } finally {
    lock.release();
  }
}

/**
 * `backup-auto <auto|manual> <keep>`: one run, recorded in the database by this process, its
 * progress as JSON lines on stdout for the server that started it (which may be gone).
 */
export async function runAutoBackup(config: Config, kind: string | undefined, keep: string | undefined) {
  if ((kind !== "auto" && kind !== "manual") || !/^\d{1,3}$/.test(keep ?? "") || Number(keep) < 1)
    fail("Usage: cam-guide backup-auto <auto|manual> <keep> (the server runs it; see BACKUP_CRON)");
  const dir = resolve(config.dataDir);
  const controller = interruptions();
  const lock = orFail(() => lockDataDir(dir, "shared", { create: false }));
  try {
    const result = await backupProcess(
      {
        dataDir: dir,
        backupDir: config.backupDir,
        kind,
        keep: Number(keep),
        signal: controller.signal,
        offSite: offSite(config.uploadBucket),
      },
      (report) => console.log(JSON.stringify(report)),
    );
    process.exitCode = result?.ok ? 0 : 1;
  } finally {
    lock.release();
  }
}
