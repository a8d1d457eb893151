import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import type { Logger } from "#server/logger.ts";
import { parseRange } from "#server/plugins/static.ts";
import { DESCRIPTORS_BUSY, descriptorShortage } from "./descriptors.ts";
import { RETRY_AFTER_SECONDS } from "./storage-health.ts";

// The answer with a file from disk (an upload, a backup). The file is opened here, before the
// answer is made, so that a file which cannot be opened is answered for what it is: not there
// (404 by the caller), too many files open (503, to retry), or unreadable (503, logged). Handing
// Bun a path instead (`Bun.file`) lets it open the file after the handler returned, where a
// failure can only become its bare "Something went wrong!" 500. A refusal is plain text: a
// file is opened by an <img>, a <video> or a download, never read by a script.

/** A body up to this size is read at once and sent with its length; a larger one is streamed. */
const READ_WHOLE_BYTES = 256 * 1024;
/** Read at a time while streaming: the next piece is read only when the client has taken this one. */
const PIECE_BYTES = 256 * 1024;
/** Errors that mean the file is not there (or is not a plain file the caller may send). */
const NOT_THERE = new Set(["ENOENT", "ENOTDIR", "ELOOP", "EISDIR"]);

const UNREADABLE = "This file cannot be read just now. Please try again in a minute.";

/** A 503 to try again later, in plain text, never stored. */
const unavailable = (message: string) =>
  new Response(`${message}\n`, {
    status: 503,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "retry-after": String(RETRY_AFTER_SECONDS),
    },
  });

/**
 * `path` opened for reading (never through a symbolic link), with its size; null when it is not
 * there or not a plain file; a 503 when it cannot be opened for want of descriptors (the
 * shortage is logged once by the server's own watch) or for any other reason (logged here).
 */
async function openFile(
  path: string,
  logger: Pick<Logger, "error">,
): Promise<{ file: FileHandle; size: number } | Response | null> {
  let file: FileHandle;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && NOT_THERE.has(code)) return null;
    if (descriptorShortage(error))
      return unavailable(`${DESCRIPTORS_BUSY} to send this file now. Please try again in a minute.`);
    logger.error("could not open a file to send", { path, error });
    return unavailable(UNREADABLE);
  }
  let stat: { isFile(): boolean; size: number };
  try {
    stat = await file.stat();
  } catch (error) {
    await file.close();
    logger.error("could not read the size of a file to send", { path, error });
    return unavailable(UNREADABLE);
  }
  if (stat.isFile()) return { file, size: stat.size };
  await file.close();
  return null;
}

/** Bytes `start` to `end` (inclusive) of `file`, read whole, then the file closed. */
async function readWhole(file: FileHandle, start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const bytes = new Uint8Array(end + 1 - start);
    let got = 0;
    while (got < bytes.length) {
      const { bytesRead } = await file.read(bytes, got, bytes.length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return got === bytes.length ? bytes : bytes.slice(0, got);
  } finally {
    await file.close();
  }
}

/**
 * Bytes `start` to `end` of `file` as a stream read as the client takes it; the file is closed
 * at the end, when the client goes away, and on a read error (which cuts the answer short).
 */
function streamed(file: FileHandle, start: number, end: number): ReadableStream<Uint8Array> {
  let at = start;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await file.close().catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const length = Math.min(PIECE_BYTES, end + 1 - at);
        const piece = new Uint8Array(Math.max(length, 0));
        const { bytesRead } = length > 0 ? await file.read(piece, 0, length, at) : { bytesRead: 0 };
        if (bytesRead === 0) {
          await close();
          controller.close();
          return;
        }
        at += bytesRead;
        controller.enqueue(piece.subarray(0, bytesRead));
      } catch (error) {
        await close();
        controller.error(error);
      }
    },
    cancel: close,
  });
}

/**
 * The answer with the file at `path` (one byte range when the request asks for one), with
 * `headers`; a 503 to retry when it cannot be opened; null when it is not there.
 */
export async function fileAnswer(
  path: string,
  request: Request,
  headers: Record<string, string>,
  logger: Pick<Logger, "error">,
): Promise<Response | null> {
  const opened = await openFile(path, logger);
  if (opened === null || opened instanceof Response) return opened;
  const { file, size } = opened;
  const range = parseRange(request.headers.get("range"), size);
  if (range === "invalid") {
    await file.close();
    return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const partial: Record<string, string> = range ? { "content-range": `bytes ${start}-${end}/${size}` } : {};
  let body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
  try {
    body = end + 1 - start <= READ_WHOLE_BYTES ? await readWhole(file, start, end) : streamed(file, start, end);
  } catch (error) {
    logger.error("could not read a file to send", { path, error });
    return unavailable(UNREADABLE);
  }
  return new Response(body, { status: range ? 206 : 200, headers: { ...headers, ...partial } });
}
