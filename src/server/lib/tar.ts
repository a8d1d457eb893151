// A minimal ustar writer and reader for backups: regular files only, streamed to disk so a
// backup with large videos never has to fit in memory.
import { closeSync, openSync, readSync, writeSync } from "node:fs";

const BLOCK = 512;

function header(name: string, size: number): Uint8Array {
  if (Buffer.byteLength(name) > 100) throw new Error(`File name too long for the archive: ${name}`);
  const h = new Uint8Array(BLOCK);
  const put = (text: string, offset: number) => h.set(new TextEncoder().encode(text), offset);
  const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, "0")}\0`;
  put(name, 0);
  put(octal(0o644, 8), 100);
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

/** Writes `entries` (archive name -> file on disk) into one tar file. */
export function writeTar(target: string, entries: [string, string][]): void {
  const out = openSync(target, "w");
  const buffer = Buffer.alloc(1024 * 1024);
  try {
    for (const [name, path] of entries) {
      const input = openSync(path, "r");
      try {
        const size = Bun.file(path).size;
        writeSync(out, header(name, size));
        let copied = 0;
        for (;;) {
          const n = readSync(input, buffer, 0, buffer.length, null);
          if (n === 0) break;
          writeSync(out, buffer, 0, n);
          copied += n;
        }
        if (copied !== size) throw new Error(`${path} changed while it was being backed up`);
        const pad = (BLOCK - (size % BLOCK)) % BLOCK;
        if (pad) writeSync(out, new Uint8Array(pad));
      } finally {
        closeSync(input);
      }
    }
    writeSync(out, new Uint8Array(BLOCK * 2));
  } finally {
    closeSync(out);
  }
}

/** Calls `onFile` with each file's name and a reader over its bytes, in archive order. */
export function readTar(
  source: string,
  onFile: (name: string, size: number, read: (into: Buffer) => number) => void,
): void {
  const fd = openSync(source, "r");
  try {
    const h = Buffer.alloc(BLOCK);
    for (;;) {
      if (readSync(fd, h, 0, BLOCK, null) < BLOCK) throw new Error("The backup file is truncated.");
      if (h.every((b) => b === 0)) return;
      if (h.toString("latin1", 257, 262) !== "ustar")
        throw new Error("This is not a cam-guide backup (not a tar archive).");
      const name = h.toString("utf8", 0, 100).replace(/\0.*$/s, "");
      const size = Number.parseInt(h.toString("latin1", 124, 136).replace(/\0.*$/s, "").trim(), 8);
      let left = size;
      onFile(name, size, (into) => {
        if (left === 0) return 0;
        const n = readSync(fd, into, 0, Math.min(into.length, left), null);
        left -= n;
        return n;
      });
      // Skip what the reader did not consume, and the padding.
      const skip = left + ((BLOCK - (size % BLOCK)) % BLOCK);
      if (skip) readSync(fd, Buffer.alloc(skip), 0, skip, null);
    }
  } finally {
    closeSync(fd);
  }
}
