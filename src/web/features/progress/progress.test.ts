import { describe, expect, test } from "bun:test";
import {
  EMPTY_PROGRESS,
  isEmpty,
  nextStep,
  normalise,
  type Progress,
  withLastLesson,
  withLessonRead,
  withModuleQuiz,
} from "./progress.ts";

describe("normalise: stored or imported progress is never trusted", () => {
  test("a complete, valid value is kept as it is", () => {
    const value = {
      quiz: { id: "abc_DEF-123", archetype: "Cosplay Babe" },
      earnings: { id: "xyz", tier: "Hustler Mode" },
      read: { 1: [1, 2, 3], 4: [5] },
      completed: [1, 4],
      quizzes: { 1: { correct: 4, total: 5, answers: ["A", "B", "C", "D", "A"] } },
      last: { module: 4, lesson: 5 },
    };
    expect(normalise(JSON.parse(JSON.stringify(value)))).toEqual(value as never);
  });

  test("anything that is not an object is nothing remembered", () => {
    for (const raw of [null, undefined, 3, "x", [], true]) expect(normalise(raw)).toEqual(EMPTY_PROGRESS);
  });

  test("bad fields are dropped one by one, the good ones stay", () => {
    const progress = normalise({
      quiz: { id: "<script>", archetype: "Cosplay Babe" },
      earnings: { id: "ok", tier: "Millionaire" },
      read: { 0: [1], 11: [1], 2: [0, 6, 2, 2, "3", 1.5], 3: "all" },
      completed: [3, 3, 1, 0, 11, "2"],
      quizzes: {
        1: { correct: 6, total: 5, answers: [] },
        2: { correct: 2, total: 5, answers: ["A", "Z"] },
        12: { correct: 1, total: 1, answers: ["A"] },
      },
      last: { module: 2, lesson: 9 },
    });
    expect(progress).toEqual({
      quiz: null,
      earnings: null,
      read: { 2: [2] },
      completed: [1, 3],
      quizzes: { 2: { correct: 2, total: 5, answers: [] } },
      last: null,
    });
  });

  test("an unknown archetype keeps the result's id without a name", () => {
    expect(normalise({ quiz: { id: "abc", archetype: "Nobody" } }).quiz).toEqual({ id: "abc", archetype: null });
  });
});

describe("changes", () => {
  test("a lesson read is added once, sorted; out-of-range lessons change nothing", () => {
    let p = withLessonRead(EMPTY_PROGRESS, 3, 4);
    p = withLessonRead(p, 3, 2);
    expect(withLessonRead(p, 3, 2)).toBe(p);
    expect(withLessonRead(p, 3, 6)).toBe(p);
    expect(p.read).toEqual({ 3: [2, 4] });
  });

  test("the last lesson and a finished quiz", () => {
    const p = withModuleQuiz(withLastLesson(EMPTY_PROGRESS, 2, 3), 2, { correct: 3, total: 5, answers: [] });
    expect(p.last).toEqual({ module: 2, lesson: 3 });
    expect(p.completed).toEqual([2]);
    expect(p.quizzes[2]?.correct).toBe(3);
    expect(isEmpty(p)).toBe(false);
    expect(isEmpty(EMPTY_PROGRESS)).toBe(true);
  });
});

describe("nextStep: continue where you left off", () => {
  const read = (p: Progress, module: number, lessons: number[]) =>
    lessons.reduce((acc, lesson) => withLessonRead(acc, module, lesson), p);

  test("nothing remembered starts the course", () => {
    expect(nextStep(EMPTY_PROGRESS)).toEqual({ kind: "start", module: 1, lesson: 1, href: "/learn/1" });
  });

  test("the lesson opened last, while it is not read through", () => {
    const p = withLastLesson(read(EMPTY_PROGRESS, 2, [1, 2]), 2, 3);
    expect(nextStep(p)).toMatchObject({ kind: "lesson", module: 2, lesson: 3, href: "/learn/2?topic=3" });
  });

  test("once it is read, the next open step after it: forward first, then round to the ones before", () => {
    // Lessons 2 and 3 read, 3 opened last: on to 4, not back to 1.
    let p = withLastLesson(read(EMPTY_PROGRESS, 2, [2, 3]), 2, 3);
    expect(nextStep(p)).toMatchObject({ kind: "lesson", module: 2, lesson: 4, href: "/learn/2?topic=4" });
    // The module's quiz follows its last lesson, even with lesson 1 skipped.
    p = withLastLesson(read(p, 2, [4, 5]), 2, 5);
    expect(nextStep(p)).toMatchObject({ kind: "quiz", module: 2, href: "/learn/2?quiz=true" });
    p = withModuleQuiz(p, 2, { correct: 5, total: 5, answers: [] });
    expect(nextStep(p)).toMatchObject({ kind: "lesson", module: 3, lesson: 1, href: "/learn/3" });
  });

  test("after the last module the steps left before it, a finished module passed over", () => {
    let p = withLastLesson(read(EMPTY_PROGRESS, 10, [1, 2, 3, 4, 5]), 10, 5);
    p = withModuleQuiz(p, 10, { correct: 5, total: 5, answers: [] });
    p = withModuleQuiz(p, 1, { correct: 5, total: 5, answers: [] });
    expect(nextStep(p)).toMatchObject({ kind: "lesson", module: 2, lesson: 1 });
    for (let m = 2; m <= 9; m++) p = withModuleQuiz(p, m, { correct: 5, total: 5, answers: [] });
    expect(nextStep(p)).toEqual({ kind: "done", href: "/learn/complete" });
  });
});
