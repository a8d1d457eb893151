import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BACKUP_LOCK_FILE, DataDirError, giveToOwnerOf, LOCK_FILE, makePrivateFile } from "#server/data-dir.ts";

/**
 * Who may use DATA_DIR at the same time, enforced with SQLite's own file locks on
 * DATA_DIR/cam-guide.lock (an empty database that is never written). The operating system
 * drops those locks when the process ends, however it ends (kill -9 included), so a
 * crashed server never leaves a stale lock behind.
 *
 * - "serve" holds a RESERVED lock for the server's lifetime: a second server is refused,
 *   commands that only need a SHARED lock (backup, seed, reset-password) still run.
 * - "shared" (backup, seed, reset-password) holds a SHARED lock: refused only during a restore.
 * - "restore" holds an EXCLUSIVE lock: refused while a server or any other command runs.
 *
 * These are POSIX record locks: a process that closes ANY descriptor of the lock file loses
 * every lock it holds on it. Never open the lock file by other means (readFileSync, a second
 * Database) in a process that holds it.
 */
export type LockKind = "serve" | "shared" | "restore";

export interface DataDirLock {
  release(): void;
}

// Held connections must not be garbage collected (closing one would drop its lock).
const held = new Set<Database>();

const isBusy = (error: unknown) =>
  /SQLITE_BUSY|database is locked/i.test(`${(error as { code?: string }).code} ${(error as Error).message}`);

function createLockFile(dir: string, file: string): void {
  try {
    makePrivateFile(file);
    giveToOwnerOf(dir, [file]);
  } catch (error) {
    throw new DataDirError(`Cannot create the lock file ${file}: ${(error as Error).message}`);
  }
}

function openLockFile(file: string, options: { readwrite: true } | { readonly: true }): Database {
  try {
    return new Database(file, options);
  } catch (error) {
    throw new DataDirError(`Cannot open the lock file ${file}: ${(error as Error).message}`);
  }
}

/**
 * A lock statement failed: false when another connection holds the lock; any other failure
 * means the lock file is damaged, and `user` says who must not be running when it is removed.
 */
function lockRefused(db: Database, file: string, error: unknown, user: string): false {
  if (db.inTransaction) db.run("ROLLBACK");
  if (isBusy(error)) return false;
  db.close();
  throw new DataDirError(
    `The lock file ${file} is damaged (${(error as Error).message}); remove it when no ${user} is running.`,
  );
}

/** Keeps the connection (and so its lock) until released. */
function hold(db: Database): DataDirLock {
  held.add(db);
  return {
    release() {
      if (!held.delete(db)) return;
      if (db.inTransaction) db.run("ROLLBACK");
      db.close();
    },
  };
}

/**
 * Takes the lock on `dir`, or throws a DataDirError saying who holds it. With `create:
 * false` a missing lock file is not created and no lock is taken (nothing can hold it then).
 */
export function lockDataDir(dir: string, kind: LockKind, { create = true } = {}): DataDirLock {
  const file = join(dir, LOCK_FILE);
  if (!existsSync(file)) {
    if (!create) return { release() {} };
    createLockFile(dir, file);
  }
  const db = openLockFile(file, create ? { readwrite: true } : { readonly: true });
  try {
    db.run("PRAGMA busy_timeout = 0");
  } catch (error) {
    throw new DataDirError(`Cannot open the lock file ${file}: ${(error as Error).message}`);
  }
  const attempt = (sql: string) => {
    try {
      db.run(sql);
      if (sql === "BEGIN") db.query("SELECT count(*) FROM sqlite_master").get();
      return true;
    } catch (error) {
      return lockRefused(db, file, error, "cam-guide");
    }
  };
  const refuse = (message: string): never => {
    db.close();
    throw new DataDirError(message);
  };
  const restoring = `A restore is running on DATA_DIR (${dir}); try again once it has finished.`;
  // Taking a write lock on an empty database would write its first page into a journal
  // file; in memory, nothing is ever written and the lock file stays empty. Setting it
  // reads the file, which only an exclusive lock (a restore) prevents.
  if (!attempt("PRAGMA journal_mode = MEMORY")) refuse(restoring);
  if (kind === "shared") {
    if (!attempt("BEGIN")) refuse(restoring);
  } else if (!attempt("BEGIN IMMEDIATE")) {
    // RESERVED is taken: a server, or a restore (which also blocks SHARED).
    const restoreRunning = !attempt("BEGIN");
    if (!restoreRunning) db.run("ROLLBACK");
    if (restoreRunning) refuse(restoring);
    refuse(
      kind === "serve"
        ? `Another cam-guide server is using DATA_DIR (${dir}). Stop it first, or give this one a DATA_DIR of its own.`
        : `A cam-guide server is using DATA_DIR (${dir}); stop it first, then restore.`,
    );
  } else if (kind === "restore") {
    db.run("ROLLBACK");
    if (!attempt("BEGIN EXCLUSIVE"))
      refuse(
        `Another cam-guide command (a backup, seed or password reset) is using DATA_DIR (${dir}); try again once it has finished.`,
      );
  }
  return hold(db);
}

// A backup run is owned by the process doing it: `cam-guide backup-auto` holds a RESERVED
// lock on DATA_DIR/cam-guide-backup.lock from before it records the run until it exits. The
// lock lives in DATA_DIR, not BACKUP_DIR: every server of the site shares DATA_DIR, whatever
// BACKUP_DIR each was given, and the lock works before the backup folder exists.

function openRunLock(dir: string, create: boolean): { db: Database; file: string } | null {
  const file = join(dir, BACKUP_LOCK_FILE);
  if (!existsSync(file)) {
    if (!create) return null;
    createLockFile(dir, file);
  }
  return { db: openLockFile(file, { readwrite: true }), file };
}

/** RESERVED on the open lock file: true when taken, false when another connection holds it. */
function reserve(db: Database, file: string, waitMs: number): boolean {
  try {
    db.run(`PRAGMA busy_timeout = ${waitMs}`);
    db.run("PRAGMA journal_mode = MEMORY");
    db.run("BEGIN IMMEDIATE");
    return true;
  } catch (error) {
    return lockRefused(db, file, error, "backup");
  }
}

/**
 * Takes the backup-run lock on `dir` for this process's lifetime (or until released); null
 * when another process holds it, a backup being under way.
 */
export function lockBackupRun(dir: string): DataDirLock | null {
  const { db, file } = openRunLock(dir, true)!;
  // A server asking whether a run goes holds the lock for an instant: that is waited out.
  if (!reserve(db, file, 2000)) {
    db.close();
    return null;
  }
  return hold(db);
}

/**
 * Whether a process holds the backup-run lock on `dir` now (it is alive and backing up).
 * Asks without keeping anything, and creates no lock file.
 */
export function backupRunLocked(dir: string): boolean {
  // A lock file that cannot be opened or is damaged is held by no one; the next run says
  // what is wrong with it.
  let opened: ReturnType<typeof openRunLock>;
  try {
    opened = openRunLock(dir, false);
  } catch {
    return false;
  }
  if (!opened) return false;
  const { db, file } = opened;
  let taken: boolean;
  try {
    taken = reserve(db, file, 0);
  } catch {
    return false;
  }
  if (taken) db.run("ROLLBACK");
  db.close();
  return !taken;
}
