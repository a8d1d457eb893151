// DATA_DIR holds the database, the session secret and the uploads. It is private to the
// user cam-guide runs as (folders 0700, files 0600). A lock file in it says who is using
// it (src/server/db/lock.ts): one server at a time, no restore while anything else runs.
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
} from "node:fs";
import { join } from "node:path";

export const LOCK_FILE = "cam-guide.lock";
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
