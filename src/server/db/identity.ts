import { constants, Database } from "bun:sqlite";
import { randomInt } from "node:crypto";
import { closeSync, fstatSync, openSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { DatabaseHandle } from "./client.ts";
import { committedLogPages, type FileHeader, HEADER_BYTES, parseHeader, readAt, readFileBytes } from "./file-header.ts";

// Which database file is cam-guide's, and which site's. Every cam-guide database carries two
// numbers in its file header: the application id below ("camg"), and in user_version an id of
// its own, drawn when it is created (DATA_DIR's site marker lists the ids of the databases it
// has held). A database an older release made has neither until this release first opens it;
// it is known by its migration history instead.

export const APPLICATION_ID = 0x63616d67;

export type Recognition = { ok: true; id: number | null } | { ok: false; problem: string };

const code = (error: unknown) => (error as { code?: string }).code ?? (error as Error).message;

/**
 * Whether the existing `file` is a cam-guide database that a DATA_DIR which held the databases
 * `knownIds` may open, judged before SQLite opens it: from its bytes, and for an older
 * release's database from its table list read in SQLite's immutable mode (which never opens
 * the write-ahead log or its index). `id` is the database's own id, null for an older one.
 * A problem is the end of a sentence ("The database … <problem>").
 */
export function recogniseDatabaseFile(file: string, knownIds: number[]): Recognition {
  const refuse = (problem: string): Recognition => ({ ok: false, problem });
  let header: FileHeader | string;
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) return refuse("is a folder, not a database file");
    if (!stat.isFile()) return refuse("is not a plain file (a device, a pipe or a socket)");
    size = stat.size;
    if (size === 0) return refuse("is empty (0 bytes)");
    header = parseHeader(readFileBytes(file, HEADER_BYTES));
  } catch (error) {
    return refuse(`cannot be read (${code(error)})`);
  }
  if (typeof header === "string") return refuse(header);
  if (size % header.pageSize !== 0)
    return refuse(`is cut short (${size} bytes is not a whole number of its ${header.pageSize}-byte pages)`);
  const filePages = size / header.pageSize;
  if (header.pages !== null && header.pages > filePages && !logHoldsTheRest(file, header, filePages))
    return refuse(
      `is cut short (its header counts ${header.pages} pages of ${header.pageSize} bytes, the file holds ${filePages})`,
    );
  if (header.applicationId === APPLICATION_ID) {
    if (knownIds.length > 0 && !knownIds.includes(header.userVersion))
      return refuse(
        `is another cam-guide site's database (database ${header.userVersion}; this folder has held ${knownIds.join(", ")})`,
      );
    return { ok: true, id: header.userVersion };
  }
  if (header.applicationId !== 0)
    return refuse(`belongs to another program (its application id is ${header.applicationId >>> 0})`);
  const history = migrationHistoryIn(file);
  if (typeof history === "string") return refuse(history);
  if (!history) return refuse("is not a cam-guide database (it has no cam-guide migration history)");
  // Once this release has run here its database carries an id: one without is not that one.
  if (knownIds.length > 0)
    return refuse(`is a cam-guide database this folder never held (this folder has held ${knownIds.join(", ")})`);
  return { ok: true, id: null };
}

/**
 * Whether the committed write-ahead log holds every page the main file lacks: what a
 * checkpoint cut short by a crash leaves (it writes page 1 first), which SQLite completes.
 */
function logHoldsTheRest(file: string, header: FileHeader, filePages: number): boolean {
  const log = committedLogPages(`${file}-wal`, header.pageSize);
  if (log.size === 0) return false;
  for (let page = filePages + 1; page <= log.size; page++) if (!log.pages.has(page)) return false;
  return true;
}

/** True when `file` records cam-guide migrations, false when it does not, or why it cannot be read. */
function migrationHistoryIn(file: string): boolean | string {
  // immutable=1: the main file alone, no locks, no log: nothing beside it is read or written.
  const uri = `file:${resolve(file).replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}?immutable=1`;
  let sqlite: Database | null = null;
  try {
    sqlite = new Database(uri, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI);
    const table = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'");
    if (!table.get()) return false;
    return sqlite.query("SELECT 1 FROM __drizzle_migrations LIMIT 1").get() !== null;
  } catch (error) {
    return `cannot be read (${(error as Error).message})`;
  } finally {
    sqlite?.close();
  }
}

/** The id a database created now gets: positive, so it reads the same as a signed header field. */
function newId(): number {
  return randomInt(1, 2 ** 31 - 1);
}

/**
 * Writes cam-guide's application id and a new database id into a database that has none yet
 * (a new file, before it switches to write-ahead logging, has them in its first page on disk
 * at once). Answers the database's id. Only for a file recognised as cam-guide's.
 */
export function stampIdentity(sqlite: Database): number {
  const { application_id: app } = sqlite.query("PRAGMA application_id").get() as { application_id: number };
  const { user_version: id } = sqlite.query("PRAGMA user_version").get() as { user_version: number };
  if (app === APPLICATION_ID && id > 0) return id;
  const given = newId();
  sqlite.run(`PRAGMA application_id = ${APPLICATION_ID}`);
  sqlite.run(`PRAGMA user_version = ${given}`);
  return given;
}

/**
 * Gives a recognised database opened in `handle` its identity if it has none yet (an older
 * release made it) and folds that into the file's own header at once, so the file on disk
 * says whose it is from now on. Answers the database's id.
 */
export function settleIdentity(handle: DatabaseHandle): number {
  const before = (handle.sqlite.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  const id = stampIdentity(handle.sqlite);
  if (id !== before) handle.sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
  return id;
}

export interface DatabaseFileWatch {
  /** Null while the file is still the database opened, else what happened to it (the end of a sentence). */
  problem(): string | null;
  /** Closes the watch's descriptor: only once SQLite has closed the file (closing any descriptor drops the process's locks on it). */
  close(): void;
}

/**
 * Watches the database file the server opened for what an inode comparison cannot see: the
 * same file cut short or emptied (it never shrinks under this server: no VACUUM runs on it,
 * and freed pages stay in the file), its header overwritten, or another database copied
 * over it. One descriptor held open for the server's life; each look is an fstat and a
 * 100-byte read. Once a problem is seen it stays: this process cannot trust the file again.
 */
export function watchDatabaseFile(file: string, databaseIdKnown?: number): DatabaseFileWatch {
  const fd = openSync(file, "r");
  const first = parseHeader(readAt(fd, HEADER_BYTES, 0));
  let largest = fstatSync(fd).size;
  let seen: string | null = null;
  const same = (header: FileHeader) =>
    typeof first === "string" ||
    (header.pageSize === first.pageSize &&
      ((header.applicationId === first.applicationId && header.userVersion === first.userVersion) ||
        (header.applicationId === APPLICATION_ID && header.userVersion === databaseIdKnown)));
  return {
    problem() {
      if (seen) return seen;
      const { size } = fstatSync(fd);
      if (size < largest) seen = `shrank from ${largest} to ${size} bytes while the server runs (cut short or emptied)`;
      else {
        largest = size;
        const header = parseHeader(readAt(fd, HEADER_BYTES, 0));
        if (typeof header === "string") seen = "no longer starts with SQLite's header (it was overwritten)";
        else if (!same(header)) seen = "now holds another database (one was copied over it while the server runs)";
      }
      return seen;
    },
    close() {
      closeSync(fd);
    },
  };
}
