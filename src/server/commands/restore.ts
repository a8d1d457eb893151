// `cam-guide restore <file>`: a backup put back in place of DATA_DIR's data.
import { existsSync, rmdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { DataDirError, LOCK_FILE, makePrivateDir, tightenDataDir } from "#server/data-dir.ts";
import { lockDataDir } from "#server/db/lock.ts";
import type { Config } from "#server/env.ts";
import { describeFailure, restore } from "#server/features/backups/archive.ts";
import { fail, interruptions, orFail } from "./common.ts";

export async function runRestore(config: Config, file: string) {
  const dir = resolve(config.dataDir);
  // A mistyped name is said first, before a running server is (stopping the site would not help).
  const source = resolve(file);
  if (!existsSync(source)) fail(`Restore failed: ${source} does not exist. Nothing in DATA_DIR was changed.`);
  const controller = interruptions();
  const created = orFail(() => makePrivateDir(dir));
  const lockFile = join(dir, LOCK_FILE);
  const lockExisted = existsSync(lockFile);
  let lock: ReturnType<typeof lockDataDir> | null = null;
  const undo = () => {
    // A refused restore leaves DATA_DIR as it found it: no lock file, no folder it made.
    lock?.release();
    if (lock && !lockExisted) rmSync(lockFile, { force: true });
    if (created) {
      try {
        rmdirSync(dir);
      } catch {
        // Not empty: something else put files there meanwhile; leave it.
      }
    }
  };
  try {
    lock = lockDataDir(dir, "restore");
    const { files, kept } = await restore(dir, resolve(file), controller.signal);
    tightenDataDir(dir);
    lock.release();
    console.log(`Restored ${files} files into ${dir}.${kept ? ` The previous database is kept at ${kept}.` : ""}`);
  } catch (error) {
    undo();
    await new Promise((resolve) => setImmediate(resolve));
    if (error instanceof DataDirError) fail(`Restore failed: ${error.message} Nothing in DATA_DIR was changed.`);
    if (controller.signal.aborted)
      fail(`Restore interrupted (${controller.signal.reason}); nothing in DATA_DIR was changed.`);
    fail(`Restore failed: ${describeFailure(error, dir)} Nothing in DATA_DIR was changed.`);
  }
}
