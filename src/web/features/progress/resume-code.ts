import { MODULE_COUNT, TOPICS_PER_MODULE } from "#shared/features/course/constants.ts";
import { TIERS } from "#shared/features/earnings/constants.ts";
import { ARCHETYPES, LETTERS } from "#shared/features/quiz/constants.ts";
import { normalise, type Progress } from "./progress.ts";

// A resume code (docs/product.md#resume-code): the visitor's whole Progress as a short text
// they carry to another device themselves. It is made and read in the browser only; the
// server never sees it (the link puts it after the `#`, which browsers do not send).
//
// Version 1: "CG1." then base64url (no padding) of a bit string followed by a 16-bit
// CRC (CCITT, of the version byte and the bit string's bytes). The bit string, most
// significant bit first, zero-padded to whole bytes:
//   quiz:     1 bit present; then id, 4 bits archetype (0 none, else index + 1 in ARCHETYPES)
//   earnings: 1 bit present; then id, 2 bits tier (index in TIERS)
//   read:     per module 1..10, 5 bits (bit for lesson 1 first)
//   completed:10 bits (module 1 first)
//   quizzes:  per module 1..10, 1 bit present; then 5 bits total - 1, 5 bits correct,
//             1 bit answers present; then 2 bits per answer (A=0 .. D=3)
//   last:     1 bit present; then 4 bits module - 1, 3 bits lesson - 1
// An id is 6 bits length - 1 (1 to 64) and 6 bits per base64url character.
// The lists and counts above are part of the version: a change to them needs version 2.

const RESUME_VERSION = 1;
export const RESUME_PREFIX = `CG${RESUME_VERSION}.`;
/** The longest text read as a code; a version 1 code is far shorter. */
export const MAX_CODE_LENGTH = 400;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Why a text is not a code this site can read, in words for the visitor. */
export type ResumeCodeProblem = "empty" | "not-a-code" | "newer-version" | "mistyped";

export const RESUME_CODE_PROBLEMS: Record<ResumeCodeProblem, string> = {
  empty: "Paste your resume code first.",
  "not-a-code": "This is not a resume code from this site. Check that you copied all of it; it starts with CG1.",
  "newer-version":
    "This code was made by a newer version of this site and cannot be read here. Make a new code on your other device.",
  mistyped: "This code does not check out: a character is wrong or missing. Copy it again rather than typing it.",
};

export type ResumeCodeResult = { ok: true; progress: Progress } | { ok: false; problem: ResumeCodeProblem };

class BitWriter {
  private bits: number[] = [];
  write(value: number, width: number) {
    for (let i = width - 1; i >= 0; i--) this.bits.push((value >> i) & 1);
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(Math.ceil(this.bits.length / 8));
    this.bits.forEach((bit, i) => {
      out[i >> 3] = (out[i >> 3] as number) | (bit << (7 - (i & 7)));
    });
    return out;
  }
}

class BitReader {
  private at = 0;
  constructor(private readonly data: Uint8Array) {}
  read(width: number): number {
    let value = 0;
    for (let i = 0; i < width; i++) {
      if (this.at >= this.data.length * 8) throw new RangeError("past the end");
      value = (value << 1) | (((this.data[this.at >> 3] as number) >> (7 - (this.at & 7))) & 1);
      this.at++;
    }
    return value;
  }
  /** True when only the zero padding of the last byte is left. */
  atEnd(): boolean {
    const left = this.data.length * 8 - this.at;
    return left < 8 && (left === 0 || this.read(left) === 0);
  }
}

function crc16(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function checksum(payload: Uint8Array): number {
  const withVersion = new Uint8Array(payload.length + 1);
  withVersion[0] = RESUME_VERSION;
  withVersion.set(payload, 1);
  return crc16(withVersion);
}

function toBase64url(bytes: Uint8Array): string {
  const w = new BitWriter();
  for (const byte of bytes) w.write(byte, 8);
  const bits = bytes.length * 8;
  const r = new BitReader(w.bytes());
  let out = "";
  for (let done = 0; done < bits; done += 6) {
    const width = Math.min(6, bits - done);
    out += ALPHABET[r.read(width) << (6 - width)];
  }
  return out;
}

function fromBase64url(text: string): Uint8Array | null {
  const w = new BitWriter();
  for (const char of text) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) return null;
    w.write(index, 6);
  }
  // The leftover bits of the last character are padding and must be zero.
  const bytes = w.bytes().slice(0, Math.floor((text.length * 6) / 8));
  return toBase64url(bytes) === text ? bytes : null;
}

function writeId(w: BitWriter, id: string) {
  w.write(id.length - 1, 6);
  for (const char of id) w.write(ALPHABET.indexOf(char), 6);
}

function readId(r: BitReader): string {
  const length = r.read(6) + 1;
  let id = "";
  for (let i = 0; i < length; i++) id += ALPHABET[r.read(6)];
  return id;
}

/** The code that carries `progress` (valid by construction: it went through `normalise`). */
export function encodeResumeCode(progress: Progress): string {
  const p = normalise(progress);
  const w = new BitWriter();
  w.write(p.quiz ? 1 : 0, 1);
  if (p.quiz) {
    writeId(w, p.quiz.id);
    w.write(p.quiz.archetype ? ARCHETYPES.indexOf(p.quiz.archetype) + 1 : 0, 4);
  }
  w.write(p.earnings ? 1 : 0, 1);
  if (p.earnings) {
    writeId(w, p.earnings.id);
    w.write(
      TIERS.findIndex((tier) => tier.name === p.earnings?.tier),
      2,
    );
  }
  for (let module = 1; module <= MODULE_COUNT; module++)
    for (let lesson = 1; lesson <= TOPICS_PER_MODULE; lesson++) w.write(p.read[module]?.includes(lesson) ? 1 : 0, 1);
  for (let module = 1; module <= MODULE_COUNT; module++) w.write(p.completed.includes(module) ? 1 : 0, 1);
  for (let module = 1; module <= MODULE_COUNT; module++) {
    const quiz = p.quizzes[module];
    w.write(quiz ? 1 : 0, 1);
    if (!quiz) continue;
    w.write(quiz.total - 1, 5);
    w.write(quiz.correct, 5);
    w.write(quiz.answers.length ? 1 : 0, 1);
    for (const letter of quiz.answers) w.write(LETTERS.indexOf(letter), 2);
  }
  w.write(p.last ? 1 : 0, 1);
  if (p.last) {
    w.write(p.last.module - 1, 4);
    w.write(p.last.lesson - 1, 3);
  }
  const payload = w.bytes();
  const sum = checksum(payload);
  const bytes = new Uint8Array(payload.length + 2);
  bytes.set(payload);
  bytes[payload.length] = sum >> 8;
  bytes[payload.length + 1] = sum & 0xff;
  return RESUME_PREFIX + toBase64url(bytes);
}

/** The payload's bits as the raw shape Progress is stored in; `normalise` has the last word. */
function readPayload(payload: Uint8Array): unknown {
  const r = new BitReader(payload);
  const raw: Record<string, unknown> = {};
  if (r.read(1)) {
    const id = readId(r);
    const archetype = r.read(4);
    raw.quiz = { id, archetype: archetype ? (ARCHETYPES[archetype - 1] ?? null) : null };
  }
  if (r.read(1)) raw.earnings = { id: readId(r), tier: TIERS[r.read(2)]?.name };
  const read: Record<number, number[]> = {};
  for (let module = 1; module <= MODULE_COUNT; module++)
    for (let lesson = 1; lesson <= TOPICS_PER_MODULE; lesson++)
      if (r.read(1)) read[module] = [...(read[module] ?? []), lesson];
  raw.read = read;
  const completed: number[] = [];
  for (let module = 1; module <= MODULE_COUNT; module++) if (r.read(1)) completed.push(module);
  raw.completed = completed;
  const quizzes: Record<number, unknown> = {};
  for (let module = 1; module <= MODULE_COUNT; module++) {
    if (!r.read(1)) continue;
    const total = r.read(5) + 1;
    const correct = r.read(5);
    const answers = r.read(1) ? Array.from({ length: total }, () => LETTERS[r.read(2)]) : [];
    quizzes[module] = { total, correct, answers };
  }
  raw.quizzes = quizzes;
  if (r.read(1)) raw.last = { module: r.read(4) + 1, lesson: r.read(3) + 1 };
  if (!r.atEnd()) throw new RangeError("bytes left over");
  return raw;
}

/**
 * The text a visitor pasted (a code, or the whole link) as a Progress, or why it is not
 * one. Spaces and line breaks are ignored; nothing in the text is trusted.
 */
export function decodeResumeCode(input: string): ResumeCodeResult {
  if (typeof input !== "string") return { ok: false, problem: "not-a-code" };
  if (input.length > MAX_CODE_LENGTH * 4) return { ok: false, problem: "not-a-code" };
  let text = input.replace(/\s+/g, "");
  if (text.includes("#")) text = text.slice(text.lastIndexOf("#") + 1);
  if (!text) return { ok: false, problem: "empty" };
  if (text.length > MAX_CODE_LENGTH) return { ok: false, problem: "not-a-code" };
  const version = /^CG(\d{1,3})\./i.exec(text);
  if (!version) return { ok: false, problem: "not-a-code" };
  if (Number(version[1]) > RESUME_VERSION) return { ok: false, problem: "newer-version" };
  if (Number(version[1]) !== RESUME_VERSION || !text.startsWith(RESUME_PREFIX))
    return { ok: false, problem: "not-a-code" };
  const bytes = fromBase64url(text.slice(RESUME_PREFIX.length));
  if (!bytes || bytes.length < 3) return { ok: false, problem: "mistyped" };
  const payload = bytes.slice(0, -2);
  const sum = ((bytes[bytes.length - 2] as number) << 8) | (bytes[bytes.length - 1] as number);
  if (checksum(payload) !== sum) return { ok: false, problem: "mistyped" };
  try {
    return { ok: true, progress: normalise(readPayload(payload)) };
  } catch {
    return { ok: false, problem: "mistyped" };
  }
}

/** The link that opens the resume page with `code` filled in; the code stays in the fragment. */
export function resumeLink(origin: string, code: string): string {
  return `${origin}/resume#${code}`;
}
