import { closeSync, fsync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileTypeFromBuffer } from "file-type";
import { newFileId } from "#server/lib/ids.ts";
import { bodyChunks } from "#server/lib/request-body.ts";
import { isAlive, type StorageHealth } from "#server/lib/storage-health.ts";
import { HttpError, storageRefusal } from "#server/plugins/errors.ts";
import { firstInvisible } from "#shared/invisible.ts";
import { multipartBoundary, readMultipartFile } from "./multipart.ts";
import { withUploadName } from "./name-lock.ts";

const MB = 1024 * 1024;
/** What may be uploaded, recognised by content, and how big it may be. */
export const UPLOAD_KINDS: Record<string, { ext: string; kind: "image" | "video"; limit: number }> = {
  "image/png": { ext: "png", kind: "image", limit: 5 * MB },
  "image/jpeg": { ext: "jpg", kind: "image", limit: 5 * MB },
  "image/gif": { ext: "gif", kind: "image", limit: 5 * MB },
  "image/webp": { ext: "webp", kind: "image", limit: 5 * MB },
  "video/mp4": { ext: "mp4", kind: "video", limit: 100 * MB },
  "video/webm": { ext: "webm", kind: "video", limit: 100 * MB },
  "video/ogg": { ext: "ogg", kind: "video", limit: 100 * MB },
};
export const MAX_UPLOAD_BYTES = 100 * MB;
/** The multipart wrapper around the file adds a little. */
const MAX_UPLOAD_REQUEST = MAX_UPLOAD_BYTES + 64 * 1024;

export const CONTENT_TYPES: Record<string, string> = Object.fromEntries(
  Object.entries(UPLOAD_KINDS).map(([type, { ext }]) => [ext, type]),
);
/** An original upload's name: its id, then its type. */
export const ORIGINAL_UPLOAD_NAME = /^[A-Za-z0-9_-]{22}\.(png|jpg|gif|webp|mp4|webm|ogg)$/;
/** The name of an image's smaller WebP copy: its original's id, then its width (`<id>-w960.webp`). */
export const UPLOAD_COPY_NAME = /^[A-Za-z0-9_-]{22}-w[1-9][0-9]{1,3}\.webp$/;
/**
 * A server-made upload name, or the name of an image's smaller WebP copy.
 * New ids begin with a letter or a digit (newFileId); names from older releases that begin with
 * "-" or "_" are still served, backed up and restored.
 */
export const UPLOAD_NAME = new RegExp(`${ORIGINAL_UPLOAD_NAME.source}|${UPLOAD_COPY_NAME.source}`);

/**
 * Whether `name` in `dir` is an upload the server finished: a server-made final name (never a
 * temporary one) and not empty (an empty file is never a finished upload; older versions could
 * leave one behind on a full disk), and a plain file: a link planted in the folder is never
 * followed (it could point at the session secret). What is served and backed up.
 */
export function isFinishedUpload(dir: string, name: string): boolean {
  if (!UPLOAD_NAME.test(name)) return false;
  const stat = lstatSync(join(dir, name), { throwIfNoEntry: false });
  return stat?.isFile() === true && stat.size > 0;
}

/**
 * What the server names an upload while it arrives, or a copy while it is written: never served,
 * backed up or restored, removed at start. The fixed prefix is what it begins with (a dot, so
 * it is hidden from `ls` and from globs: it is not a finished file); the random part never starts it.
 */
const TEMP_PREFIX = ".upload-";
const TEMP_SUFFIX = ".part";
/**
 * Whose it is: this machine's name and this process's id, so the clean-up at start removes only
 * what this process or a dead one of this machine left. Several instances may share the uploads
 * folder (a network disk): an upload another one is receiving is never removed under it.
 */
const OWNER = `${hostname().replace(/[^A-Za-z0-9.-]/g, "-")}~${process.pid}`;
export const temporaryName = () => `${TEMP_PREFIX}${OWNER}~${newFileId()}${TEMP_SUFFIX}`;
/** Another machine's leftover (a crash there, a machine gone) is removed once it is this old. */
const FOREIGN_LEFTOVER_MS = 24 * 3_600_000;
/** How many leading bytes the type is recognised from (file-type reads about 4 KB). */
const SNIFF_BYTES = 64 * 1024;
const TOO_LARGE = "File must be less than 100MB";
const NEITHER =
  "Only images (PNG, JPEG, GIF, WebP) and videos (MP4, WebM, Ogg) can be uploaded; this file's content is neither.";

/** Markup hidden in an image (a polyglot made to run as HTML somewhere), found across chunk edges. */
function markupScanner() {
  const pattern = /<(script|html|svg|iframe|body|\?php)\b/gi;
  const latin1 = new TextDecoder("latin1");
  let carry = "";
  return (bytes: Uint8Array, final: boolean): boolean => {
    const text = carry + latin1.decode(bytes);
    // A match that ends where the bytes end may continue in the next chunk ("<scripts"): decided then.
    for (const m of text.matchAll(pattern)) if (final || m.index + m[0].length < text.length) return true;
    carry = text.slice(-16);
    return false;
  };
}

/**
 * The request body, counted and timed (lib/request-body.ts): past `limit` bytes it stops with
 * 413, a body that stalls gets 408, and a broken connection is a 400.
 */
async function* countedBody(request: Request, limit: number): AsyncGenerator<Uint8Array> {
  try {
    yield* bodyChunks(request, { limit, tooLarge: TOO_LARGE });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, "The upload was interrupted before the whole file arrived; nothing was stored.");
  }
}

/**
 * Writes the whole piece. Synchronous on purpose: the asynchronous file API keeps each
 * buffer alive until a later garbage collection, which multiplied the memory of parallel
 * uploads by four; a piece (at most about 1 MB) lands in the page cache in a fraction of a
 * millisecond.
 */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let offset = 0; offset < bytes.length; ) {
    const written = writeSync(fd, bytes, offset, bytes.length - offset);
    if (written <= 0)
      throw Object.assign(new Error("The disk took no more bytes."), { code: "ENOSPC", syscall: "write" });
    offset += written;
  }
}

/**
 * Makes a rename in `dir` survive a crash. Off the event loop: a folder's fsync can wait for
 * everything else being written to that disk (other uploads), and every request would wait.
 */
export async function syncDirectory(dir: string): Promise<void> {
  const fd = openSync(dir, "r");
  try {
    await promisify(fsync)(fd);
  } finally {
    closeSync(fd);
  }
}

export interface StoredUpload {
  url: string;
  /** The file's name in the uploads folder. */
  name: string;
  type: string;
  size: number;
  /** The name the file had on the sender's computer (shown and searched in the library), or null. */
  originalName: string | null;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

/**
 * The sender's file name as the library shows it: no control or invisible characters (a
 * direction override would show "evil<U+202E>gnp.exe" as "evilexe.png"), at most 200
 * characters; null when empty.
 */
function originalNameOf(filename: string): string | null {
  const printable = [...filename].filter((c) => firstInvisible(c) === null).join("");
  const name = printable.trim().slice(0, 200);
  return name === "" ? null : name;
}

/**
 * Stores the file of a multipart/form-data upload (field "file") as it arrives: into a temporary
 * name in `dir`, checked by its bytes (the name and type the client claims are ignored), synced,
 * then renamed to a name the server makes. Memory holds at most one chunk and the first 64 KB;
 * whatever stops the upload (a refusal, a broken connection, a full disk) removes the temporary
 * file, and a crash leaves only a temporary name that is never served and is removed at start.
 * `register` records the stored file; it runs holding the new name, taken before the rename, so
 * no one else (a listing that finds files without a row, a delete) touches the file until it is
 * registered or refused. Answers what `register` answers, or, when `existing` finds the same
 * bytes already stored, what it answers (the new copy is then removed, never stored twice).
 */
export async function receiveUpload<T>(
  request: Request,
  dir: string,
  storage: Pick<StorageHealth, "roomFor">,
  register: (stored: StoredUpload) => Promise<T>,
  existing: (stored: StoredUpload) => Promise<T | null> = async () => null,
): Promise<T> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType))
    throw new HttpError(415, "Send the file as multipart/form-data in a field named file.");
  const boundary = multipartBoundary(contentType);
  if (!boundary) throw new HttpError(400, "The upload could not be read as multipart/form-data.");
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > MAX_UPLOAD_REQUEST) throw new HttpError(413, TOO_LARGE);
  // A declared size that cannot fit is refused before a byte is written.
  if (declared > 0) {
    const room = storage.roomFor(declared);
    if (!room.ok) throw storageRefusal(room);
  }

  mkdirSync(dir, { recursive: true });
  const temp = join(dir, temporaryName());
  let fd: number | null = null;
  let size = 0;
  let head: Uint8Array[] = [];
  let kind: (typeof UPLOAD_KINDS)[string] | undefined;
  let mime = "";
  let originalName: string | null = null;
  const hash = new Bun.CryptoHasher("sha256");
  const markup = markupScanner();

  // Recognises the file from its first bytes, then writes them; refuses what is not allowed.
  async function recognise(final: boolean) {
    const sample = new Uint8Array(Buffer.concat(head));
    head = [];
    const detected = await fileTypeFromBuffer(sample);
    // file-type reads MP4 family files by their brand; anything ISO-media that is not MP4 is refused.
    kind = detected ? UPLOAD_KINDS[detected.mime] : undefined;
    if (!detected || !kind) throw new HttpError(415, NEITHER);
    mime = detected.mime;
    checkBytes(sample, final);
    fd ??= openSync(temp, "wx", 0o600);
    writeAll(fd, sample);
  }
  function checkBytes(bytes: Uint8Array, final: boolean) {
    if (size > kind!.limit)
      throw new HttpError(413, kind!.kind === "image" ? "Image must be less than 5MB." : TOO_LARGE);
    if (kind!.kind === "image" && markup(bytes, final))
      throw new HttpError(415, "This image also contains markup and was refused.");
  }

  try {
    const found = await readMultipartFile(countedBody(request, MAX_UPLOAD_REQUEST), boundary, "file", {
      start({ filename }) {
        if (filename === null) throw new HttpError(422, "Send the file in a field named file.");
        // The server names the file; a client name that tries to be a path is refused outright.
        if (/[\\/]|\.\./.test(filename) || filename.includes("\0"))
          throw new HttpError(422, "The file name must not contain a path.");
        originalName = originalNameOf(filename);
      },
      async write(bytes) {
        size += bytes.length;
        hash.update(bytes);
        if (size > MAX_UPLOAD_BYTES) throw new HttpError(413, TOO_LARGE);
        if (!kind) {
          // Copied: the reader's buffer is reused for the next chunk.
          head.push(new Uint8Array(bytes));
          if (size >= SNIFF_BYTES) await recognise(false);
          return;
        }
        checkBytes(bytes, false);
        writeAll(fd!, bytes);
      },
    });
    if (!found) throw new HttpError(422, "Send the file in a field named file.");
    if (size === 0) throw new HttpError(422, "The file is empty.");
    if (kind) checkBytes(new Uint8Array(), true);
    else await recognise(true);
    // Flushing up to 100 MB to the disk takes a while: off the event loop.
    await promisify(fsync)(fd!);
    closeSync(fd!);
    fd = null;
    const name = `${newFileId()}.${kind!.ext}`;
    const stored = { url: `/uploads/${name}`, name, type: mime, size, originalName, sha256: hash.digest("hex") };
    const same = await existing(stored);
    if (same !== null) return same;
    return await withUploadName(dir, name, async () => {
      renameSync(temp, join(dir, name));
      await syncDirectory(dir);
      return register(stored);
    });
  } finally {
    try {
      if (fd !== null) closeSync(fd);
    } finally {
      rmSync(temp, { force: true });
    }
  }
}

/**
 * Removes what uploads cut short by a crash left behind (run at start, before serving): this
 * process's, a dead process's of this machine, an older version's, and another machine's once a day
 * old; never an upload another live process is receiving into a shared folder.
 */
export function removeUnfinishedUploads(dir: string, now = Date.now()): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const [host] = OWNER.split("~");
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX) || !name.endsWith(TEMP_SUFFIX)) continue;
    const owner = /^\.upload-([^~]*)~(\d+)~/.exec(name);
    // A name without its owner is an older version's: nobody is receiving it any more.
    if (owner) {
      const pid = Number(owner[2]);
      const mine = owner[1] === host;
      if (mine && pid !== process.pid && isAlive(pid)) continue;
      const modified = lstatSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0;
      if (!mine && now - modified < FOREIGN_LEFTOVER_MS) continue;
    }
    rmSync(join(dir, name), { force: true });
    removed++;
  }
  return removed;
}
