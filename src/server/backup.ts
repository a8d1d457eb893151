import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, join } from "node:path";
import { databaseFileProblem, removeDatabaseSideFiles, snapshotDatabase } from "./db/snapshot.ts";
import { isFinishedUpload, UPLOAD_NAME } from "./features/uploads/service.ts";
import { readTar, writeTar } from "./lib/tar.ts";

/**
 * `cam-guide backup <file>`: a consistent copy of the database (taken while the site runs
 * and writes) followed by the uploads. Uploads are never changed or
 * deleted once written, so every file the copied database names is there to copy.
 */
export async function backup(dataDir: string, target: string): Promise<{ files: number }> {
  const db = join(dataDir, "app.db");
  if (!existsSync(db)) throw new Error(`No database at ${db}.`);
  const scratch = mkdtempSync(join(dataDir, ".backup-"));
  try {
    const snapshot = join(scratch, "app.db");
    await snapshotDatabase(db, snapshot);
    const entries: [string, string][] = [["app.db", snapshot]];
    const secret = join(dataDir, "jwt-secret");
    if (existsSync(secret)) entries.push(["jwt-secret", secret]);
    const uploads = join(dataDir, "uploads");
    if (existsSync(uploads)) {
      for (const name of readdirSync(uploads).sort())
        if (isFinishedUpload(uploads, name)) entries.push([`uploads/${name}`, join(uploads, name)]);
    }
    writeTar(target, entries);
    return { files: entries.length };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const RESTORABLE = (name: string) =>
  name === "app.db" || name === "jwt-secret" || (name.startsWith("uploads/") && UPLOAD_NAME.test(basename(name)));

/**
 * `cam-guide restore <file>`: puts a backup back into DATA_DIR (stop the server first).
 * An existing database is kept beside it as app.db.before-restore-<time>.
 */
export async function restore(dataDir: string, source: string): Promise<{ files: number; kept: string | null }> {
  mkdirSync(join(dataDir, "uploads"), { recursive: true });
  const staging = mkdtempSync(join(dataDir, ".restore-"));
  let files = 0;
  try {
    const buffer = Buffer.alloc(1024 * 1024);
    readTar(source, (name, _size, read) => {
      if (!RESTORABLE(name)) return;
      const target = join(staging, name);
      mkdirSync(join(target, ".."), { recursive: true });
      const fd = openSync(target, "w");
      try {
        for (let n = read(buffer); n > 0; n = read(buffer)) writeSync(fd, buffer, 0, n);
      } finally {
        closeSync(fd);
      }
      files++;
    });
    if (!existsSync(join(staging, "app.db"))) throw new Error("The backup holds no database.");
    const problem = await databaseFileProblem(join(staging, "app.db"));
    if (problem) throw new Error(`The database in the backup is damaged: ${problem}`);

    const db = join(dataDir, "app.db");
    let kept: string | null = null;
    if (existsSync(db)) {
      kept = `${db}.before-restore-${Date.now()}`;
      renameSync(db, kept);
    }
    removeDatabaseSideFiles(db);
    renameSync(join(staging, "app.db"), db);
    if (existsSync(join(staging, "jwt-secret"))) renameSync(join(staging, "jwt-secret"), join(dataDir, "jwt-secret"));
    if (existsSync(join(staging, "uploads"))) {
      for (const name of readdirSync(join(staging, "uploads")))
        renameSync(join(staging, "uploads", name), join(dataDir, "uploads", name));
    }
    return { files, kept };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
