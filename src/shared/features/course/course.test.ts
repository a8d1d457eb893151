import { describe, expect, test } from "bun:test";
import {
  afterModule,
  moduleCompleteSkip,
  parseModuleId,
  passed,
  quizScore,
  scoreMessage,
  topicProgress,
  withCompleted,
} from "./course.ts";

describe("score messages", () => {
  test.each([
    [100, "Amazing! You've mastered this module!"],
    [90, "Amazing! You've mastered this module!"],
    [89, "Great job! You've got a solid understanding!"],
    [75, "Great job! You've got a solid understanding!"],
    [74, "Good effort! You're on the right track."],
    [60, "Good effort! You're on the right track."],
    [59, "You might want to review this module again."],
    [0, "You might want to review this module again."],
  ])("%i -> %s", (score, message) => expect(scoreMessage(score)).toBe(message));

  test("the pass message shows at 60 or more", () => {
    expect(passed(60)).toBe(true);
    expect(passed(59)).toBe(false);
  });
});

describe("quiz score", () => {
  test.each([
    [5, 5, 100],
    [4, 5, 80],
    [3, 5, 60],
    [2, 3, 67],
    [1, 3, 33],
    [0, 5, 0],
    [0, 0, 0],
  ])("%i of %i -> %i", (correct, total, score) => expect(quizScore(correct, total)).toBe(score));
});

describe("topic viewer progress", () => {
  test.each([
    [0, 5, 0],
    [1, 5, 20],
    [2, 5, 40],
    [4, 5, 80],
    [1, 3, 33],
  ])("index %i of %i -> %i%", (index, count, percent) => expect(topicProgress(index, count)).toBe(percent));
});

describe("where Continue and skip go", () => {
  test("next module, then graduation", () => {
    expect(afterModule(1)).toBe("/learn/2");
    expect(afterModule(9)).toBe("/learn/10");
    expect(afterModule(10)).toBe("/learn/complete");
  });
  test("module-complete skip: next module, then /course-complete", () => {
    expect(moduleCompleteSkip(3)).toBe("/learn/4");
    expect(moduleCompleteSkip(10)).toBe("/course-complete");
    expect(moduleCompleteSkip(12)).toBe("/course-complete");
  });
});

describe("module ids from the address", () => {
  test.each([
    ["1", 1],
    ["10", 10],
    ["42", 42],
    ["abc", null],
    ["1.5", null],
    ["-1", null],
    ["0", 0],
    ["", null],
    ["1e3", null],
  ])("%p -> %p", (raw, id) => expect(parseModuleId(raw)).toBe(id));
});

test("completed modules are added once, sorted", () => {
  expect(withCompleted([3, 1], 2)).toEqual([1, 2, 3]);
  expect(withCompleted([1, 2], 2)).toEqual([1, 2]);
});
