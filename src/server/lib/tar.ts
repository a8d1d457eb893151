// A minimal ustar writer and a strict reader for backups: regular files only, streamed to
// disk so a backup with large videos never has to fit in memory. The reader accepts what
// the writer makes and refuses everything else (links, devices, folders, extended headers,
// damaged or cut-off archives) with a message an operator can act on.
import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";

const BLOCK = 512;
const CHUNK = 1024 * 1024;

/** A problem with the archive itself; its message is written for the operator. */
export class TarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TarError";
  }
}

/** Thrown between chunks once `signal` is aborted, so a half-done copy can be cleaned up. */
class Interrupted extends Error {
  constructor() {
    super("Interrupted.");
    this.name = "Interrupted";
  }
}

// Lets signal handlers run between chunks of a long copy.
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function checkSignal(signal?: AbortSignal): void {
  if (signal?.aborted) throw new Interrupted();
}

/** An entry's name as an operator can read it in a one-line message. */
export function shownName(name: string): string {
  return JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
}

function header(name: string, size: number): Uint8Array {
  if (Buffer.byteLength(name) > 100) throw new Error(`File name too long for the archive: ${name}`);
  const h = new Uint8Array(BLOCK);
  const put = (text: string, offset: number) => h.set(new TextEncoder().encode(text), offset);
  const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, "0")}\0`;
  put(name, 0);
  put(octal(0o600, 8), 100);
  put(octal(0, 8), 108);
  put(octal(0, 8), 116);
  put(octal(size, 12), 124);
  put(octal(Math.floor(Date.now() / 1000), 12), 136);
  put("        ", 148); // checksum field counts as spaces while summing
  put("0", 156);
  put("ustar\0", 257);
  put("00", 263);
  const sum = h.reduce((a, b) => a + b, 0);
  put(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return h;
}

/**
 * Writes `entries` (archive name -> file on disk) into one tar file, which must exist and be
 * empty. An entry `mayVanish` says may be gone by the time it is reached (an upload deleted
 * meanwhile) is left out; any other missing file fails. Answers how many entries it wrote.
 */
export async function writeTar(
  out: number,
  entries: [string, string][],
  signal?: AbortSignal,
  mayVanish: (name: string) => boolean = () => false,
): Promise<number> {
  const buffer = Buffer.alloc(CHUNK);
  let written = 0;
  for (const [name, path] of entries) {
    let input: number;
    try {
      input = openSync(path, "r");
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT" && mayVanish(name)) continue;
      throw error;
    }
    written++;
    try {
      const size = fstatSync(input).size;
      writeSync(out, header(name, size));
      let copied = 0;
      for (;;) {
        checkSignal(signal);
        const n = readSync(input, buffer, 0, Math.min(buffer.length, size - copied), null);
        if (n === 0) break;
        writeAll(out, buffer, n);
        copied += n;
        await tick();
      }
      if (copied !== size) throw new Error(`${path} changed while it was being backed up`);
      const pad = (BLOCK - (size % BLOCK)) % BLOCK;
      if (pad) writeAll(out, new Uint8Array(pad), pad);
    } finally {
      closeSync(input);
    }
  }
  writeAll(out, new Uint8Array(BLOCK * 2), BLOCK * 2);
  return written;
}

/** writeSync may write less than asked (a full disk among other reasons): write the rest or fail. */
export function writeAll(fd: number, data: Uint8Array, length: number): void {
  let done = 0;
  while (done < length) {
    const n = writeSync(fd, data, done, length - done);
    if (n <= 0) throw Object.assign(new Error("no space left to write"), { code: "ENOSPC" });
    done += n;
  }
}

const TYPES: Record<string, string> = {
  "1": "a hard link",
  "2": "a symbolic link",
  "3": "a character device",
  "4": "a block device",
  "5": "a folder",
  "6": "a named pipe",
  "7": "a contiguous file",
  x: "an extended (pax) header",
  g: "a global extended (pax) header",
  L: "a GNU long-name header",
  K: "a GNU long-link header",
};

/** A NUL-terminated text field whose tail is all NUL, as ustar writers fill it. */
function textField(h: Buffer, start: number, length: number, what: string): string {
  const field = h.subarray(start, start + length);
  const end = field.indexOf(0);
  const used = end < 0 ? field : field.subarray(0, end);
  if (end >= 0 && field.subarray(end).some((b) => b !== 0))
    throw new TarError(`The backup is damaged: an entry's ${what} has bytes after its end.`);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(used);
  } catch {
    throw new TarError(`The backup is damaged: an entry's ${what} is not valid text.`);
  }
}

/** An octal number field (digits, then NUL or space); base-256 and anything else is refused. */
function octalField(h: Buffer, start: number, length: number, what: string): number {
  const raw = h.toString("latin1", start, start + length);
  const digits = raw.replace(/^ +/, "").replace(/[ \0]+$/, "");
  if (!/^[0-7]{1,12}$/.test(digits))
    throw new TarError(`The backup is damaged: an entry's ${what} is not a plain number.`);
  return Number.parseInt(digits, 8);
}

function checksumMatches(h: Buffer): boolean {
  const stored = octalField(h, 148, 8, "checksum");
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : h[i]!;
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return stored === unsigned || stored === signed;
}

/**
 * Reads a tar file made by writeTar, calling `onFile` with each entry's name, size and its
 * bytes in chunks, in archive order. Every header is checked before its entry is handed
 * over: only plain files, names that are valid text, sizes that the file really holds. The
 * archive must end with its end marker, followed by nothing but zeros.
 */
export async function readTar(
  source: string,
  onFile: (name: string, size: number, chunks: () => AsyncGenerator<Uint8Array>) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const fd = openSync(source, "r");
  try {
    const total = fstatSync(fd).size;
    if (total === 0) throw new TarError("The backup file is empty.");
    if (total < BLOCK)
      throw new TarError(`This is not a cam-guide backup: at ${total} bytes it is too small to be a tar archive.`);
    const h = Buffer.alloc(BLOCK);
    let position = 0;
    const readBlock = (what: string) => {
      if (readSync(fd, h, 0, BLOCK, position) < BLOCK)
        throw new TarError(`The backup file is cut short (it ends inside ${what}).`);
      position += BLOCK;
    };
    for (let index = 0; ; index++) {
      checkSignal(signal);
      readBlock(index === 0 ? "its first header" : "a header");
      if (h.every((b) => b === 0)) {
        readBlock("its end marker");
        if (!h.every((b) => b === 0)) throw new TarError("The backup is damaged: its end marker is incomplete.");
        await onlyZerosFrom(fd, position, total);
        return;
      }
      if (index === 0 && h[0] === 0x1f && h[1] === 0x8b)
        throw new TarError("The backup file is compressed (gzip); decompress it first (gunzip) and restore the .tar.");
      const magic = h.toString("latin1", 257, 263);
      if (magic !== "ustar\0" && magic !== "ustar ")
        throw new TarError(
          index === 0
            ? "This is not a cam-guide backup (not a tar archive)."
            : "The backup is damaged: an entry's header is not a tar header.",
        );
      if (!checksumMatches(h)) throw new TarError("The backup is damaged: a header's checksum does not match.");
      const prefix = magic === "ustar\0" ? textField(h, 345, 155, "name prefix") : "";
      const base = textField(h, 0, 100, "name");
      const name = prefix ? `${prefix}/${base}` : base;
      const type = String.fromCharCode(h[156]!);
      if (type !== "0" && type !== "\0") {
        const what = TYPES[type] ?? `an entry of unknown type ${JSON.stringify(type)}`;
        throw new TarError(
          `The backup holds ${shownName(name)}, which is ${what}; a cam-guide backup holds only plain files.`,
        );
      }
      const size = octalField(h, 124, 12, "size");
      if (size > total - position)
        throw new TarError(
          `The backup file is cut short: ${shownName(name)} should have ${size} bytes but the file ends first.`,
        );
      const start = position;
      let consumed = 0;
      await onFile(name, size, async function* () {
        const buffer = Buffer.alloc(CHUNK);
        while (consumed < size) {
          checkSignal(signal);
          const n = readSync(fd, buffer, 0, Math.min(CHUNK, size - consumed), start + consumed);
          if (n <= 0) throw new TarError(`The backup file is cut short inside ${shownName(name)}.`);
          consumed += n;
          yield buffer.subarray(0, n);
          await tick();
        }
      });
      position = start + size + ((BLOCK - (size % BLOCK)) % BLOCK);
    }
  } finally {
    closeSync(fd);
  }
}

async function onlyZerosFrom(fd: number, from: number, total: number): Promise<void> {
  const buffer = Buffer.alloc(CHUNK);
  for (let position = from; position < total; ) {
    const n = readSync(fd, buffer, 0, Math.min(CHUNK, total - position), position);
    if (n <= 0) return;
    if (!buffer.subarray(0, n).every((b) => b === 0))
      throw new TarError("The backup holds data after its end marker; it was not made by cam-guide backup.");
    position += n;
    await tick();
  }
}
