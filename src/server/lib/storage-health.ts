import { closeSync, fsyncSync, openSync, readFileSync, rmSync, statfsSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { databaseStorageFault } from "#server/db/faults.ts";
import type { Logger } from "#server/logger.ts";

// Whether what the server writes will be kept: the database file it opened is still the one
// in DATA_DIR, and the disk under DATA_DIR can take a write. /healthz reports it, and every
// request that could change data is refused while it is not so (see plugins/write-gate.ts).

export type StorageState = { ok: true } | { ok: false; status: 503 | 507; reason: string };

const OK: StorageState = { ok: true };

/** Free space below which the disk counts as full: SQLite needs room to commit and checkpoint. */
export const RESERVE_BYTES = 1024 * 1024;
/** How long one disk probe answers for; the database file itself is checked on every call. */
export const PROBE_EVERY_MS = 1000;
/** Retry-After, in seconds, on a refused write: an operator has to act first. */
export const RETRY_AFTER_SECONDS = 60;

export interface StorageHealthOptions {
  /** DATA_DIR: where the probe is written and whose free space counts. */
  dir: string;
  /** The database file to watch, or null for an in-memory database. */
  databaseFile: string | null;
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
  private probed: { at: number; state: StorageState } | null = null;
  /** The reason last reported, to log each change once: null while all is well. */
  private lastReason: string | null = null;
  private readonly probeEveryMs: number;
  private readonly reserveBytes: number;

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
    }
  }

  /** The state now: the database files compared on every call (a stat each), the disk probed at most once per interval. */
  check(): StorageState {
    const files = this.checkFiles();
    const now = performance.now();
    if (files.ok && (!this.probed || now - this.probed.at >= this.probeEveryMs))
      this.probed = { at: now, state: this.probeDisk() };
    return this.report(files.ok ? this.probed!.state : files);
  }

  /** Probes the disk again now: after a write failed, the answer must not be a stale "ok". */
  recheck(): StorageState {
    this.probed = null;
    return this.check();
  }

  /** Whether a file of `bytes` more can be written now (a declared upload size, before any byte is read). */
  roomFor(bytes: number): StorageState {
    const state = this.check();
    if (!state.ok) return state;
    const room = this.room();
    if (room.bytes - bytes < this.reserveBytes) return { ok: false, status: 507, reason: room.describe(bytes) };
    return OK;
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
        };
    }
    return OK;
  }

  /** Room left for the next write: free space, and the process's own file size limit for the largest data file. */
  private room(): { bytes: number; describe: (wanted?: number) => string } {
    const { bavail, bsize } = statfsSync(this.options.dir);
    const free = Number(bavail) * Number(bsize);
    const limit = fileSizeLimit();
    let largest = 0;
    for (const { file } of this.watched) {
      try {
        largest = Math.max(largest, statSync(file).size);
      } catch {
        // checked by checkFiles
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

  private probeDisk(): StorageState {
    try {
      const room = this.room();
      if (room.bytes < this.reserveBytes) return { ok: false, status: 507, reason: room.describe() };
    } catch (error) {
      return { ok: false, status: 503, reason: `the data folder cannot be examined (${errorCode(error)})` };
    }
    // A real write, synced to the disk: catches quotas, read-only mounts and failing disks that
    // free space alone does not show.
    const probe = join(this.options.dir, `.write-probe-${process.pid}`);
    let fd: number | undefined;
    try {
      fd = openSync(probe, "w", 0o600);
      writeSync(fd, new Uint8Array(512));
      fsyncSync(fd);
      return OK;
    } catch (error) {
      const fault = storageFault(error);
      if (fault === "full")
        return {
          ok: false,
          status: 507,
          reason: `the disk holding the data cannot take a write (${errorCode(error)})`,
        };
      return { ok: false, status: 503, reason: `the data folder cannot be written (${errorCode(error)})` };
    } finally {
      try {
        if (fd !== undefined) closeSync(fd);
        rmSync(probe, { force: true });
      } catch {
        // the failure that matters was reported above
      }
    }
  }
}
