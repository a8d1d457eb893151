import { existsSync, lstatSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { BackupFile } from "#shared/features/backups/contract.ts";

/**
 * The backups the server writes in BACKUP_DIR: cam-guide-<UTC time>.auto.tar (scheduled, kept
 * by count), cam-guide-<UTC time>.manual.tar ("Back up now", always kept) and
 * cam-guide-<UTC time>.pre-migration-<from>-to-<to>.tar (taken at a start before the database
 * goes from <from> to <to> migrations, always kept). Only names of this shape are listed,
 * downloaded or deleted; nothing else in the folder is touched.
 */
export const BACKUP_FILE =
  /^cam-guide-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z(?:-\d{1,3})?\.(auto|manual|pre-migration-\d{1,4}-to-\d{1,4})\.tar$/;

/** The kind of a run: scheduled or "Back up now". */
export type BackupKind = "auto" | "manual";

/** The kind a file's name says: a run's, or the backup taken before migrating. */
export type BackupFileKind = BackupKind | `pre-migration-${number}-to-${number}`;

function fileKind(kind: string): BackupFile["kind"] {
  return kind === "auto" ? "automatic" : kind === "manual" ? "manual" : "pre-migration";
}

/** cam-guide-2026-11-24T03-30-00Z.auto.tar: the UTC time to the second, with dashes (safe on every file system). */
export function backupFileName(at: Date, kind: BackupFileKind, taken: (name: string) => boolean = () => false): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/:/g, "-");
  for (let n = 1; ; n++) {
    const name = `cam-guide-${stamp}${n === 1 ? "" : `-${n}`}.${kind}.tar`;
    if (!taken(name)) return name;
  }
}

/** The backup files in `folder`, newest first (plain files with our names only). */
export function listBackupFiles(folder: string): BackupFile[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const files: BackupFile[] = [];
  for (const name of names) {
    const match = BACKUP_FILE.exec(name);
    if (!match) continue;
    const stat = lstatSync(join(folder, name), { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    files.push({
      name,
      kind: fileKind(match[1]!),
      size: stat.size,
      writtenAt: stat.mtime.toISOString(),
    });
  }
  // The names start with the UTC time (then the number of a second backup in the same second).
  const age = (name: string) => name.replace(/Z(?:-(\d+))?\./, (_, n) => `Z${String(n ?? 1).padStart(3, "0")}.`);
  return files.sort((a, b) => (age(a.name) < age(b.name) ? 1 : -1));
}

/** Deletes the automatic backups beyond the newest `keep`; manual ones always stay. Answers the names deleted. */
export function rotateBackups(folder: string, keep: number): string[] {
  const old = listBackupFiles(folder)
    .filter((file) => file.kind === "automatic")
    .slice(keep)
    .map((file) => file.name);
  for (const name of old) rmSync(join(folder, name), { force: true });
  return old;
}

/** The path of backup `name` in `folder` when it is one of ours and a plain file there; else null. */
export function backupFilePath(folder: string, name: string): string | null {
  if (!BACKUP_FILE.test(name)) return null;
  const path = join(folder, name);
  return lstatSync(path, { throwIfNoEntry: false })?.isFile() ? path : null;
}

/**
 * Deletes backup `name` from `folder` when it is one that is always kept ("Back up now", or
 * taken before migrating): "automatic" for a scheduled one, which the rotation deletes by
 * count, and "missing" for any other name.
 */
export function deleteKeptBackup(folder: string, name: string): "deleted" | "automatic" | "missing" {
  const path = backupFilePath(folder, name);
  if (!path) return "missing";
  if (BACKUP_FILE.exec(name)?.[1] === "auto") return "automatic";
  rmSync(path, { force: true });
  return "deleted";
}

/** `path` or, while it does not exist yet, the nearest folder above it that does: where it will be made. */
function nearestExisting(path: string): string {
  let at = resolve(path);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return realpathSync(at);
}

/**
 * True while backups in `backupDir` would be lost with the disk holding the site's data: the
 * folder is inside DATA_DIR, or on the same file system (the same device number).
 */
export function backupsBesideData(dataDir: string, backupDir: string): boolean {
  try {
    const data = realpathSync(dataDir);
    const backups = nearestExisting(backupDir);
    const inside = relative(data, backups);
    if (inside === "" || (!inside.startsWith("..") && !inside.startsWith("/"))) return true;
    return statSync(data).dev === statSync(backups).dev;
  } catch {
    // DATA_DIR cannot be read: its own error is shown elsewhere, not a warning about backups.
    return false;
  }
}
