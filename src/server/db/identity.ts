import type { Database } from "bun:sqlite";
import { randomInt } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { DatabaseHandle } from "./client.ts";
import {
  committedLogPages,
  type FileHeader,
  HEADER_BYTES,
  logFramePages,
  parseHeader,
  readAt,
  readFileBytes,
} from "./file-header.ts";
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
  /**
   * Notes the pages the next checkpoint may write (every frame of the write-ahead log's
   * current generation, which a checkpoint empties): ask right before it, so that record() hashes again only
   * those, not the whole file. Without it, record() hashes all of it.
   */
  beforeCheckpoint(): void;
  /** Whether the whole file is hashed (the background has caught up since the start). */
  hashed(): boolean;
  /** Closes the watch's descriptor: only once SQLite has closed the file (closing any descriptor drops the process's locks on it). */
  close(): void;
}

/** What the file must still show between two of the server's checkpoints. */
interface Recorded {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  head: Buffer;
}

/** The file is hashed a chunk at a time, so a checkpoint hashes again only the chunks it wrote. */
const CHUNK = 16 * 1024;
/** What is hashed at once when the watch starts; the rest of a larger file is hashed in the background. */
const HASHED_AT_START = 32 * 1024 * 1024;
/** What one background turn hashes (about 2 ms here), between which requests are answered. */
const HASHED_PER_TURN = 2 * 1024 * 1024;

/**
 * A fast non-cryptographic hash of each chunk of what `fd` holds (about 1 ms per megabyte):
 * `hashes[i]` for bytes [i × CHUNK, (i + 1) × CHUNK). Hashed on demand, kept up to date by the
 * checkpoints, compared whole only when nothing but the file's change time moved.
 */
class ChunkHashes {
  private hashes = new BigUint64Array(0);
  /** Chunks below this one are hashed; the background turns hash the rest. */
  private done = 0;
  private readonly buffer = Buffer.allocUnsafe(CHUNK);
  private turn: ReturnType<typeof setImmediate> | null = null;

  constructor(private readonly fd: number) {}

  private chunks(size: bigint): number {
    return Number((size + BigInt(CHUNK) - 1n) / BigInt(CHUNK));
  }

  private hash(index: number): bigint {
    const read = readSync(this.fd, this.buffer, 0, CHUNK, index * CHUNK);
    return Bun.hash.wyhash(this.buffer.subarray(0, read), BigInt(index)) as bigint;
  }

  /** Hashes the file of `size` bytes from its start: `atOnce` bytes now, the rest in background turns. */
  start(size: bigint, atOnce = HASHED_AT_START): void {
    this.stop();
    this.hashes = new BigUint64Array(this.chunks(size));
    this.done = 0;
    this.advance(atOnce / CHUNK);
  }

  private advance(count: number): void {
    const end = Math.min(this.hashes.length, this.done + count);
    for (; this.done < end; this.done++) this.hashes[this.done] = this.hash(this.done);
    if (this.done < this.hashes.length) {
      this.turn = setImmediate(() => this.advance(HASHED_PER_TURN / CHUNK));
      this.turn.unref?.();
    } else this.turn = null;
  }

  /** After the server's own checkpoint: the file is now `size` bytes, and `pages` of `pageSize` bytes were written. */
  update(size: bigint, pages: Iterable<number>, pageSize: number): void {
    const count = this.chunks(size);
    const before = this.hashes.length;
    if (count !== before) {
      const resized = new BigUint64Array(count);
      resized.set(this.hashes.subarray(0, Math.min(before, count)));
      this.hashes = resized;
    }
    const again = new Set<number>();
    // The last chunk may have been partial, and any beyond it are new.
    for (let i = Math.max(0, Math.min(before, count) - 1); i < count; i++) again.add(i);
    for (const page of pages) {
      const from = (page - 1) * pageSize;
      for (let i = Math.floor(from / CHUNK); i <= Math.floor((from + pageSize - 1) / CHUNK); i++) again.add(i);
    }
    if (this.turn) {
      // Chunks the background has not reached yet are hashed when it does.
      this.done = Math.min(this.done, count);
      for (const i of again) if (i < this.done) this.hashes[i] = this.hash(i);
    } else {
      for (const i of again) this.hashes[i] = this.hash(i);
      this.done = count;
    }
  }

  /** Whether the file holds what was hashed: compares every chunk hashed so far (see `complete`). */
  same(): boolean {
    for (let i = 0; i < this.done; i++) if (this.hash(i) !== this.hashes[i]) return false;
    return true;
  }

  /** Whether every chunk is hashed (the background has caught up). */
  get complete(): boolean {
    return this.done === this.hashes.length;
  }

  stop(): void {
    if (this.turn) clearImmediate(this.turn);
    this.turn = null;
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
 * restoring the access time), so when it alone moved the whole file is compared with its
 * hashes as of the last checkpoint. The cost stays flat as the site grows: the first 32 MB are
 * hashed at once and the rest in the background, a few milliseconds a turn (until it has
 * caught up, a change of the part not yet hashed goes unseen by this one comparison), and
 * after a checkpoint only the chunks holding the pages it wrote (beforeCheckpoint) are hashed
 * again. One descriptor held for the server's life; each look is an fstat and a 100-byte read.
 * Once a problem is seen it stays: this process cannot trust the file again.
 */
export function watchDatabaseFile(
  file: string,
  { hashedAtStart = HASHED_AT_START }: { hashedAtStart?: number } = {},
): DatabaseFileWatch {
  const fd = openSync(file, "r");
  const look = (): Recorded => {
    const { size, mtimeNs, ctimeNs } = fstatSync(fd, { bigint: true });
    return { size, mtimeNs, ctimeNs, head: readAt(fd, HEADER_BYTES, 0) };
  };
  let recorded = look();
  const contents = new ChunkHashes(fd);
  contents.start(recorded.size, hashedAtStart);
  /** The pages the coming checkpoint may write, noted right before it; null when not noted. */
  let writing: Set<number> | null = null;
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
    if (!contents.same())
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
      if (seen) return;
      recorded = look();
      const header = parseHeader(recorded.head);
      if (writing && typeof header !== "string") contents.update(recorded.size, writing, header.pageSize);
      else contents.start(recorded.size, Number.POSITIVE_INFINITY);
      writing = null;
    },
    beforeCheckpoint() {
      const header = parseHeader(recorded.head);
      writing = typeof header === "string" ? null : logFramePages(`${file}-wal`, header.pageSize);
    },
    hashed: () => contents.complete,
    close() {
      contents.stop();
      closeSync(fd);
    },
  };
}
