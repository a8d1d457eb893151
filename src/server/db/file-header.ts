import { closeSync, openSync, readSync } from "node:fs";

// What the bytes of a SQLite database file and of its write-ahead log say, read without
// SQLite: opening a file SQLite does not recognise can change it (an empty main file makes
// SQLite delete the log; closing the last connection checkpoints the log into whatever the
// main file has become). Formats: https://www.sqlite.org/fileformat2.html and walformat.html.

/** The 16 bytes every SQLite database file starts with. */
const SQLITE_MAGIC = "SQLite format 3\0";
/** The header at the start of page 1: a file shorter than this is no database. */
export const HEADER_BYTES = 100;

export interface FileHeader {
  /** Bytes per page: a power of two from 512 to 65536. */
  pageSize: number;
  /** The page count the header records, or null where the header says it is not to be trusted. */
  pages: number | null;
  /** PRAGMA user_version: cam-guide keeps the database's own id here. */
  userVersion: number;
  /** PRAGMA application_id: which program the file belongs to (0 when none said). */
  applicationId: number;
}

/** Up to `length` bytes of `fd` from `position`. */
export function readAt(fd: number, length: number, position: number): Buffer {
  const bytes = Buffer.alloc(length);
  return bytes.subarray(0, readSync(fd, bytes, 0, length, position));
}

/** Reads `length` bytes at `position` of the file at `path`, opened read-only and closed again. */
export function readFileBytes(path: string, length: number, position = 0): Buffer {
  const fd = openSync(path, "r");
  try {
    return readAt(fd, length, position);
  } finally {
    closeSync(fd);
  }
}

/** The header's fields, or why the bytes are not a SQLite header (the end of a sentence). */
export function parseHeader(bytes: Buffer): FileHeader | string {
  if (bytes.length < HEADER_BYTES || bytes.toString("latin1", 0, 16) !== SQLITE_MAGIC)
    return "is not a SQLite database (it does not start with SQLite's header)";
  const raw = bytes.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    return "is damaged (its header names an impossible page size)";
  // The recorded page count holds only while the change counter matches "version valid for".
  const counted = bytes.readUInt32BE(28);
  const valid = counted > 0 && bytes.readUInt32BE(24) === bytes.readUInt32BE(92);
  return {
    pageSize,
    pages: valid ? counted : null,
    userVersion: bytes.readInt32BE(60),
    applicationId: bytes.readInt32BE(68),
  };
}

const WAL_MAGIC = [0x377f0682, 0x377f0683];
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** What a write-ahead log holds that SQLite's recovery would keep. */
export interface CommittedLog {
  /** Each page in a committed frame, with where in the log its latest committed image starts. */
  pages: Map<number, number>;
  /** The database's size in pages at the last commit; 0 when the log holds no commit. */
  size: number;
}

/**
 * The pages the write-ahead log `file` holds in committed frames of its current generation
 * (salts and running checksums checked, as SQLite's recovery does), and the database's size
 * in pages at its last commit. Empty when there is no log or it holds nothing valid.
 */
export function committedLogPages(file: string, pageSize: number): CommittedLog {
  const none: CommittedLog = { pages: new Map(), size: 0 };
  return readLog(file, pageSize, none, (fd, header) => {
    const bigEndian = (header.readUInt32BE(0) & 1) === 1;
    let sums = checksum(header.subarray(0, 24), [0, 0], bigEndian);
    if (sums[0] !== header.readUInt32BE(24) || sums[1] !== header.readUInt32BE(28)) return none;
    const salt = header.subarray(16, 24);
    const seen: [page: number, at: number][] = [];
    const committed: CommittedLog = { pages: new Map(), size: 0 };
    for (let at = WAL_HEADER; ; at += FRAME_HEADER + pageSize) {
      const frame = readAt(fd, FRAME_HEADER + pageSize, at);
      if (frame.length < FRAME_HEADER + pageSize || !frame.subarray(8, 16).equals(salt)) break;
      sums = checksum(frame.subarray(0, 8), sums, bigEndian);
      sums = checksum(frame.subarray(FRAME_HEADER), sums, bigEndian);
      if (sums[0] !== frame.readUInt32BE(16) || sums[1] !== frame.readUInt32BE(20)) break;
      seen.push([frame.readUInt32BE(0), at + FRAME_HEADER]);
      const commitSize = frame.readUInt32BE(4);
      if (commitSize > 0) {
        for (const [page, image] of seen.splice(0)) committed.pages.set(page, image);
        committed.size = commitSize;
      }
    }
    return committed;
  });
}

/**
 * Every page in a frame of the write-ahead log `file`'s current generation (its header's salts),
 * committed or not, checksums unread: at least every page a checkpoint of it can write, read
 * from the frames' 24-byte headers alone. Empty when there is no log.
 */
export function logFramePages(file: string, pageSize: number): Set<number> {
  return readLog(file, pageSize, new Set<number>(), (fd, header) => {
    const pages = new Set<number>();
    const salt = header.subarray(16, 24);
    const frame = Buffer.allocUnsafe(FRAME_HEADER);
    for (let at = WAL_HEADER; ; at += FRAME_HEADER + pageSize) {
      if (readSync(fd, frame, 0, FRAME_HEADER, at) < FRAME_HEADER || !frame.subarray(8, 16).equals(salt)) break;
      pages.add(frame.readUInt32BE(0));
    }
    return pages;
  });
}

/**
 * Reads the write-ahead log `file` with `read`, given its open descriptor and its 32-byte
 * header once that says a log of `pageSize`-byte pages; `none` when there is no such log.
 */
function readLog<T>(file: string, pageSize: number, none: T, read: (fd: number, header: Buffer) => T): T {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return none;
  }
  try {
    const header = readAt(fd, WAL_HEADER, 0);
    if (header.length < WAL_HEADER || !WAL_MAGIC.includes(header.readUInt32BE(0))) return none;
    if (header.readUInt32BE(8) !== pageSize) return none;
    return read(fd, header);
  } finally {
    closeSync(fd);
  }
}

/** SQLite's log checksum over `bytes` (a multiple of 8), continuing from `[s0, s1]`. */
function checksum(bytes: Buffer, [s0, s1]: number[], bigEndian: boolean): [number, number] {
  let a = s0!;
  let b = s1!;
  for (let i = 0; i < bytes.length; i += 8) {
    const x = bigEndian ? bytes.readUInt32BE(i) : bytes.readUInt32LE(i);
    const y = bigEndian ? bytes.readUInt32BE(i + 4) : bytes.readUInt32LE(i + 4);
    a = (a + x + b) >>> 0;
    b = (b + y + a) >>> 0;
  }
  return [a, b];
}
