import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { eq, inArray } from "drizzle-orm";
import { inTransaction } from "#server/db/transaction.ts";
import type { Db } from "#server/db/types.ts";
import { storageFault } from "#server/lib/storage-health.ts";
import type { Logger } from "#server/logger.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { VARIANT_WIDTHS } from "#shared/features/media/constants.ts";
import { type Measured, measureImage } from "./images.ts";
import { uploadIdOf, withUploadName } from "./name-lock.ts";
import { storeOf } from "./store.ts";
import { type MediaVariant, media, uploadDeletions } from "./table.ts";
import {
  CONTENT_TYPES,
  isFinishedUpload,
  ORIGINAL_UPLOAD_NAME,
  type StoredUpload,
  syncDirectory,
  UPLOAD_COPY_NAME,
  UPLOAD_KINDS,
} from "./uploads.ts";

// The library's rows and the files in the uploads folder, kept in step. Every step that
// registers an upload (a new upload, a file found without a row, copies remade) and every
// step that deletes one holds that upload's name (withUploadName), so no two interleave. Each
// step writes in an order that leaves, after a kill at any point, a state the next start puts
// right (reconcileUploads): a registration renames the original into place before it makes the
// copies and writes the row last; a deletion first sets the original aside under a name that
// says so, then deletes the row, then the files.

export type MediaRow = typeof media.$inferSelect;

/** An original upload's name (not a smaller copy). */
export const isOriginal = (name: string) => ORIGINAL_UPLOAD_NAME.test(name);
const isCopy = (name: string) => UPLOAD_COPY_NAME.test(name);

/**
 * The smaller copies a row lists that are the server's copies of its own upload. A row written
 * by other means (an older release, a restore, by hand) may list any name: only these are ever
 * served, opened or deleted.
 */
export function ownCopies<T extends { name: string }>(row: { name: string; variants: T[] }): T[] {
  if (!isOriginal(row.name)) return [];
  return row.variants.filter(
    (v) => typeof v?.name === "string" && isCopy(v.name) && uploadIdOf(v.name) === uploadIdOf(row.name),
  );
}
/** A deletion's first step renames the original to this prefix and its name: no longer served. */
const DELETING = ".deleting-";

const code = (error: unknown) => (error as { code?: string }).code;

/**
 * The smaller copies of the upload `name`: those `listed` and any at today's widths, and only
 * names the server makes for that upload (a listed name could point anywhere).
 */
function copiesOf(name: string, listed: { name: string }[]): string[] {
  const names = new Set([...listed.map((v) => v.name), ...VARIANT_WIDTHS.map((w) => `${uploadIdOf(name)}-w${w}.webp`)]);
  return ownCopies({ name, variants: [...names].map((copy) => ({ name: copy })) }).map((copy) => copy.name);
}

function removeCopies(dir: string, name: string, listed: MediaVariant[]): void {
  for (const copy of copiesOf(name, listed)) rmSync(join(dir, copy), { force: true });
}

async function insertRow(db: Db, values: typeof media.$inferInsert): Promise<MediaRow | null> {
  const [row] = await db.insert(media).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/**
 * Records a new upload in the library: an image's size and smaller copies are made first. A
 * damaged or oversized image is removed and refused (4xx); so is every file of one whose row
 * cannot be written (a full disk): an upload answered with an error is never recorded later.
 * Runs holding the upload's name (receiveUpload takes it before the file gets that name).
 */
export async function registerUpload(db: Db, dir: string, stored: StoredUpload): Promise<MediaRow> {
  const { name, type: mime, size, originalName, sha256 } = stored;
  const kind = UPLOAD_KINDS[mime]?.kind ?? "image";
  let measured: Measured | null = null;
  try {
    if (kind === "image") measured = await measureImage(dir, name);
    await keepFiles(dir, [name, ...(measured?.variants ?? []).map((v) => v.name)]);
    const row = await insertRow(db, { name, mime, kind, size, originalName, sha256, ...sizes(measured) });
    if (row) return row;
  } catch (error) {
    removeCopies(dir, name, measured?.variants ?? []);
    rmSync(join(dir, name), { force: true });
    // An upload answered with an error is kept nowhere, the bucket included.
    await storeOf(dir)
      .forget([name, ...(measured?.variants ?? []).map((v) => v.name)])
      .catch(() => {});
    throw error;
  }
  const [existing] = await db.select().from(media).where(eq(media.name, name)).limit(1);
  return existing!;
}

/** The library's item holding these bytes, when its file is still there (a row whose file went is no copy to reuse). */
export async function sameUpload(db: Db, dir: string, sha256: string): Promise<MediaRow | null> {
  const rows = await db.select().from(media).where(eq(media.sha256, sha256));
  // Kept in a bucket, it may be in another instance's folder only: the bucket says.
  for (const row of rows)
    if (
      isOriginal(row.name) &&
      (await storeOf(dir)
        .has(dir, row.name)
        .catch(() => false))
    )
      return row;
  return null;
}

const sizes = (measured: Measured | null) => ({
  width: measured?.width ?? null,
  height: measured?.height ?? null,
  variants: measured?.variants ?? [],
});

/** An image measured for a file found in the folder: without a size when it cannot be read, null on a disk fault. */
async function measureFound(dir: string, name: string): Promise<Measured | "unreadable" | null> {
  try {
    return await measureImage(dir, name);
  } catch (error) {
    // Tried again the next time the library is listed: a full disk is no reason to record it sizeless.
    return error instanceof HttpError ? "unreadable" : null;
  }
}

/** Records a file found in the folder without a row; false when it went or got one meanwhile. */
async function recordFound(db: Db, dir: string, name: string): Promise<boolean> {
  if (!isFinishedUpload(dir, name)) return false;
  if ((await db.select({ id: media.id }).from(media).where(eq(media.name, name)).limit(1)).length > 0) return false;
  const mime = CONTENT_TYPES[name.split(".").pop()!]!;
  const kind = UPLOAD_KINDS[mime]!.kind;
  let measured: Measured | null = null;
  if (kind === "image") {
    // Copies left by a registration a crash cut short are made again, never trusted.
    removeCopies(dir, name, []);
    const found = await measureFound(dir, name);
    if (found === null) return false;
    if (found !== "unreadable") measured = found;
  }
  const stat = statSync(join(dir, name));
  return (
    (await insertRow(db, { name, mime, kind, size: stat.size, ...sizes(measured), createdAt: stat.mtime })) !== null
  );
}

/** Makes again the smaller copies a row lists but the folder lacks; false when there was nothing to do. */
async function remakeCopies(db: Db, dir: string, id: number): Promise<boolean> {
  const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1);
  if (
    !row ||
    !isOriginal(row.name) ||
    !isFinishedUpload(dir, row.name) ||
    row.variants.every((v) => isFinishedUpload(dir, v.name))
  )
    return false;
  const measured = await measureFound(dir, row.name);
  const update =
    measured && measured !== "unreadable"
      ? sizes(measured)
      : // Unreadable now, or the disk is full: the row lists only the copies that are there.
        { variants: row.variants.filter((v) => isFinishedUpload(dir, v.name)) };
  await db.update(media).set(update).where(eq(media.id, row.id));
  return measured !== null && measured !== "unreadable";
}

export interface Registered {
  /** Files found without a row, now recorded. */
  recorded: number;
  /** Rows whose smaller copies were missing, now made again. */
  remade: number;
}

const registering = new Map<string, Promise<Registered>>();

/**
 * Records the files in the folder that have no row (uploads from before the library, or one a
 * crash stopped before its row was written) and makes again the copies a row lists but the
 * folder lacks: at start in the background, and before the library is listed; one run per
 * folder at a time. A file that cannot be read as an image is recorded without a size, never
 * removed.
 */
export function registerExistingUploads(db: Db, dir: string): Promise<Registered> {
  const running = registering.get(dir);
  if (running) return running;
  const run = (async () => {
    const done: Registered = { recorded: 0, remade: 0 };
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => isOriginal(name) && isFinishedUpload(dir, name));
    } catch {
      return done;
    }
    if (names.length === 0) return done;
    const rows = new Map(
      (await db.select({ id: media.id, name: media.name, variants: media.variants }).from(media)).map((r) => [
        r.name,
        r,
      ]),
    );
    for (const name of names) {
      const row = rows.get(name);
      // Each checked again holding the name: a delete or an upload may have come first.
      try {
        if (!row) {
          if (await withUploadName(dir, name, () => recordFound(db, dir, name))) done.recorded++;
        } else if (row.variants.some((v) => !isFinishedUpload(dir, v.name))) {
          if (await withUploadName(dir, name, () => remakeCopies(db, dir, row.id))) done.remade++;
        }
      } catch (error) {
        // A full or failing disk: tried again at the next listing; the library can still be read.
        if (!storageFault(error)) throw error;
      }
    }
    return done;
  })().finally(() => registering.delete(dir));
  registering.set(dir, run);
  return run;
}

/**
 * Deletes an upload: the original is set aside (no longer served; a start after a crash
 * finishes the deletion), then the row goes, then the copies and the set-aside original (kept
 * in a bucket: removeKeptUpload). The caller holds the upload's name. An original already
 * missing is no obstacle.
 */
export async function removeUpload(db: Db, dir: string, row: Pick<MediaRow, "id" | "name" | "variants">) {
  // A name the server never makes (a row written by other means) names no file of the
  // library: only the row goes, and no path is built from it.
  if (!isOriginal(row.name)) {
    await db.delete(media).where(eq(media.id, row.id));
    return;
  }
  if (storeOf(dir).kind === "bucket") return removeKeptUpload(db, dir, row);
  const original = join(dir, row.name);
  const aside = join(dir, `${DELETING}${row.name}`);
  let setAside = false;
  try {
    renameSync(original, aside);
    setAside = true;
  } catch (error) {
    if (code(error) !== "ENOENT") throw error;
  }
  try {
    if (setAside) await syncDirectory(dir);
    await db.delete(media).where(eq(media.id, row.id));
  } catch (error) {
    // The row stays: so does its file.
    if (setAside) renameSync(aside, original);
    throw error;
  }
  removeCopies(dir, row.name, row.variants);
  rmSync(aside, { force: true });
}

/** The names of an upload's files: the original, its listed copies and any at today's widths. */
const filesOf = (row: Pick<MediaRow, "name" | "variants">) => [row.name, ...copiesOf(row.name, row.variants)];

/**
 * A deletion when uploads are kept in a bucket. The row goes first, and with it, in the same
 * transaction, each of its files is written down as to be removed: from then on no instance
 * serves the upload (each serves only the files of uploads the library lists: servedUpload).
 * Then the files leave this folder and the bucket. What the bucket does not take now is tried
 * again every minute, and a stop cut short is finished by the next start (finishBucketDeletions):
 * a deletion the admin is told of is never half done.
 */
async function removeKeptUpload(db: Db, dir: string, row: Pick<MediaRow, "id" | "name" | "variants">) {
  const names = filesOf(row);
  await inTransaction(db, async (tx) => {
    const gone = await tx.delete(media).where(eq(media.id, row.id)).returning({ id: media.id });
    // Deleted meanwhile through another instance: that deletion answered, this one finds none.
    if (gone.length === 0) throw new HttpError(404, "No upload with that id.");
    await tx
      .insert(uploadDeletions)
      .values(names.map((name) => ({ name })))
      .onConflictDoNothing();
  });
  libraryChanged(dir);
  for (const name of names) rmSync(join(dir, name), { force: true });
  // The deletion is done once the row is gone: a bucket that hangs delays the answer a few
  // seconds at most, and its files go when it answers (or on the next try).
  let waited: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    finishBucketDeletions(db, dir, names),
    new Promise((resolve) => {
      waited = setTimeout(resolve, BUCKET_WAIT_MS);
    }),
  ]);
  clearTimeout(waited);
}

/** How long a deletion's answer waits for the bucket to let the files go. */
const BUCKET_WAIT_MS = 5_000;

/** Where what happens to deleted uploads' files in the bucket is told (the server's log, set at start). */
let deletionLog: Pick<Logger, "warn" | "info"> | null = null;
export function logBucketDeletionsTo(logger: Pick<Logger, "warn" | "info">): void {
  deletionLog = logger;
}

const retries = new Map<string, ReturnType<typeof setTimeout>>();

/**
 * Removes from the bucket the files written down as deleted (`only`: just these, else all) and
 * crosses each off once the bucket has let it go; those it does not take are tried again in a
 * minute. Returns how many were removed. Never fails: the bucket or the database out of reach
 * leaves the list for the next try.
 */
export async function finishBucketDeletions(db: Db, dir: string, only?: string[]): Promise<number> {
  const store = storeOf(dir);
  if (store.kind !== "bucket") return 0;
  let removed = 0;
  let left = false;
  try {
    const names = (only ?? (await db.select({ name: uploadDeletions.name }).from(uploadDeletions)).map((r) => r.name))
      // Only a name the server makes names a file of the bucket's uploads.
      .filter((name) => isOriginal(name) || isCopy(name));
    // One after the other: a few files, and some S3-compatible servers fail deletes side by side.
    let failure: unknown = null;
    for (const name of names) {
      try {
        await store.forget([name]);
      } catch (error) {
        failure ??= error;
        left = true;
        continue;
      }
      await db.delete(uploadDeletions).where(eq(uploadDeletions.name, name));
      removed++;
    }
    // Said each time, so a bucket key without the right to delete is seen, not left for good.
    if (failure)
      deletionLog?.warn(
        `the bucket did not remove ${names.length - removed} file(s) of deleted uploads (they are served by no instance; tried again in a minute): ${(failure as Error).message}`,
      );
    else if (!only && removed > 0) deletionLog?.info(`removed ${removed} file(s) of deleted uploads from the bucket`);
  } catch (error) {
    deletionLog?.warn(`could not finish removing deleted uploads from the bucket: ${(error as Error).message}`);
    left = true;
  }
  if (left && !retries.has(dir)) {
    const retry = setTimeout(() => {
      retries.delete(dir);
      void finishBucketDeletions(db, dir);
    }, 60_000);
    retry.unref?.();
    retries.set(dir, retry);
  }
  return removed;
}

/** Per uploads folder, the files known to belong to an upload the library lists, and a count of its changes. */
const served = new Map<string, { names: Set<string>; changes: number }>();
const servedIn = (dir: string) => {
  const known = served.get(dir) ?? { names: new Set<string>(), changes: 0 };
  served.set(dir, known);
  return known;
};

/** Called when the media library changed (here, or through another instance): what servedUpload knew is asked again. */
function libraryChanged(dir: string): void {
  const known = servedIn(dir);
  known.names.clear();
  known.changes++;
}

/** The original's names an image copy's upload can have: one per image type the server takes. */
const IMAGE_EXTENSIONS = Object.values(UPLOAD_KINDS)
  .filter((type) => type.kind === "image")
  .map((type) => type.ext);

/**
 * Whether `name` is a file of an upload the library lists: its original, or a copy its row
 * lists. With uploads in a bucket, a file is served only then (an instance's folder, or the
 * bucket, can still hold a deleted upload's files for a moment). Remembered until the library changes.
 */
export async function servedUpload(db: Db, dir: string, name: string): Promise<boolean> {
  const known = servedIn(dir);
  if (known.names.has(name)) return true;
  const changes = known.changes;
  const candidates = isOriginal(name) ? [name] : IMAGE_EXTENSIONS.map((ext) => `${uploadIdOf(name)}.${ext}`);
  const rows = await db
    .select({ name: media.name, variants: media.variants })
    .from(media)
    .where(inArray(media.name, candidates));
  const listed = rows.some((row) => row.name === name || ownCopies(row).some((copy) => copy.name === name));
  // A change meanwhile (a deletion) may have made the answer old: it is not remembered.
  if (listed && known.changes === changes) known.names.add(name);
  return listed;
}

export interface Reconciled {
  /** Deletions a stop cut short, finished. */
  finished: number;
  /** Smaller copies no row lists (and no original waiting to be recorded would make), removed. */
  orphans: number;
  /** Rows whose original is not in the folder, kept (the library marks them). */
  missing: number;
}

/**
 * Puts the rows and the files in step at start, before the server serves: deletions a stop cut
 * short are finished and copies no row lists are removed (a copy is the server's, made from an
 * original it can make it from again; the original itself is never removed here); rows whose
 * original is missing are counted and kept (the file may come back, from a backup or a folder
 * mounted late; the library marks them). Files without a row are left for
 * registerExistingUploads. An original is never deleted unless its deletion had begun.
 */
export async function reconcileUploads(db: Db, dir: string): Promise<Reconciled> {
  const done: Reconciled = { finished: 0, orphans: 0, missing: 0 };
  // No folder (a backup that caught none of the files): every row has lost its file.
  if (!existsSync(dir)) {
    done.missing = await db.$count(media);
    return done;
  }
  for (const aside of readdirSync(dir)) {
    const name = aside.slice(DELETING.length);
    if (!aside.startsWith(DELETING) || !isOriginal(name)) continue;
    // Put back by hand after the crash: the file stays and the deletion is dropped.
    if (!existsSync(join(dir, name))) {
      const [row] = await db.delete(media).where(eq(media.name, name)).returning({ variants: media.variants });
      removeCopies(dir, name, row?.variants ?? []);
      done.finished++;
    }
    rmSync(join(dir, aside), { force: true });
  }
  const names = readdirSync(dir);
  const rows = await db.select({ name: media.name, variants: media.variants }).from(media);
  const listed = new Set(rows.flatMap((r) => r.variants.map((v) => v.name)));
  const recorded = new Set(rows.map((r) => r.name));
  // An original without a row is registered next, which makes its copies again: they wait for it.
  const unrecorded = new Set(
    names.filter((n) => isOriginal(n) && !recorded.has(n) && isFinishedUpload(dir, n)).map(uploadIdOf),
  );
  for (const name of names)
    if (isCopy(name) && !listed.has(name) && !unrecorded.has(uploadIdOf(name))) {
      rmSync(join(dir, name), { force: true });
      done.orphans++;
    }
  const kept = await Promise.all(rows.map((r) => storeOf(dir).has(dir, r.name)));
  done.missing = kept.filter((has) => !has).length;
  return done;
}

/** Puts an upload's finished files where uploads are kept; 503 (nothing kept) when the bucket cannot take them. */
async function keepFiles(dir: string, names: string[]): Promise<void> {
  try {
    await storeOf(dir).keep(dir, names);
  } catch (error) {
    throw storeUnavailable(error);
  }
}

function storeUnavailable(cause: unknown): HttpError {
  const error = new HttpError(
    503,
    "The storage bucket for uploads could not be reached, so nothing was changed. Please try again in a minute.",
    undefined,
    { "retry-after": "30" },
  );
  return Object.assign(error, { cause });
}

/**
 * When uploads are kept in a bucket, each instance's folder is a cache: the files of uploads
 * deleted through another instance go from it too (called when the media library changed). An
 * upload being registered holds its name, so it is waited for and then kept.
 */
export async function forgetDeletedLocally(db: Db, dir: string): Promise<number> {
  if (storeOf(dir).kind !== "bucket") return 0;
  libraryChanged(dir);
  if (!existsSync(dir)) return 0;
  const listed = async () =>
    new Set((await db.select({ name: media.name }).from(media)).map((row) => uploadIdOf(row.name)));
  const before = await listed();
  let removed = 0;
  for (const name of readdirSync(dir)) {
    if ((!isOriginal(name) && !isCopy(name)) || before.has(uploadIdOf(name))) continue;
    await withUploadName(dir, name, async () => {
      if ((await listed()).has(uploadIdOf(name))) return;
      rmSync(join(dir, name), { force: true });
      removed++;
    });
  }
  return removed;
}
