import { statSync } from "node:fs";
import type { Logger } from "#server/logger.ts";
import type { Checkpointed, DatabaseHandle } from "./client.ts";

// The server folds its own write-ahead log into app.db: every connection cam-guide opens has
// SQLite's automatic checkpoint turned off (db/client.ts), so this is the only writer of the
// file while the server runs. Often enough that app.db alone is at most an interval behind
// (a young site no longer keeps everything in the log for hours), and only into a file the
// storage monitor still takes for the database, which then records what it looks like.

/** How often the log is folded in when it holds new frames. */
export const CHECKPOINT_EVERY_MS = 30_000;
/** A log this much larger than after the last checkpoint is folded in at once (SQLite's own default: 1000 pages of 4 KiB). */
export const CHECKPOINT_LOG_BYTES = 4 * 1024 * 1024;
/** How often the log's size is looked at (one stat). */
const LOOK_EVERY_MS = 1000;

export interface CheckpointOptions {
  database: Pick<DatabaseHandle, "checkpoint">;
  /** The database file; its log is `${file}-wal`. */
  file: string;
  everyMs?: number;
  logBytes?: number;
  /** Asked first: false while the file is not the database opened (it is then never written). */
  mayWrite: () => boolean;
  /** Told right after each checkpoint, failed or not: the file as it is now is the server's. */
  written: () => void;
  logger?: Logger;
}

export interface Checkpoints {
  /** One checkpoint now (if the file may be written); what it did, or null when it did not run. */
  run(): Checkpointed | null;
  stop(): void;
}

/** The log's size and time, or null when there is none. */
function logState(file: string): { size: number; mtimeMs: number } | null {
  try {
    const { size, mtimeMs } = statSync(`${file}-wal`);
    return { size, mtimeMs };
  } catch {
    return null;
  }
}

/** Checkpoints the server's database on a timer: every `everyMs` while the log grows, at once past `logBytes`. */
export function scheduleCheckpoints(options: CheckpointOptions): Checkpoints {
  const everyMs = options.everyMs ?? CHECKPOINT_EVERY_MS;
  const logBytes = options.logBytes ?? CHECKPOINT_LOG_BYTES;
  let last = { at: performance.now(), log: logState(options.file) };
  let pending = false;
  let lastError: string | null = null;

  const run = (): Checkpointed | null => {
    if (!options.mayWrite()) return null;
    let result: Checkpointed | null;
    try {
      result = options.database.checkpoint();
      // Null: a transaction is open, nothing was written; the next look tries again.
      if (!result) return null;
      if (lastError) options.logger?.info("checkpoints of the database work again");
      lastError = null;
    } catch (error) {
      // A checkpoint that failed half-way (a full disk) may have written part of the file.
      options.written();
      const message = (error as Error).message;
      if (message !== lastError) options.logger?.error("the database's checkpoint failed", { error: message });
      lastError = message;
      // Tried again after an interval, not at every look.
      last = { at: performance.now(), log: logState(options.file) };
      pending = true;
      return null;
    }
    options.written();
    last = { at: performance.now(), log: logState(options.file) };
    // Readers kept part of the log from being folded or emptied: tried again at the next look.
    pending = !result.complete;
    return result;
  };

  const look = () => {
    const log = logState(options.file);
    if (!log) return;
    const grown = log.size !== last.log?.size || log.mtimeMs !== last.log?.mtimeMs;
    const due = performance.now() - last.at >= everyMs;
    if ((due && (grown || pending)) || log.size - (last.log?.size ?? 0) >= logBytes) run();
  };
  const timer = setInterval(look, Math.min(LOOK_EVERY_MS, everyMs));
  timer.unref();

  return {
    run,
    stop() {
      clearInterval(timer);
    },
  };
}
