import { describe, expect, test } from "bun:test";
import { MODULE_COUNT, MODULE_IDS, TOPICS_PER_MODULE } from "#shared/features/course/constants.ts";
import { TIERS } from "#shared/features/earnings/constants.ts";
import { ARCHETYPES, LETTERS } from "#shared/features/quiz/constants.ts";
import { EMPTY_PROGRESS, normalise, type Progress } from "./progress.ts";
import { decodeResumeCode, encodeResumeCode, MAX_CODE_LENGTH, RESUME_PREFIX, resumeLink } from "./resume-code.ts";

const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A small seeded generator, so a failing case can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  return (below: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
}

function randomProgress(seed: number): Progress {
  const rnd = generator(seed);
  const id = () => Array.from({ length: rnd(3) ? 22 : rnd(64) + 1 }, () => ID_CHARS[rnd(64)]).join("");
  const read: Record<number, number[]> = {};
  const quizzes: Progress["quizzes"] = {};
  for (const module of MODULE_IDS) {
    const lessons = Array.from({ length: TOPICS_PER_MODULE }, (_, i) => i + 1).filter(() => rnd(2));
    if (lessons.length) read[module] = lessons;
    if (rnd(2)) {
      const total = rnd(4) ? 5 : rnd(20) + 1;
      quizzes[module] = {
        total,
        correct: rnd(total + 1),
        answers: rnd(5) ? Array.from({ length: total }, () => LETTERS[rnd(4)] as (typeof LETTERS)[number]) : [],
      };
    }
  }
  return normalise({
    quiz: rnd(4) ? { id: id(), archetype: rnd(5) ? ARCHETYPES[rnd(ARCHETYPES.length)] : null } : null,
    earnings: rnd(4) ? { id: id(), tier: TIERS[rnd(3)]?.name } : null,
    read,
    completed: MODULE_IDS.filter(() => rnd(2)),
    quizzes,
    last: rnd(4) ? { module: rnd(MODULE_COUNT) + 1, lesson: rnd(TOPICS_PER_MODULE) + 1 } : null,
  });
}

/** Everything a visitor can have: both results with the longest ids, the whole course read and answered. */
const FULL: Progress = normalise({
  quiz: { id: "q".repeat(64), archetype: "Couple" },
  earnings: { id: "e".repeat(64), tier: "Power Earner" },
  read: Object.fromEntries(MODULE_IDS.map((m) => [m, [1, 2, 3, 4, 5]])),
  completed: MODULE_IDS,
  quizzes: Object.fromEntries(MODULE_IDS.map((m) => [m, { total: 20, correct: 20, answers: Array(20).fill("D") }])),
  last: { module: 10, lesson: 5 },
});

/** The progress of a typical visitor: 16-byte result ids, the course done with five-question quizzes. */
const TYPICAL: Progress = normalise({
  quiz: { id: "AbCdEfGhIjKlMnOpQrStUw", archetype: "Girl Next Door" },
  earnings: { id: "zYxWvUtSrQpOnMlKjIhGfQ", tier: "Hustler Mode" },
  read: Object.fromEntries(MODULE_IDS.map((m) => [m, [1, 2, 3, 4, 5]])),
  completed: MODULE_IDS,
  quizzes: Object.fromEntries(MODULE_IDS.map((m) => [m, { total: 5, correct: 4, answers: ["A", "B", "C", "D", "A"] }])),
  last: { module: 10, lesson: 5 },
});

function decoded(code: string): Progress {
  const result = decodeResumeCode(code);
  if (!result.ok) throw new Error(`refused: ${result.problem}`);
  return result.progress;
}

/** The code with one character changed to another of the alphabet. */
function withCharChanged(code: string, at: number, by: number): string {
  const char = code[at] as string;
  const next = ID_CHARS[(ID_CHARS.indexOf(char) + by) % 64];
  return code.slice(0, at) + next + code.slice(at + 1);
}

describe("resume code, version 1", () => {
  test("the lists a code indexes into are the ones version 1 was written for", () => {
    // Changing any of these changes what an existing code means: make a version 2 instead.
    expect(ARCHETYPES.join(", ")).toBe(
      "Girl Next Door, Dominatrix, Submissive / Brat, Goth / Alt Girl, Bimbo / Bombshell, MILF / Cougar, Cosplay Babe, Fitness Queen, Seductress, Couple",
    );
    expect(ARCHETYPES).toHaveLength(10);
    expect(TIERS.map((t) => t.name)).toEqual(["Casual Starter", "Hustler Mode", "Power Earner"]);
    expect([...LETTERS]).toEqual(["A", "B", "C", "D"]);
    expect([MODULE_COUNT, TOPICS_PER_MODULE]).toEqual([10, 5]);
  });

  test("round trip: 500 random progresses come back exactly", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const progress = randomProgress(seed);
      const code = encodeResumeCode(progress);
      expect(code.startsWith(RESUME_PREFIX)).toBe(true);
      expect(code).toMatch(/^CG1\.[A-Za-z0-9_-]+$/);
      expect(decoded(code)).toEqual(progress);
    }
  });

  test("round trip of nothing remembered, of everything, and through the link", () => {
    expect(decoded(encodeResumeCode(EMPTY_PROGRESS))).toEqual(EMPTY_PROGRESS);
    expect(decoded(encodeResumeCode(FULL))).toEqual(FULL);
    const link = resumeLink("https://example.com", encodeResumeCode(TYPICAL));
    expect(link).toBe(`https://example.com/resume#${encodeResumeCode(TYPICAL)}`);
    // A pasted link, with the spaces and line breaks a message app adds, reads as its code.
    expect(decoded(`  ${link.slice(0, 40)}\n${link.slice(40)} `)).toEqual(TYPICAL);
  });

  test("length: short for a typical visitor, bounded for the most a visitor can have", () => {
    expect(encodeResumeCode(EMPTY_PROGRESS).length).toBeLessThanOrEqual(20);
    expect(encodeResumeCode(TYPICAL).length).toBeLessThanOrEqual(120);
    expect(encodeResumeCode(FULL).length).toBeLessThanOrEqual(MAX_CODE_LENGTH);
  });

  test("a mistyped character is refused as mistyped, wherever it is", () => {
    const code = encodeResumeCode(TYPICAL);
    for (let at = RESUME_PREFIX.length; at < code.length; at++) {
      for (const by of [1, 7, 33]) {
        const changed = withCharChanged(code, at, by);
        const result = decodeResumeCode(changed);
        expect(result.ok, `${changed} (position ${at})`).toBe(false);
      }
    }
    expect(decodeResumeCode(withCharChanged(code, 10, 1))).toEqual({ ok: false, problem: "mistyped" });
    // A character missing, or one that is not in the code's alphabet.
    expect(decodeResumeCode(code.slice(0, -1))).toEqual({ ok: false, problem: "mistyped" });
    expect(decodeResumeCode(`${code.slice(0, 20)}*${code.slice(21)}`)).toEqual({ ok: false, problem: "mistyped" });
  });

  test("a newer version is refused as such; other prefixes are not codes", () => {
    const body = encodeResumeCode(TYPICAL).slice(RESUME_PREFIX.length);
    expect(decodeResumeCode(`CG2.${body}`)).toEqual({ ok: false, problem: "newer-version" });
    expect(decodeResumeCode(`CG10.${body}`)).toEqual({ ok: false, problem: "newer-version" });
    expect(decodeResumeCode(`CG0.${body}`)).toEqual({ ok: false, problem: "not-a-code" });
    expect(decodeResumeCode(`XX1.${body}`)).toEqual({ ok: false, problem: "not-a-code" });
    expect(decodeResumeCode(body)).toEqual({ ok: false, problem: "not-a-code" });
    expect(decodeResumeCode("")).toEqual({ ok: false, problem: "empty" });
    expect(decodeResumeCode("  \n ")).toEqual({ ok: false, problem: "empty" });
  });

  test("hostile input is refused without throwing, and a forged code still passes normalise", () => {
    const hostile = [
      "CG1.",
      "CG1.A",
      "CG1.AAAA",
      `CG1.${"A".repeat(MAX_CODE_LENGTH)}`,
      `CG1.${"_".repeat(5000)}`,
      "CG1.<script>alert(1)</script>",
      "CG1.%00%00",
      "CG1.\u0000\u0000\u0000",
      "#".repeat(100),
      "CG1.😀😀😀",
      "__proto__",
      '{"quiz":null}',
      "x".repeat(10_000_000),
    ];
    for (const text of hostile) expect(decodeResumeCode(text).ok).toBe(false);
    expect(decodeResumeCode(42 as unknown as string).ok).toBe(false);

    // A code built by hand with a valid checksum and out-of-range fields (archetype 15,
    // tier 3, a quiz with 31 correct of 1): what is not valid is dropped by normalise.
    const forged = forgeCode([
      [1, 1],
      [0, 6],
      [0, 6],
      [15, 4],
      [1, 1],
      [0, 6],
      [0, 6],
      [3, 2],
      [0, 50],
      [0, 10],
      [1, 1],
      [0, 5],
      [31, 5],
      [0, 1],
      [0, 9],
      [0, 1],
    ]);
    const result = decodeResumeCode(forged);
    expect(result).toEqual({
      ok: true,
      progress: { ...EMPTY_PROGRESS, quiz: { id: "A", archetype: null } },
    });
  });
});

/** A version 1 code from raw fields, with a correct checksum (as a hostile visitor could make). */
function forgeCode(fields: [value: number, width: number][]): string {
  const bits: number[] = [];
  for (const [value, width] of fields) for (let i = width - 1; i >= 0; i--) bits.push((value >> i) & 1);
  const payload = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((bit, i) => {
    payload[i >> 3] = (payload[i >> 3] as number) | (bit << (7 - (i & 7)));
  });
  let crc = 0xffff;
  for (const byte of [1, ...payload]) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  const bytes = [...payload, crc >> 8, crc & 0xff];
  return `CG1.${Buffer.from(bytes).toString("base64url")}`;
}
