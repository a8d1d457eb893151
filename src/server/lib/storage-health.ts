import { closeSync, openSync, readdirSync, readFileSync, rmSync, statfsSync, statSync } from "node:fs";
import { type FileHandle, open, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { databaseStorageFault } from "#server/db/faults.ts";
import { type DatabaseFileWatch, watchDatabaseFile } from "#server/db/identity.ts";
import type { Logger } from "#server/logger.ts";
import { DESCRIPTOR_ADVICE, describeShortage, descriptorShortage } from "./descriptors.ts";

// Whether what the server writes will be kept: the database file it opened is still the one
// in DATA_DIR (not deleted, replaced, emptied, cut short or overwritten), and the disk under
// DATA_DIR can take a write. /healthz reports it, and every
// request that could change data is refused while it is not so (see plugins/write-gate.ts).

/** `room`: the bytes left, when the refusal is for want of room below the reserve (the write gate reads it). */
export type StorageState = { ok: true } | { ok: false; status: 503 | 507; reason: string; room?: number };

const OK: StorageState = { ok: true };

/** Free space below which the disk counts as full: SQLite needs room to commit and checkpoint. */
export const RESERVE_BYTES = 1024 * 1024;
/** How long one write probe answers for; the database files and free space are checked on every call. */
const PROBE_EVERY_MS = 1000;
/** Retry-After, in seconds, on a refused write: an operator has to act first. */
export const RETRY_AFTER_SECONDS = 60;

export interface StorageHealthOptions {
  /** DATA_DIR: where the probe is written and whose free space counts. */
  dir: string;
  /** The database file to watch, or null for an in-memory database. */
  databaseFile: string | null;
  /**
   * Called once, when the database file is first seen replaced or written by another program:
   * its write-ahead log then belongs to a file that is gone, and must never be folded into this one.
   */
  onDatabaseChanged?: (reason: string) => void;
  logger?: Logger;
  probeEveryMs?: number;
  reserveBytes?: number;
}

interface Watched {
  file: string;
  dev: bigint;
  ino: bigint;
}

const SIDE_FILES = ["", "-wal", "-shm"];
const PROBE = /^\.write-probe-(\d+)$/;

/**
 * The write-probe files this process has on the disk now. A process that exits in the middle
 * of a probe (a start refused with `process.exit`) removes them on its way out, synchronously:
 * the probe's own removal, a promise, would never run.
 */
const probesOnDisk = new Set<string>();
let removedOnExit = false;
function removeOnExit(file: string): void {
  probesOnDisk.add(file);
  if (removedOnExit) return;
  removedOnExit = true;
  process.on("exit", () => {
    for (const probe of probesOnDisk) rmSync(probe, { force: true });
  });
}

/** Whether process `pid` exists (one of another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * Removes the write-probe files of processes that are gone (a server killed while its probe
 * was on the disk), and any with this process's id, which cannot be one of its own yet.
 */
export function removeStaleProbes(dir: string): number {
  let removed = 0;
  for (const name of readdirSync(dir)) {
    const pid = Number(PROBE.exec(name)?.[1]);
    if (!pid || (pid !== process.pid && isAlive(pid))) continue;
    rmSync(join(dir, name), { force: true, recursive: true });
    removed++;
  }
  return removed;
}

/** The process's own limit on the size of a file it writes (RLIMIT_FSIZE), in bytes; Infinity if none. */
export function fileSizeLimit(): number {
  try {
    const line = /^Max file size\s+(\S+)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    return !line || line[1] === "unlimited" ? Number.POSITIVE_INFINITY : Number(line[1]);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Bytes free for this process on the disk holding `dir`, or null when it cannot be examined. */
export function freeBytes(dir: string): number | null {
  try {
    const { bavail, bsize } = statfsSync(dir);
    return Number(bavail) * Number(bsize);
  } catch {
    return null;
  }
}

function errorCode(error: unknown): string {
  return String((error as { code?: unknown })?.code ?? (error as Error)?.message ?? error);
}

/** ENOSPC, EDQUOT and EFBIG mean no room; other codes say the disk or folder is broken. */
const NO_ROOM = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);
const BROKEN = new Set(["EIO", "EROFS", "EACCES", "EPERM", "ENOENT", "ENOTDIR", "ESTALE"]);

/**
 * What an error says about the storage under the data: "full" (no room left), "broken" (I/O
 * error, read-only, file gone), or null when it is not a storage fault. Follows `cause` chains,
 * since drizzle and Elysia wrap the driver's error.
 */
export function storageFault(error: unknown): "full" | "broken" | null {
  for (let e = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const fromDatabase = databaseStorageFault(e);
    if (fromDatabase) return fromDatabase;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NO_ROOM.has(code)) return "full";
    if (typeof code === "string" && BROKEN.has(code) && (e as { syscall?: unknown }).syscall) return "broken";
  }
  return null;
}

export class StorageHealth {
  private readonly watched: Watched[] = [];
  /** The last write probe's answer, and when it started; null until the first one ends. */
  private probed: { at: number; state: StorageState } | null = null;
  private probing: Promise<StorageState> | null = null;
  private limit = fileSizeLimit();
  /** The reason last reported, to log each change once: null while all is well. */
  private lastReason: string | null = null;
  /** Set while the last probe could not open its file for want of a descriptor: no verdict on the storage. */
  private descriptors: string | null = null;
  private readonly probeEveryMs: number;
  private readonly reserveBytes: number;
  /** The main database file's contents (size, header, identity), watched through a descriptor of its own. */
  private readonly watch: DatabaseFileWatch | null = null;
  private stopped = false;
  /** Whether onDatabaseChanged was called. */
  private changeNoted = false;
  /** Set once SQLite has said the database file is damaged: this process cannot trust it again. */
  private damage: string | null = null;

  constructor(private readonly options: StorageHealthOptions) {
    this.probeEveryMs = options.probeEveryMs ?? PROBE_EVERY_MS;
    this.reserveBytes = options.reserveBytes ?? RESERVE_BYTES;
    // The files as opened: the database and the log and index SQLite keeps beside it, which
    // stay in place as long as this process holds the database open.
    if (options.databaseFile) {
      for (const suffix of SIDE_FILES) {
        const file = options.databaseFile + suffix;
        try {
          const { dev, ino } = statSync(file, { bigint: true });
          this.watched.push({ file, dev, ino });
        } catch {
          // not there yet: nothing to compare with
        }
      }
      try {
        this.watch = watchDatabaseFile(options.databaseFile);
      } catch {
        // not there: the comparison above reports it
      }
    }
  }

  /**
   * The state now, without waiting on the disk: the database files compared (a stat each) and
   * the free space measured (statfs) on every call; the last write probe's answer, a new probe
   * started in the background once the last is older than the interval.
   */
  check(): StorageState {
    const now = performance.now();
    if (!this.probing && !this.stopped && (!this.probed || now - this.probed.at >= this.probeEveryMs))
      void this.probe();
    return this.report(this.current());
  }

  /** After a write failed: the state now, and a new write probe at once. */
  recheck(): StorageState {
    if (!this.probing && !this.stopped) void this.probe();
    return this.report(this.current());
  }

  /**
   * Whether the database file is still the one opened, its contents included (no disk room,
   * no probe: SQLite itself refuses a write it has no room for): what every database write
   * asks first, and what decides at shutdown whether the write-ahead log may be folded into it.
   */
  databaseFileState(): StorageState {
    const state = this.checkFiles();
    // Logged when it goes wrong; the recovery is logged by check(), which sees the whole state.
    return state.ok ? state : this.report(state);
  }

  /**
   * Asked right before this server's own checkpoint: whether the file may be written (it is
   * still the database opened, contents included), and if so, the watch notes the pages the
   * checkpoint may write, the only ones it then hashes again.
   */
  mayCheckpoint(): boolean {
    const ok = this.databaseFileState().ok;
    if (ok) this.watch?.beforeCheckpoint();
    return ok;
  }

  /**
   * Right after this server's own checkpoint, which writes the database file: the file as it is
   * now is the one to compare with until the next (see watchDatabaseFile). Ask databaseFileState()
   * before checkpointing: a file that stopped being ours is never written, nor taken as it is.
   */
  checkpointed(): void {
    this.watch?.record();
  }

  /**
   * Ends the watch: no new write probe starts, the one in flight is awaited and its file
   * removed, and the database file's descriptor is closed (call it after the database is
   * closed: closing a descriptor drops the process's locks on that file).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.probing;
    await rm(join(this.options.dir, `.write-probe-${process.pid}`), { force: true }).catch(() => {});
    this.watch?.close();
  }

  /** Waits for a write probe that starts now, then answers the state (for tests and the start). */
  async settled(): Promise<StorageState> {
    if (this.probing) await this.probing;
    await this.probe();
    return this.report(this.current());
  }

  /**
   * Why the server cannot open files or take connections now (it ran out of file descriptors),
   * or null. Not a storage fault: writes to the open database still work, and are not refused.
   */
  descriptorProblem(): string | null {
    return this.descriptors;
  }

  private noteDescriptors(problem: string | null): void {
    if (problem && !this.descriptors) this.options.logger?.error(`${problem}: ${DESCRIPTOR_ADVICE}`);
    if (!problem && this.descriptors) this.options.logger?.info("file descriptors are available again");
    this.descriptors = problem;
  }

  /** Whether a file of `bytes` more can be written now (a declared upload size, before any byte is read). */
  roomFor(bytes: number): StorageState {
    const state = this.check();
    if (!state.ok) return state;
    const room = this.room();
    if (room.bytes - bytes < this.reserveBytes) return { ok: false, status: 507, reason: room.describe(bytes) };
    return OK;
  }

  /**
   * A database call failed because SQLite found the file damaged (a page malformed), which the
   * start's check or this watch did not see (a bad disk, or a forged clean-stop note that let
   * the start skip the check): from now on /healthz says so and every change is refused.
   */
  damaged(): void {
    this.damage ??=
      "the database file is damaged (SQLite found part of it malformed): stop the site and restore the last good backup";
  }

  private current(): StorageState {
    const files = this.checkFiles();
    if (!files.ok) return files;
    if (this.damage) return { ok: false, status: 503, reason: this.damage };
    try {
      const room = this.room();
      if (room.bytes < this.reserveBytes)
        return { ok: false, status: 507, reason: room.describe(), room: Math.max(0, room.bytes) };
    } catch (error) {
      return { ok: false, status: 503, reason: `the data folder cannot be examined (${errorCode(error)})` };
    }
    return this.probed?.state ?? OK;
  }

  private report(state: StorageState): StorageState {
    const reason = state.ok ? null : state.reason;
    // Logged once per change, not once per refused request.
    if (reason !== null && reason !== this.lastReason)
      this.options.logger?.error("data cannot be kept: refusing every change until this is fixed", { reason });
    if (reason === null && this.lastReason !== null)
      this.options.logger?.info("data can be kept again: changes are accepted");
    this.lastReason = reason;
    return state;
  }

  private checkFiles(): StorageState {
    const state = this.compareFiles();
    if (!state.ok && state.mainFile && !this.changeNoted) {
      this.changeNoted = true;
      this.options.onDatabaseChanged?.(state.reason);
    }
    return state.ok ? OK : { ok: false, status: state.status, reason: state.reason };
  }

  /** `mainFile`: the problem is that app.db itself was replaced or written, not a side file or the disk. */
  private compareFiles(): StorageState & { mainFile?: boolean } {
    for (const { file, dev, ino } of this.watched) {
      const name = file.slice(file.lastIndexOf("/") + 1);
      let now: { dev: bigint; ino: bigint };
      try {
        now = statSync(file, { bigint: true });
      } catch (error) {
        if (errorCode(error) === "ENOENT")
          return {
            ok: false,
            status: 503,
            reason: `the database file ${name} is missing from the data folder (deleted or moved while the server runs)`,
          };
        return { ok: false, status: 503, reason: `the database file ${name} cannot be checked (${errorCode(error)})` };
      }
      if (now.dev !== dev || now.ino !== ino)
        return {
          ok: false,
          status: 503,
          reason: `the database file ${name} was replaced by another file while the server runs`,
          mainFile: file === this.options.databaseFile,
        };
    }
    let problem: string | null;
    let unreadable = false;
    try {
      problem = this.watch?.problem() ?? null;
    } catch (error) {
      problem = `cannot be read (${errorCode(error)})`;
      unreadable = true;
    }
    if (problem) {
      const name = basename(this.options.databaseFile ?? "app.db");
      return { ok: false, status: 503, reason: `the database file ${name} ${problem}`, mainFile: !unreadable };
    }
    return OK;
  }

  /** Room left for the next write: free space, and the process's own file size limit for the largest data file. */
  private room(): { bytes: number; describe: (wanted?: number) => string } {
    const { bavail, bsize } = statfsSync(this.options.dir);
    const free = Number(bavail) * Number(bsize);
    const limit = this.limit;
    let largest = 0;
    if (limit !== Number.POSITIVE_INFINITY) {
      for (const { file } of this.watched) {
        try {
          largest = Math.max(largest, statSync(file).size);
        } catch {
          // checked by checkFiles
        }
      }
    }
    const allowed = limit - largest;
    const kb = (n: number) => `${Math.max(0, Math.floor(n / 1024))} KB`;
    if (allowed < free)
      return {
        bytes: allowed,
        describe: (wanted) =>
          wanted
            ? `the server may not write a file of ${kb(wanted)} (its file size limit is ${kb(limit)})`
            : `the database has reached the server's file size limit (${kb(limit)})`,
      };
    return {
      bytes: free,
      describe: (wanted) =>
        wanted
          ? `the disk holding the data has ${kb(free)} free, not enough for ${kb(wanted)}`
          : `the disk holding the data is full (${kb(free)} free)`,
    };
  }

  /**
   * A real write, synced to the disk, off the event loop (an fsync can wait long on a busy
   * disk): catches quotas, read-only mounts and failing disks that free space does not show.
   */
  private probe(): Promise<StorageState> {
    const at = performance.now();
    const file = join(this.options.dir, `.write-probe-${process.pid}`);
    const run = async (): Promise<StorageState> => {
      this.limit = fileSizeLimit();
      let handle: FileHandle | undefined;
      removeOnExit(file);
      try {
        // Made here, on this thread: an exit from now on finds it and removes it. Made by the
        // asynchronous open, it could appear after the exit handler had run (a refused start
        // left one so). Opened again below without creating it.
        closeSync(openSync(file, "w", 0o600));
        handle = await open(file, "r+");
        await handle.write(new Uint8Array(512));
        await handle.sync();
        this.noteDescriptors(null);
        return OK;
      } catch (error) {
        // Out of descriptors says nothing about the disk: the last verdict on it stands.
        const shortage = descriptorShortage(error);
        if (shortage) {
          this.noteDescriptors(describeShortage(shortage));
          return this.probed?.state ?? OK;
        }
        if (storageFault(error) === "full")
          return {
            ok: false,
            status: 507,
            reason: `the disk holding the data cannot take a write (${errorCode(error)})`,
          };
        return { ok: false, status: 503, reason: `the data folder cannot be written (${errorCode(error)})` };
      } finally {
        await handle?.close().catch(() => {});
        await rm(file, { force: true }).catch(() => {});
        probesOnDisk.delete(file);
      }
    };
    this.probing = run().then((state) => {
      this.probed = { at, state };
      this.probing = null;
      return state;
    });
    return this.probing;
  }
}
