// DATA_DIR holds the database, the session secret and the uploads. It is private to the
// user cam-guide runs as (folders 0700, files 0600). A lock file in it says who is using
// it (src/server/db/lock.ts): one server at a time, no restore while anything else runs.
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { removeDatabaseSideFiles } from "./db/snapshot.ts";
import { UPLOAD_NAME } from "./features/uploads/service.ts";

export const LOCK_FILE = "cam-guide.lock";
/** Held by the process writing an automatic backup for as long as it runs (src/server/db/lock.ts). */
export const BACKUP_LOCK_FILE = "cam-guide-backup.lock";
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** A refusal about DATA_DIR; its message is written for the operator. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataDirError";
  }
}

/** Makes `dir` (and missing parents) with mode 0700 whatever the umask; true when it was missing. */
export function makePrivateDir(dir: string): boolean {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new DataDirError(`DATA_DIR (${dir}) is not a folder.`);
    return false;
  }
  try {
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    chmodSync(dir, DIR_MODE);
  } catch (error) {
    throw new DataDirError(`Cannot create DATA_DIR ${dir}: ${(error as Error).message}`);
  }
  return true;
}

/** Creates `file` empty with mode 0600 if it is missing, and sets 0600 whatever the umask. */
export function makePrivateFile(file: string): void {
  closeSync(openSync(file, "a", FILE_MODE));
  chmodSync(file, FILE_MODE);
}

/**
 * A command run as root (sudo cam-guide restore) must not leave files in DATA_DIR that only
 * root can read: the server, running as DATA_DIR's owner, could no longer open them. Gives
 * `paths` to the owner of `dir` when this process is root; does nothing otherwise.
 */
export function giveToOwnerOf(dir: string, paths: string[]): void {
  if (process.getuid?.() !== 0) return;
  const { uid, gid } = statSync(dir);
  if (uid === 0) return;
  for (const path of paths) chownSync(path, uid, gid);
}

/**
 * Tightens what an older cam-guide (or a loose umask) left readable by others: DATA_DIR and
 * DATA_DIR/uploads to 0700, the files in them to 0600. Links are not followed. Returns one
 * line per thing it could not fix, and how many it fixed.
 */
export function tightenDataDir(dir: string): { fixed: number; problems: string[] } {
  const problems: string[] = [];
  let fixed = 0;
  const tighten = (path: string) => {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat || !(stat.isFile() || stat.isDirectory())) return;
    const wanted = stat.isDirectory() ? DIR_MODE : FILE_MODE;
    if ((stat.mode & 0o777) === wanted) return;
    if (stat.isDirectory() && stat.mode & 0o1000) {
      // A shared folder such as /tmp: changing it would break other programs.
      problems.push(`${path} is a shared folder (sticky bit); give cam-guide a folder of its own as DATA_DIR.`);
      return;
    }
    try {
      chmodSync(path, wanted);
      fixed++;
    } catch (error) {
      problems.push(`Cannot make ${path} private (${(error as Error).message}); others may read it.`);
    }
  };
  tighten(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Dirent types come from lstat: links are neither files nor folders here.
    const path = join(dir, entry.name);
    if (entry.isFile()) tighten(path);
    else if (entry.isDirectory()) {
      tighten(path);
      if (entry.name === "uploads")
        for (const upload of readdirSync(path, { withFileTypes: true }))
          if (upload.isFile()) tighten(join(path, upload.name));
    }
  }
  return { fixed, problems };
}

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
  if (!existsSync(marker)) writeFileSync(marker, MARKER_TEXT(new Date().toISOString()), { mode: FILE_MODE });
}
