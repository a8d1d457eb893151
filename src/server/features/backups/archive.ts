import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
} from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { DIR_MODE, FILE_MODE, giveToOwnerOf, markSite, SITE_MARKER, siteDatabase } from "#server/data-dir.ts";
import {
  databaseIdInFile,
  moveDatabase,
  removeDatabaseSideFiles,
  removeRunsInProgress,
  removeSalts,
  replacementDatabaseProblem,
  settleValues,
  snapshotDatabase,
} from "#server/db/snapshot.ts";
import { jwtSecretProblem } from "#server/features/auth/bootstrap.ts";
import { isFinishedUpload, MAX_UPLOAD_BYTES, UPLOAD_NAME } from "#server/features/media/uploads.ts";
import { isAlive } from "#server/lib/storage-health.ts";
import { readTar, shownName, TarError, writeAll, writeTar } from "#server/lib/tar.ts";

/** A backup or restore that was refused or failed; its message is one sentence for the operator. */
export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OperatorError";
  }
}

const refuse = (message: string): never => {
  throw new OperatorError(message);
};

const code = (error: unknown) => (error as { code?: string }).code ?? "";

/** A file-system or SQLite failure, said in words, for the one-line message. */
export function describeFailure(error: unknown, path: string): string {
  if (error instanceof OperatorError || error instanceof TarError) return error.message;
  const c = code(error);
  const message = (error as Error).message ?? String(error);
  if (["ENOSPC", "EDQUOT", "EFBIG", "SQLITE_FULL"].includes(c) || /disk is full|file too large/i.test(message))
    return `There is not enough space to write ${path} (the disk is full or a file size limit was reached).`;
  if (c === "EACCES" || c === "EPERM") return `Not allowed to write ${path}.`;
  if (c === "EROFS") return `${path} is on a read-only file system.`;
  return `${message.replace(/\s+/g, " ").trim()} (${path}).`;
}

/** True when `inner` is `outer` or inside it, both real paths. */
function within(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || !(rel === ".." || rel.startsWith("../") || rel.startsWith("/"));
}

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

/** The files a backup of `dataDir` copies, besides the database snapshot: [archive name, path]. */
function dataFiles(dataDir: string): [string, string][] {
  const files: [string, string][] = [];
  // Plain files only: a link or a pipe planted in DATA_DIR is not followed.
  const plain = (path: string) => lstatSync(path, { throwIfNoEntry: false })?.isFile() === true;
  if (plain(join(dataDir, "jwt-secret"))) files.push(["jwt-secret", join(dataDir, "jwt-secret")]);
  const uploads = join(dataDir, "uploads");
  if (lstatSync(uploads, { throwIfNoEntry: false })?.isDirectory()) {
    // Finished uploads only: a temporary or empty file (a failed upload) is never archived.
    for (const name of readdirSync(uploads).sort())
      if (isFinishedUpload(uploads, name) && plain(join(uploads, name)))
        files.push([`uploads/${name}`, join(uploads, name)]);
  }
  return files;
}

/**
 * Where the backup will be written, as a real path, once it is sure that writing there
 * cannot touch DATA_DIR: not inside it (by path, through links, or through a bind mount),
 * not a folder, a link or a device, not one of the files being copied.
 */
function backupTarget(realData: string, target: string, raw: string, automaticDir?: string): string {
  if (raw.endsWith("/"))
    refuse(`${raw} names a folder; name the backup file to write, e.g. ${join(raw, "cam-guide.tar")}.`);
  const folder = dirname(target);
  let realFolder = "";
  try {
    realFolder = realpathSync(folder);
  } catch (error) {
    refuse(
      code(error) === "ENOENT"
        ? `The folder ${folder} does not exist; create it first.`
        : `Cannot use the folder ${folder}: ${describeFailure(error, folder)}`,
    );
  }
  if (!statSync(realFolder).isDirectory()) refuse(`${folder} is not a folder.`);
  const real = join(realFolder, basename(target));
  const inside = `${target} is inside DATA_DIR (${realData}); write backups somewhere else, so that one survives losing DATA_DIR.`;
  // The automatic backups' own folder may be DATA_DIR/backups: no backup ever copies it.
  const ownFolder = automaticDir !== undefined && realFolder === automaticDir && !isCopiedFolder(realData, realFolder);
  if (!ownFolder) {
    if (within(realData, real)) refuse(inside);
    // The same folder reached another way (a bind mount, a hard-linked path) has the same inode.
    const data = statSync(realData);
    for (let dir = realFolder; ; dir = dirname(dir)) {
      if (sameFile(statSync(dir), data)) refuse(inside);
      if (dir === dirname(dir)) break;
    }
  }
  const existing = lstatSync(real, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) {
    let pointsAt = "";
    try {
      pointsAt = realpathSync(real);
    } catch {
      // A dangling link: refused below all the same.
    }
    if (pointsAt && within(realData, pointsAt)) refuse(inside);
    refuse(`${target} is a symbolic link; name the file itself (${pointsAt || "the link points nowhere"}).`);
  }
  if (existing?.isDirectory()) refuse(`${target} is a folder; name the backup file to write inside it.`);
  if (existing && !existing.isFile()) refuse(`${target} is not a plain file (a device or a pipe); name a file.`);
  if (existing) {
    const live = ["app.db", "app.db-wal", "app.db-shm"].map((name) => join(realData, name));
    for (const path of [...live, ...dataFiles(realData).map(([, p]) => p)]) {
      const other = lstatSync(path, { throwIfNoEntry: false });
      if (other && sameFile(other, existing))
        refuse(`${target} is the same file as ${path} (a hard link); name another file.`);
    }
  }
  return real;
}

/** True when a backup of `realData` would copy files of `folder` (DATA_DIR itself or its uploads). */
function isCopiedFolder(realData: string, folder: string): boolean {
  return folder === realData || within(join(realData, "uploads"), folder);
}

/**
 * Why automatic backups cannot be written to `folder` (a real path) for DATA_DIR, or null:
 * it must not be DATA_DIR, its uploads, or a folder holding DATA_DIR, so no backup copies another.
 */
export function backupFolderProblem(dataDir: string, folder: string): string | null {
  const realData = realpathSync(dataDir);
  if (isCopiedFolder(realData, folder) || within(folder, realData))
    return `BACKUP_DIR (${folder}) must be a folder of its own, outside DATA_DIR's uploads, so that no backup copies another.`;
  return null;
}

const TEMP = /^\.cam-guide-backup-(\d+)-[0-9a-f]{8}$/;
/** The temporary folder of an automatic run (see features/backups/auto-backup.ts). */
export const AUTOMATIC_TEMP = ".cam-guide-auto-";

/** A backup killed outright (kill -9) leaves its temporary folder; the next one into the same folder removes it. */
function removeDeadBackupTemps(folder: string): void {
  for (const name of readdirSync(folder)) {
    const match = TEMP.exec(name);
    if (match && Number(match[1]) !== process.pid && !isAlive(Number(match[1])))
      rmSync(join(folder, name), { recursive: true, force: true });
  }
}

function syncFolder(folder: string): void {
  try {
    const fd = openSync(folder, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot sync a folder; the rename itself is still atomic.
  }
}

/**
 * `cam-guide backup <file>`: a consistent copy of the database (taken while the site runs
 * and writes) followed by the session secret and the uploads, in one tar file. Uploads are
 * never changed once written; one the admin deletes between the two copies leaves the backup
 * with its row but not its file (or its file but not its row), which the restored site's
 * start reports and its media library shows. Nothing is written in DATA_DIR: the copy is built in a temporary folder next to
 * the target and renamed onto it only when complete, so a failed or interrupted backup
 * leaves the previous file at that name as it was.
 */
export async function backup(
  dataDir: string,
  target: string,
  options: {
    raw?: string;
    signal?: AbortSignal;
    /** The automatic backups' folder (a real path): writing there is allowed even inside DATA_DIR. */
    automaticDir?: string;
  } = {},
): Promise<{ files: number; path: string }> {
  const db = join(dataDir, "app.db");
  if (!existsSync(dataDir)) refuse(`DATA_DIR (${dataDir}) does not exist; is DATA_DIR right?`);
  if (!lstatSync(db, { throwIfNoEntry: false })?.isFile()) refuse(`No database at ${db}; is DATA_DIR right?`);
  // Never opened when not recognised: SQLite could fold the log into it or delete the log.
  const found = siteDatabase(dataDir);
  if (found.state === "unrecognised")
    refuse(
      `The database ${db} ${found.problem}, so there is nothing to back up; see cam-guide restore and cam-guide new-database.`,
    );
  const realData = realpathSync(dataDir);
  const real = backupTarget(realData, target, options.raw ?? target, options.automaticDir);
  const folder = dirname(real);
  removeDeadBackupTemps(folder);
  // An automatic run's own prefix: its next run, holding the run lock, removes every one left
  // without asking whether the process that made it is alive (a zombie or a reused id would say so).
  const prefix = options.automaticDir !== undefined ? AUTOMATIC_TEMP : `.cam-guide-backup-${process.pid}-`;
  const temp = join(folder, `${prefix}${randomBytes(4).toString("hex")}`);
  try {
    try {
      mkdirSync(temp, { mode: DIR_MODE });
    } catch (error) {
      refuse(describeFailure(error, folder));
    }
    const snapshot = join(temp, "app.db");
    try {
      await snapshotDatabase(db, snapshot);
      removeRunsInProgress(snapshot);
      removeSalts(snapshot);
      settleValues(snapshot);
    } catch (error) {
      refuse(`Could not copy the database: ${describeFailure(error, real)}`);
    }
    const entries: [string, string][] = [["app.db", snapshot], ...dataFiles(dataDir)];
    const archive = join(temp, "backup.tar");
    let files = 0;
    try {
      const out = openSync(archive, "wx", FILE_MODE);
      try {
        // An upload the admin deletes while the backup runs is left out, not a failed backup.
        files = await writeTar(out, entries, options.signal, (name) => name.startsWith("uploads/"));
        fsyncSync(out);
      } finally {
        closeSync(out);
      }
      renameSync(archive, real);
    } catch (error) {
      if (error instanceof Error && error.name === "Interrupted") throw error;
      refuse(describeFailure(error, real));
    }
    syncFolder(folder);
    return { files, path: real };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * Reads the whole archive `source` into `staging` and checks it as a restore would: only the
 * entries a backup holds, each once, within their sizes, every byte readable, a sound
 * cam-guide database (SQLite's integrity check included) and a valid session secret. Throws
 * an OperatorError saying what is wrong. Uploads are written only with `keepUploads`;
 * otherwise they are read through and dropped. Answers the names it holds.
 */
async function checkArchive(
  source: string,
  staging: string,
  { signal, keepUploads }: { signal?: AbortSignal; keepUploads: boolean },
): Promise<Set<string>> {
  const seen = new Set<string>();
  await readTar(
    source,
    async (name, size, chunks) => {
      const kind = entryKind(name);
      if (seen.has(name)) refuse(`The backup holds ${shownName(name)} twice.`);
      seen.add(name);
      if (size > LIMITS[kind])
        refuse(`The backup holds ${shownName(name)} of ${size} bytes, more than cam-guide ever stores there.`);
      if (kind === "upload" && !keepUploads) {
        for await (const _chunk of chunks());
        return;
      }
      const path = join(staging, name);
      if (kind === "upload") mkdirSync(join(staging, "uploads"), { recursive: true, mode: DIR_MODE });
      const fd = openSync(path, "wx", FILE_MODE);
      try {
        for await (const chunk of chunks()) writeAll(fd, chunk, chunk.length);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
    signal,
  );
  if (!seen.has("app.db")) refuse("The backup holds no database (app.db).");
  const problem = await replacementDatabaseProblem(join(staging, "app.db"));
  if (problem) refuse(`The database in the backup ${problem}.`);
  removeDatabaseSideFiles(join(staging, "app.db"));
  if (seen.has("jwt-secret")) {
    const secretProblem = jwtSecretProblem(readFileSync(join(staging, "jwt-secret"), "utf8"));
    if (secretProblem) refuse(`The session secret in the backup ${secretProblem}.`);
  }
  if (signal?.aborted) refuse("Interrupted.");
  return seen;
}

/**
 * Checks a backup file without restoring it (the same checks as a restore), in a temporary
 * folder beside it that is removed afterwards. Throws an OperatorError saying what is wrong.
 */
export async function verifyBackup(file: string, signal?: AbortSignal): Promise<{ files: number }> {
  const staging = mkdtempSync(join(dirname(file), ".cam-guide-verify-"));
  try {
    return { files: (await checkArchive(file, staging, { signal, keepUploads: false })).size };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

type Kind = "database" | "secret" | "upload";

/** What an archive entry is, or why no cam-guide backup would hold it. */
function entryKind(name: string): Kind {
  if (name === "app.db") return "database";
  if (name === "jwt-secret") return "secret";
  const upload = /^uploads\/([^/]+)$/.exec(name);
  if (upload && UPLOAD_NAME.test(upload[1]!)) return "upload";
  const shown = shownName(name);
  if (name.startsWith("/")) refuse(`The backup holds ${shown}, an absolute path; cam-guide backups never do.`);
  if (name.split("/").includes("..")) refuse(`The backup holds ${shown}, a path that climbs out of DATA_DIR.`);
  return refuse(
    `The backup holds ${shown}, which a cam-guide backup never holds (only app.db, jwt-secret and uploads/<file>).`,
  );
}

const LIMITS: Record<Kind, number> = {
  database: Number.MAX_SAFE_INTEGER,
  secret: 4096,
  upload: MAX_UPLOAD_BYTES,
};

const RESTORE_TEMP = ".restore-";

/** A restore killed outright leaves its staging folder in DATA_DIR; whoever next holds DATA_DIR alone removes it. */
export function removeRestoreLeftovers(dataDir: string): void {
  for (const name of readdirSync(dataDir))
    if (name.startsWith(RESTORE_TEMP)) rmSync(join(dataDir, name), { recursive: true, force: true });
}

/**
 * `cam-guide restore <file>`: puts a backup back into DATA_DIR. The caller holds DATA_DIR's
 * restore lock (no server, no other command). The whole archive is read into a staging
 * folder inside DATA_DIR and checked first: only the entries a backup holds, each once, plain
 * files only, and a database that is sound, is cam-guide's and is not from a newer version.
 * Only then are files moved into place; the previous database is kept beside the new one.
 */
export async function restore(
  dataDir: string,
  source: string,
  signal?: AbortSignal,
): Promise<{ files: number; kept: string | null }> {
  const stat = statSync(source, { throwIfNoEntry: false });
  if (!stat) refuse(`${source} does not exist.`);
  if (stat!.isDirectory()) refuse(`${source} is a folder, not a backup file.`);
  if (!stat!.isFile()) refuse(`${source} is not a plain file (a device or a pipe), so it is not a backup.`);
  removeRestoreLeftovers(dataDir);
  const staging = mkdtempSync(join(dataDir, RESTORE_TEMP));
  try {
    const seen = await checkArchive(source, staging, { signal, keepUploads: true });
    // A backup taken by an older version may still hold its own run as going.
    removeRunsInProgress(join(staging, "app.db"));

    const uploads = join(dataDir, "uploads");
    const uploadsStat = lstatSync(uploads, { throwIfNoEntry: false });
    if (uploadsStat && !uploadsStat.isDirectory())
      refuse(`${uploads} is not a folder (a link or a file); cam-guide keeps uploads in a folder of DATA_DIR.`);
    const stagedUploads = existsSync(join(staging, "uploads")) ? readdirSync(join(staging, "uploads")) : [];
    for (const name of stagedUploads)
      if (lstatSync(join(uploads, name), { throwIfNoEntry: false })?.isDirectory())
        refuse(`${join(uploads, name)} is a folder where the backup has a file.`);
    // Run as root, the restored files still belong to whoever owns DATA_DIR (the server's user).
    giveToOwnerOf(dataDir, [
      ...[...seen].map((name) => join(staging, name)),
      ...(stagedUploads.length > 0 ? [join(staging, "uploads")] : []),
    ]);

    // Everything is checked: from here on, only renames inside DATA_DIR.
    const db = join(dataDir, "app.db");
    let kept: string | null = null;
    if (existsSync(db)) {
      kept = `${db}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      moveDatabase(db, kept);
    } else {
      // A log left without its database would be replayed into the restored one.
      removeDatabaseSideFiles(db);
    }
    const id = databaseIdInFile(join(staging, "app.db"));
    try {
      renameSync(join(staging, "app.db"), db);
    } catch (error) {
      if (kept) moveDatabase(kept, db);
      throw error;
    }
    // The folder now holds this database too: a server starts on it, and on none it never held.
    markSite(dataDir, id);
    giveToOwnerOf(dataDir, [join(dataDir, SITE_MARKER)]);
    if (seen.has("jwt-secret")) renameSync(join(staging, "jwt-secret"), join(dataDir, "jwt-secret"));
    if (stagedUploads.length > 0 && !uploadsStat) renameSync(join(staging, "uploads"), uploads);
    else for (const name of stagedUploads) renameSync(join(staging, "uploads", name), join(uploads, name));
    syncFolder(dataDir);
    return { files: seen.size, kept };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
