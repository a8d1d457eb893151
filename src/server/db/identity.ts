import type { Database } from "bun:sqlite";
import { randomInt } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { DatabaseHandle } from "./client.ts";
import { committedLogPages, type FileHeader, HEADER_BYTES, parseHeader, readAt, readFileBytes } from "./file-header.ts";
import { inspectDatabaseFile } from "./file-view.ts";

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
 * `knownIds` may open, judged before SQLite opens it: from its bytes, then its contents read
 * through a read-only view (db/file-view.ts) that never opens the write-ahead log or its index
 * for SQLite. `siteHeld`: the folder has held a site (its marker is there), so its database
 * must hold cam-guide's tables; only a file being created by a first start may lack them.
 * `id` is the database's own id, null for an older release's. A problem is the end of a
 * sentence ("The database … <problem>").
 */
export function recogniseDatabaseFile(
  file: string,
  knownIds: number[],
  { siteHeld = knownIds.length > 0 } = {},
): Recognition {
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
    const { damage, history } = inspectDatabaseFile(file);
    if (damage) return refuse(damage);
    // The ids are written before anything else, so a file that lost its log (copied alone,
    // or the log deleted) before its first checkpoint is a header with none of the tables.
    if (siteHeld && !history)
      return refuse(
        `has this site's ids but none of its tables: its write-ahead log ${basename(file)}-wal, which holds what was written since the last checkpoint, may be missing (the file copied alone, or the log deleted)`,
      );
    return { ok: true, id: header.userVersion };
  }
  if (header.applicationId !== 0)
    return refuse(`belongs to another program (its application id is ${header.applicationId >>> 0})`);
  const { damage, history } = inspectDatabaseFile(file);
  if (damage) return refuse(damage);
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
  /**
   * Takes the file as it is now for the database: call it right after this server's own
   * checkpoint (the only thing that writes the file while it runs), and only after asking problem().
   */
  record(): void;
  /** Closes the watch's descriptor: only once SQLite has closed the file (closing any descriptor drops the process's locks on it). */
  close(): void;
}

/** What the file must still show between two of the server's checkpoints. */
interface Recorded {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  head: Buffer;
  /** A hash of the whole file: asked only when nothing but its change time moved. */
  contents: bigint;
}

const CHUNK = 1024 * 1024;

/** A fast non-cryptographic hash of everything `fd` holds (about 1 ms per megabyte). */
function hashContents(fd: number): bigint {
  const chunk = Buffer.allocUnsafe(CHUNK);
  let hash = 0n;
  for (let at = 0; ; at += CHUNK) {
    const read = readSync(fd, chunk, 0, CHUNK, at);
    if (read === 0) return hash;
    hash = Bun.hash.wyhash(chunk.subarray(0, read), hash);
  }
}

/**
 * Watches the database file the server opened. In write-ahead-log mode only a checkpoint writes
 * the file, and only this server checkpoints it (every connection cam-guide opens turns SQLite's
 * automatic checkpoint off), so between two of its checkpoints the file must not change at all:
 * not its size, its modification time (to the nanosecond), nor its 100-byte header. That tells
 * an older copy of the same site put over it (`cat old.db > app.db`, `cp -p`) from the server's
 * own writes. A time set back afterwards (`touch -r`) cannot set back the change time; but that
 * moves for harmless reasons too (chmod, chown, a link, a move away and back, a backup tool
 * restoring the access time), so when it alone moved the whole file is compared with a hash
 * taken at the last checkpoint. One descriptor held for the server's life; each look is an
 * fstat and a 100-byte read. Once a problem is seen it stays: this process cannot trust the
 * file again.
 */
export function watchDatabaseFile(file: string): DatabaseFileWatch {
  const fd = openSync(file, "r");
  const look = () => {
    const { size, mtimeNs, ctimeNs } = fstatSync(fd, { bigint: true });
    return { size, mtimeNs, ctimeNs, head: readAt(fd, HEADER_BYTES, 0) };
  };
  const take = (): Recorded => ({ ...look(), contents: hashContents(fd) });
  let recorded = take();
  let seen: string | null = null;
  const only = "only the server's own checkpoints may write it";
  const judge = (now: ReturnType<typeof look>): string | null => {
    if (now.size < recorded.size)
      return `shrank from ${recorded.size} to ${now.size} bytes while the server runs (cut short or emptied)`;
    const header = parseHeader(now.head);
    if (typeof header === "string") return "no longer starts with SQLite's header (it was overwritten)";
    const first = parseHeader(recorded.head);
    if (
      typeof first !== "string" &&
      (header.pageSize !== first.pageSize ||
        header.applicationId !== first.applicationId ||
        header.userVersion !== first.userVersion)
    )
      return "now holds another database (one was copied over it while the server runs)";
    const changed = [
      now.size !== recorded.size && "size",
      now.mtimeNs !== recorded.mtimeNs && "modification time",
      !now.head.equals(recorded.head) && "header",
    ].filter(Boolean);
    if (changed.length > 0)
      return `was written by another program while the server runs (its ${changed.join(", ")} changed since the server's last checkpoint; ${only})`;
    if (now.ctimeNs === recorded.ctimeNs) return null;
    if (hashContents(fd) !== recorded.contents)
      return `was written by another program while the server runs (its contents changed though its size and modification time did not: the time was set back, as touch -r does; ${only})`;
    // The same bytes: moved away and back, or its mode, owner or access time changed.
    recorded = { ...recorded, ctimeNs: now.ctimeNs };
    return null;
  };
  return {
    problem() {
      seen ??= judge(look());
      return seen;
    },
    record() {
      if (!seen) recorded = take();
    },
    close() {
      closeSync(fd);
    },
  };
}
