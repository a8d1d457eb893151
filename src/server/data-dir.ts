// DATA_DIR holds the database, the session secret and the uploads. It is private to the
// user cam-guide runs as (folders 0700, files 0600). A lock file in it says who is using
// it (src/server/db/lock.ts): one server at a time, no restore while anything else runs.
import {
  appendFileSync,
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { UNSTEADY } from "./db/file-view.ts";
import { recogniseDatabaseFile } from "./db/identity.ts";
import { DATABASE_SIDE_FILES } from "./db/snapshot.ts";
import { UPLOAD_NAME } from "./features/media/uploads.ts";

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

// What DATA_DIR says about the site it holds. A folder that once held a site but whose
// database went missing, or is no longer a cam-guide database (emptied, cut short, overwritten,
// another program's or another site's), must not quietly become a new, empty site: the server
// would start, seed itself and answer as if nothing happened, while the real data is gone. And
// a file that is not recognised is never opened by SQLite, which could fold its write-ahead
// log into it or delete the log: both stay as they are, for recovery.

/** Written beside the database the first time one is created; its presence means "a site lived here". */
export const SITE_MARKER = "site-created";

const MARKER_TEXT = (date: string) =>
  `A cam-guide site's database was created in this folder on ${date}.\n` +
  "While this file is here and app.db is missing or not recognised, cam-guide refuses to start:\n" +
  "restore a backup (cam-guide restore <file>) or, to begin again with an empty site, run\n" +
  "cam-guide new-database. The ids below are those of the databases this folder has held.\n";

const ID_LINE = /^Database id: (\d+)$/gm;

/** A DATA_DIR whose database cannot be used; the message is one line naming the two ways out. */
export class UnusableDatabaseError extends DataDirError {
  constructor(message: string) {
    super(message);
    this.name = "UnusableDatabaseError";
  }
}

const WAYS_OUT =
  "Put a backup back with `cam-guide restore <backup file>`, or begin again with an empty site on purpose with `cam-guide new-database`";

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

/** The ids of the databases `dataDir` has held, from its site marker (none for an older marker). */
export function siteDatabaseIds(dataDir: string): number[] {
  try {
    return [...readFileSync(join(dataDir, SITE_MARKER), "utf8").matchAll(ID_LINE)].map((m) => Number(m[1]));
  } catch {
    return [];
  }
}

export type SiteDatabase =
  /** No app.db and no sign that a site lived here: a first start. */
  | { state: "none" }
  /** No app.db where a site lived. */
  | { state: "missing"; signs: string[] }
  /** A cam-guide database this folder may open; id null for one an older release made. */
  | { state: "ours"; id: number | null }
  | { state: "unrecognised"; problem: string };

/** What DATA_DIR's app.db is, judged without opening it with SQLite. */
export function siteDatabase(dataDir: string): SiteDatabase {
  const db = join(dataDir, "app.db");
  if (!lstatSync(db, { throwIfNoEntry: false })) {
    const signs = signsOfASite(dataDir);
    return signs.length === 0 ? { state: "none" } : { state: "missing", signs };
  }
  if (existsSync(join(dataDir, CHANGED_NOTE)))
    return {
      state: "unrecognised",
      problem: `was changed by another program while the server ran (${CHANGED_NOTE} says how and when), so its write-ahead log, written on top of the file as it was before, must not be folded into it`,
    };
  const recognised = recogniseDatabaseFile(db, siteDatabaseIds(dataDir), {
    siteHeld: existsSync(join(dataDir, SITE_MARKER)),
  });
  return recognised.ok ? { state: "ours", id: recognised.id } : { state: "unrecognised", problem: recognised.problem };
}

/**
 * Left beside app.db by a server that found the file replaced or written by another program
 * while it ran (an older copy put over it, say): the server stopped writing and kept its
 * write-ahead log, whose pages build on the file as it was. Until the note goes (a restore or
 * new-database moves it aside with the file), no cam-guide command opens app.db.
 */
const CHANGED_NOTE = "app.db-changed";

const CHANGED_TEXT = (date: string, reason: string) =>
  `On ${date} the cam-guide server found that ${reason}.\n` +
  "It stopped writing at once and kept its write-ahead log (app.db-wal) as it was, without folding it\n" +
  "into app.db: the log's pages build on the file as the server had it, so folding them into another\n" +
  "file would mix two databases. While this note is here, every cam-guide command refuses to run.\n" +
  "Put a backup back with `cam-guide restore <backup file>`, or begin again with an empty site with\n" +
  "`cam-guide new-database` (both keep app.db, its log and this note aside). If you have put back\n" +
  "the very file the server had, byte for byte, delete this note and start the server again.\n";

/** Writes the note above (once: the first finding is the one that explains the log). */
export function noteDatabaseChanged(dataDir: string, reason: string): void {
  const note = join(dataDir, CHANGED_NOTE);
  if (!existsSync(note)) writeFileSync(note, CHANGED_TEXT(new Date().toISOString(), reason), { mode: FILE_MODE });
}

/**
 * Throws UnusableDatabaseError when DATA_DIR's database went missing from a folder that held a
 * site (unless `creating`: the caller checked that before it wrote anything itself), or is
 * there but not recognised (see siteDatabase). Answers what it found otherwise.
 */
export function refuseUnusableDatabase(dataDir: string, { creating = false } = {}): SiteDatabase {
  const found = siteDatabase(dataDir);
  if (found.state === "missing" && !creating)
    throw new UnusableDatabaseError(
      `DATA_DIR ${dataDir} held a site (${found.signs.join(", ")}) but its database app.db is missing; nothing was run and nothing was changed. ${WAYS_OUT} (uploads and the session secret are kept), or move app.db back.`,
    );
  if (found.state === "unrecognised" && found.problem === UNSTEADY)
    throw new UnusableDatabaseError(
      `The database ${join(dataDir, "app.db")} ${UNSTEADY}; nothing was run and nothing was changed.`,
    );
  if (found.state === "unrecognised")
    throw new UnusableDatabaseError(
      `The database ${join(dataDir, "app.db")} ${found.problem}; nothing was run and nothing was changed (the file and its write-ahead log stay as they are, for recovery). ${WAYS_OUT} (it keeps this file aside).`,
    );
  return found;
}

/**
 * Moves an unrecognised app.db (a file or a folder) and whatever SQLite left beside it (or,
 * with no app.db, only those) to app.db.unrecognised-<time>: kept, never deleted, so a
 * damaged database and its log can still be taken to a recovery tool. Answers the new names.
 */
export function setDatabaseAside(dataDir: string): string[] {
  const db = join(dataDir, "app.db");
  const aside = `${db}.unrecognised-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  const moved: string[] = [];
  for (const suffix of ["", ...DATABASE_SIDE_FILES]) {
    if (!lstatSync(db + suffix, { throwIfNoEntry: false })) continue;
    renameSync(db + suffix, aside + suffix);
    moved.push(aside + suffix);
  }
  return moved;
}

/** Records in DATA_DIR's marker that a site lives here, and that its database has `id` (kept for good). */
export function markSite(dataDir: string, id: number | null): void {
  const marker = join(dataDir, SITE_MARKER);
  if (!existsSync(marker)) writeFileSync(marker, MARKER_TEXT(new Date().toISOString()), { mode: FILE_MODE });
  if (id !== null && !siteDatabaseIds(dataDir).includes(id)) appendFileSync(marker, `Database id: ${id}\n`);
}
