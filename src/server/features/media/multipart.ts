import { HttpError } from "#server/plugins/errors.ts";

// A multipart/form-data reader that never holds the body: bytes are handed on as they arrive,
// keeping back only the few that could be the start of the next boundary.

const NOT_MULTIPART = "The upload could not be read as multipart/form-data.";
const HEADERS_LIMIT = 16 * 1024;

/** The boundary named in a multipart/form-data Content-Type, or null. */
export function multipartBoundary(contentType: string): string | null {
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(;|$)/i.exec(contentType);
  return match ? (match[1] ?? match[2]!) : null;
}

export interface PartStart {
  /** The field name from Content-Disposition. */
  name: string | null;
  /** The file name the client gave; null for a plain (non-file) field. */
  filename: string | null;
}

function parseDisposition(headers: string): PartStart {
  const line = /^content-disposition:\s*form-data(.*)$/im.exec(headers);
  if (!line) throw new HttpError(400, NOT_MULTIPART);
  const param = (key: string) => {
    const found = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(line[1]!);
    if (!found) return null;
    return found[1] !== undefined ? found[1].replace(/\\(.)/g, "$1") : found[2]!;
  };
  return { name: param("name"), filename: param("filename") };
}

export interface MultipartFileHandlers {
  /** Called when the part named `field` starts, before any of its bytes; may throw to refuse it. */
  start(part: PartStart): void;
  /** Receives the part's bytes in order; the next piece is read only once this resolves. */
  write(bytes: Uint8Array): Promise<void>;
}

/**
 * Reads a multipart/form-data body from `chunks` and passes the bytes of the first part named
 * `field` to `handlers.write`, piece by piece; other parts are read and dropped. Resolves with
 * whether that part was present, once the closing boundary has arrived. A body that is not
 * well-formed, or that ends before its closing boundary (an interrupted upload), is a 400.
 */
export async function readMultipartFile(
  chunks: AsyncIterable<Uint8Array>,
  boundary: string,
  field: string,
  handlers: MultipartFileHandlers,
): Promise<boolean> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const keep = delimiter.length - 1;
  // A CRLF in front makes the first boundary look like every later one.
  let pending: Buffer = Buffer.from("\r\n");
  let state = "preamble" as "preamble" | "after-boundary" | "headers" | "body" | "done";
  let inFile = false;
  let found = false;

  // Consumes what it can from `pending`; false when it needs more bytes.
  async function step(): Promise<boolean> {
    switch (state) {
      case "preamble":
      case "body": {
        const at = pending.indexOf(delimiter);
        const end = at === -1 ? Math.max(0, pending.length - keep) : at;
        if (state === "body" && inFile && end > 0) await handlers.write(pending.subarray(0, end));
        if (at === -1) {
          pending = pending.subarray(end);
          return false;
        }
        pending = pending.subarray(at + delimiter.length);
        if (inFile) inFile = false;
        state = "after-boundary";
        return true;
      }
      case "after-boundary": {
        // Transport padding (spaces, tabs) may follow a boundary before its CRLF.
        let i = 0;
        while (i < pending.length && (pending[i] === 0x20 || pending[i] === 0x09)) i++;
        if (i > 256) throw new HttpError(400, NOT_MULTIPART);
        if (pending.length < i + 2) return false;
        if (pending[i] === 0x2d && pending[i + 1] === 0x2d) {
          state = "done";
          return false;
        }
        if (pending[i] !== 0x0d || pending[i + 1] !== 0x0a) throw new HttpError(400, NOT_MULTIPART);
        pending = pending.subarray(i + 2);
        state = "headers";
        return true;
      }
      case "headers": {
        const empty = pending.length >= 2 && pending[0] === 0x0d && pending[1] === 0x0a;
        const at = empty ? 0 : pending.indexOf("\r\n\r\n");
        if (at === -1) {
          if (pending.length > HEADERS_LIMIT) throw new HttpError(400, NOT_MULTIPART);
          return false;
        }
        const part = parseDisposition(pending.subarray(0, at).toString("utf8"));
        pending = pending.subarray(empty ? 2 : at + 4);
        if (!found && part.name === field) {
          found = true;
          inFile = true;
          handlers.start(part);
        }
        state = "body";
        return true;
      }
      case "done":
        // The epilogue after the closing boundary is read and dropped.
        pending = pending.subarray(pending.length);
        return false;
    }
  }

  for await (const chunk of chunks) {
    const view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    pending = pending.length === 0 ? view : Buffer.concat([pending, view]);
    while (await step()) {
      // keep consuming
    }
  }
  if (state !== "done")
    throw new HttpError(
      400,
      state === "preamble" ? NOT_MULTIPART : "The upload ended before the whole file arrived; nothing was stored.",
    );
  return found;
}
