import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDatabaseSideFiles } from "./db/snapshot.ts";
import { UPLOAD_NAME } from "./features/uploads/service.ts";

// What DATA_DIR says about the site it holds. A folder that once held a site but has lost its
// database must not quietly become a new, empty site: the server would start, seed itself and
// answer as if nothing happened, while the real data is gone.

/** Written beside the database the first time one is created; its presence means "a site lived here". */
export const SITE_MARKER = "site-created";

const MARKER_TEXT = (date: string) =>
  `A cam-guide site's database was created in this folder on ${date}.\n` +
  "While this file is here and app.db is missing, cam-guide refuses to start: restore a backup\n" +
  "(cam-guide restore <file>) or, to begin again with an empty site, run cam-guide new-database.\n";

export class MissingDatabaseError extends Error {
  constructor(dataDir: string, signs: string[]) {
    super(
      `DATA_DIR ${dataDir} held a site (${signs.join(", ")}) but its database app.db is missing.\n` +
        "Nothing was started and nothing was changed, so no data is overwritten. Either:\n" +
        `  - put the database back: cam-guide restore <backup file> (or move app.db back into ${dataDir}), or\n` +
        "  - begin again with an empty site on purpose: cam-guide new-database (uploads and the session\n" +
        "    secret are kept), then start the server again.",
    );
    this.name = "MissingDatabaseError";
  }
}

/** What in `dataDir` shows that a site existed there: empty when nothing does. */
export function signsOfASite(dataDir: string): string[] {
  const signs: string[] = [];
  if (existsSync(join(dataDir, SITE_MARKER))) signs.push(SITE_MARKER);
  if (existsSync(join(dataDir, "jwt-secret"))) signs.push("jwt-secret");
  for (const suffix of ["-wal", "-shm"])
    if (existsSync(join(dataDir, `app.db${suffix}`))) signs.push(`app.db${suffix}`);
  try {
    const uploads = readdirSync(join(dataDir, "uploads")).filter((name) => UPLOAD_NAME.test(name)).length;
    if (uploads > 0) signs.push(`${uploads} upload${uploads === 1 ? "" : "s"}`);
  } catch {
    // no uploads folder
  }
  return signs;
}

/**
 * Throws MissingDatabaseError when app.db is missing from a DATA_DIR that held a site, unless
 * `startOver` (cam-guide new-database) says an empty site is wanted; then what the old database
 * left beside it is removed, so a new file never meets an old log.
 */
export function checkDatabasePresent(dataDir: string, { startOver = false } = {}): void {
  const db = join(dataDir, "app.db");
  if (existsSync(db)) return;
  const signs = signsOfASite(dataDir);
  if (signs.length === 0) return;
  if (!startOver) throw new MissingDatabaseError(dataDir, signs);
  removeDatabaseSideFiles(db);
}

/** Records that a database exists in `dataDir` (once; kept for good). */
export function markSite(dataDir: string): void {
  const marker = join(dataDir, SITE_MARKER);
  if (!existsSync(marker)) writeFileSync(marker, MARKER_TEXT(new Date().toISOString()), { mode: 0o600 });
}
