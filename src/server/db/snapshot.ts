import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";

// What a backup needs from the database, as functions another database could provide
// (PostgreSQL: pg_dump and pg_restore's own checks).

/** Writes a consistent copy of the database in `file` to `target` while others keep writing to it. */
export async function snapshotDatabase(file: string, target: string): Promise<void> {
  const source = new Database(file, { readonly: true });
  try {
    source.run("PRAGMA busy_timeout = 5000");
    // VACUUM INTO reads one snapshot of the database, so writers carry on meanwhile.
    source.run(`VACUUM INTO '${target.replace(/'/g, "''")}'`);
  } finally {
    source.close();
  }
}

/** null when the database in `file` is sound, else what is wrong with it. */
export async function databaseFileProblem(file: string): Promise<string | null> {
  const check = new Database(file, { readonly: true });
  try {
    const { integrity_check: verdict } = check.query("PRAGMA integrity_check").get() as { integrity_check: string };
    return verdict === "ok" ? null : verdict;
  } finally {
    check.close();
  }
}

/** Removes what a previous database left beside its file, before another file takes its place. */
export function removeDatabaseSideFiles(file: string): void {
  for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
}
