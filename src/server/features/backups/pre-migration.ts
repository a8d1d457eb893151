import { existsSync } from "node:fs";
import { join } from "node:path";
import { inspectDatabaseFile } from "#server/db/file-view.ts";
import { type AutoBackupResult, autoBackup } from "./auto-backup.ts";

/**
 * Before a start applies migrations to an existing site's database (a new release in place
 * of the old one), a whole backup of the site as the old release left it, in BACKUP_DIR:
 * cam-guide-<UTC time>.pre-migration-<from>-to-<to>.tar, always kept, listed in the admin.
 * With the old executable it restores the site as it was (docs/upgrade.md). Answers null
 * when nothing is pending (or there is no database yet), else how the backup went; the
 * caller does not migrate without one.
 */
export async function backUpBeforeMigrating(dataDir: string, backupDir: string): Promise<AutoBackupResult | null> {
  const file = join(dataDir, "app.db");
  if (!existsSync(file)) return null;
  const { pending } = inspectDatabaseFile(file);
  if (!pending) return null;
  return autoBackup({ dataDir, backupDir, kind: `pre-migration-${pending.from}-to-${pending.to}`, keep: null });
}
