import { constants, Database } from "bun:sqlite";
import { closeSync, fstatSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { committedLogPages, HEADER_BYTES, parseHeader, readAt } from "./file-header.ts";
import {
  hasMigrationHistory,
  migrationProblem,
  type PendingMigrations,
  pendingMigrations,
} from "./migration-history.ts";

// The database in a file as SQLite would see it (the main file with the committed frames of
// its write-ahead log laid over it), read without SQLite opening either file: every check a
// command makes before it opens app.db goes through here, so a command that refuses leaves
// DATA_DIR as it was. SQLite, asked to open the file itself, creates app.db-wal and
// app.db-shm (a read-only connection leaves them behind), may recover the log into the index,
// and its last connection folds the log into the file on close.

/** What the checks read from a database file before it is opened. */
export interface Inspection {
  /** Whether it records cam-guide migrations (its tables are there). */
  history: boolean;
  /** Why SQLite cannot read it whole (the end of a sentence), or null. */
  damage: string | null;
  /** Migrations this build does not know (see migrationProblem), or null. */
  migrations: string | null;
  /** Migrations this build would apply (see pendingMigrations), or null. */
  pending: PendingMigrations | null;
}

/** `rows` of PRAGMA integrity_check or quick_check as the end of a sentence, or null when it says ok. */
export function integrityProblem(rows: Record<string, string>[]): string | null {
  const lines = rows.flatMap((row) => String(Object.values(row)[0]).split("\n")).filter((l) => !l.startsWith("***"));
  if (lines.length === 1 && lines[0] === "ok") return null;
  const more = lines.length > 2 ? `; ${lines.length - 2} more problems` : "";
  return `is damaged (${lines.slice(0, 2).join("; ")}${more})`;
}

interface FileState {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  head: string;
}

function fileState(path: string, headBytes: number): FileState | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const { ino, size, mtimeNs, ctimeNs } = fstatSync(fd, { bigint: true });
    return { ino, size, mtimeNs, ctimeNs, head: readAt(fd, headBytes, 0).toString("hex") };
  } finally {
    closeSync(fd);
  }
}

/**
 * What moves when the database's contents move under a reader that takes no lock: the main
 * file (a checkpoint writes it) and the log's header (a reset gives it new salts). Frames
 * appended to the log do not count: a reader keeps to the commits it found whole.
 * `withAppends` counts them too (for remembering an answer).
 */
function signature(file: string, withAppends = false): string {
  const main = fileState(file, 0);
  const log = fileState(`${file}-wal`, 32);
  const parts = [main?.ino, main?.size, main?.mtimeNs, main?.ctimeNs, log?.ino, log?.head];
  if (withAppends) parts.push(log?.size, log?.mtimeNs);
  return parts.join(" ");
}

/** Beside app.db: the file's state when a server last closed it cleanly (see noteCleanStop). */
const cleanStopFile = (file: string) => `${file}.clean-stop`;

/**
 * Written by the server once it has closed the database cleanly (its log folded in), and only
 * when the file then passes the whole-file check: the file's state at that moment. A start
 * that finds the file in that very state (same inode, size, times, no log) skips the check,
 * which the stop has just made. Any write, a restore, a copy or a crash (no note) makes the
 * next start check every page again; a file SQLite found damaged while it ran gets no note.
 * Returns whether the note was written.
 */
export function noteCleanStop(file: string): boolean {
  forgetCleanStop(file);
  // Read now, never an answer remembered from the start (which a note may have spared the check).
  if (inspectOnce(file).damage !== null) return false;
  writeFileSync(cleanStopFile(file), signature(file, true), { mode: 0o600 });
  return true;
}

/** Removed when a server opens the file to write it: from then on the note says nothing. */
export function forgetCleanStop(file: string): void {
  rmSync(cleanStopFile(file), { force: true });
}

function stoppedCleanly(file: string): boolean {
  try {
    return readFileSync(cleanStopFile(file), "utf8") === signature(file, true);
  } catch {
    return false;
  }
}

/** Bytes 18 and 19 say "write-ahead log": an image in memory must say "rollback journal" to open. */
const LEGACY_FORMAT = 1;

/** Above this, a database is not copied into memory to be checked (cam-guide's stay far below). */
const MAX_IMAGE_BYTES = 512 * 1024 * 1024;

/**
 * Opens a read-only view of the database in `file`: the file itself in SQLite's immutable mode
 * when its log holds no committed frame (no lock, no log, no index touched), else an image in
 * memory of the file with the log's committed pages laid over it, as SQLite's recovery would.
 * `whole` is false for a database too large to copy whose log holds frames: the view is then
 * the file alone, an older state that a checkpoint cut short may have left half-written.
 * Throws when SQLite cannot open it.
 */
function openView(file: string): { sqlite: Database; whole: boolean } {
  const fd = openSync(file, "r");
  try {
    const header = parseHeader(readAt(fd, HEADER_BYTES, 0));
    if (typeof header === "string") throw new Error(header);
    const log = committedLogPages(`${file}-wal`, header.pageSize);
    if (log.size === 0 || log.size * header.pageSize > MAX_IMAGE_BYTES) {
      const uri = `file:${resolve(file).replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}?immutable=1`;
      const sqlite = new Database(uri, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI);
      return { sqlite, whole: log.size === 0 };
    }
    const image = Buffer.alloc(log.size * header.pageSize);
    image.set(readAt(fd, image.length, 0));
    if (log.pages.size > 0) {
      const wal = openSync(`${file}-wal`, "r");
      try {
        for (const [page, at] of log.pages)
          if (page <= log.size) image.set(readAt(wal, header.pageSize, at), (page - 1) * header.pageSize);
      } finally {
        closeSync(wal);
      }
    }
    image[18] = LEGACY_FORMAT;
    image[19] = LEGACY_FORMAT;
    return { sqlite: Database.deserialize(image, true), whole: true };
  } finally {
    closeSync(fd);
  }
}

function inspectOnce(file: string): Inspection {
  let sqlite: Database | null = null;
  try {
    const view = openView(file);
    sqlite = view.sqlite;
    // quick_check reads every page (about 1 ms per megabyte): a file damaged inside is
    // refused here, not by a failure half-way through a start that has begun to write. Not
    // again for a file untouched since a server closed it cleanly (a second at 10,000 posts).
    const checked = view.whole && !stoppedCleanly(file);
    const rows = checked ? (sqlite.query("PRAGMA quick_check(3)").all() as Record<string, string>[]) : [];
    const damage = checked ? integrityProblem(rows) : null;
    if (damage) return { history: false, damage, migrations: null, pending: null };
    return {
      history: hasMigrationHistory(sqlite),
      damage: null,
      migrations: migrationProblem(sqlite),
      pending: pendingMigrations(sqlite),
    };
  } catch (error) {
    return { history: false, damage: `cannot be read (${(error as Error).message})`, migrations: null, pending: null };
  } finally {
    sqlite?.close();
  }
}

let remembered: { key: string; inspection: Inspection } | null = null;

const sound = (inspection: Inspection) => inspection.damage === null && inspection.history;

/**
 * Inspects the database in `file` (a SQLite file, its header already judged) through a
 * read-only view. Read without SQLite's locks, so a checkpoint or a log reset by a running
 * server during the read could show a mix of two states: an answer counts only when the file
 * and the log's header stood still across the read, and a problem only when two such reads
 * agree (the file's times move in steps of a few milliseconds, so one still read may hide a
 * checkpoint). After 3 s without such an answer, the last read that stood still counts; when
 * none did, a problem a read saw is not taken for damage (a file changing under the read
 * shows a mix of two states): the answer says the file could not be checked. The last
 * answer is kept for as long as neither file changes (a start asks more than once).
 */
export function inspectDatabaseFile(file: string): Inspection {
  const key = `${resolve(file)} ${signature(file, true)}`;
  if (remembered?.key === key) return remembered.inspection;
  let inspection: Inspection;
  let steady: Inspection | null = null;
  let problem: string | null = null;
  const deadline = performance.now() + 3000;
  for (;;) {
    const before = signature(file);
    inspection = inspectOnce(file);
    if (signature(file) === before) {
      steady = inspection;
      if (sound(inspection)) break;
      const seen = JSON.stringify(inspection);
      if (seen === problem) break;
      problem = seen;
    }
    if (performance.now() > deadline) {
      if (steady) inspection = steady;
      else if (inspection.damage) inspection = { ...inspection, damage: UNSTEADY };
      break;
    }
    Bun.sleepSync(20);
  }
  remembered = { key, inspection };
  return inspection;
}

/** What a file that changed during every read for 3 s is said to be: not damaged, unchecked. */
export const UNSTEADY =
  "changed during every read for 3 s (a program writing to it without pause), so it could not be checked: try again in a moment";
