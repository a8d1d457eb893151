import { describe, expect, test } from "bun:test";
import type { ModuleQuizQuestion } from "./contract.ts";
import {
  canonicalRetry,
  missedQuestions,
  retryAddress,
  retryFromAddress,
  rightCount,
  shuffledOptions,
} from "./quiz-review.ts";

const questions: ModuleQuizQuestion[] = (["B", "A", "D", "C", "B"] as const).map((correctAnswer, i) => ({
  id: i + 1,
  question: `Question number ${i + 1}?`,
  options: (["A", "B", "C", "D"] as const).map((id) => ({ id, text: id, explanation: "x".repeat(30) })),
  correctAnswer,
}));
const names = ["a1", "a2", "a3", "a4", "a5"];

describe("missed questions and right answers", () => {
  test("wrong and unanswered questions are missed; counts over all or some questions", () => {
    const answers = ["B", "C", "D", null, "A"] as const;
    expect(missedQuestions(questions, [...answers])).toEqual([1, 3, 4]);
    expect(rightCount(questions, [...answers])).toBe(2);
    expect(rightCount(questions, [...answers], [1, 2])).toBe(1);
    expect(missedQuestions(questions, ["B", "A", "D", "C", "B"])).toEqual([]);
  });
});

describe("the retry in the address", () => {
  test("canonical: question numbers 1 to 5, once each, in order; anything else is none", () => {
    expect(canonicalRetry("42")).toBe("24");
    expect(canonicalRetry("224")).toBe("24");
    expect(canonicalRetry("12345")).toBe("12345");
    for (const bad of ["", "0", "6", "26", "2,4", "a", " 2", "1234567890"]) expect(canonicalRetry(bad)).toBeNull();
  });

  test("asks the named questions only when every other question has its answer", () => {
    expect(retryFromAddress(questions, ["B", null, "D", null, "B"], "24")).toEqual([1, 3]);
    // Answers for the retried questions too: the retry's result.
    expect(retryFromAddress(questions, ["B", "A", "D", "A", "B"], "24")).toEqual([1, 3]);
    // Another question unanswered: the whole quiz.
    expect(retryFromAddress(questions, ["B", null, null, null, "B"], "24")).toBeNull();
    expect(retryFromAddress(questions, ["B", null, "D", null, "B"], null)).toBeNull();
    expect(retryFromAddress(questions, ["B", null, "D", null, "B"], "x")).toBeNull();
    // A question the quiz does not have is left out.
    expect(retryFromAddress(questions.slice(0, 3), ["B", null, "D"], "25")).toEqual([1]);
  });

  test("the address keeps the right answers and names the missed questions", () => {
    expect(retryAddress(3, questions, ["B", "C", "D", "A", "B"], names)).toBe(
      "/learn/3?quiz=true&a1=B&a3=D&a5=B&retry=24",
    );
    expect(retryAddress(3, questions, ["B", "A", "D", "C", "B"], names)).toBeNull();
  });
});

describe("the options' order for an attempt", () => {
  test("a permutation of the options, never the previous attempt's order, whatever the draw", () => {
    const ids = ["A", "B", "C", "D"];
    // A draw that would keep the order as it is (each swap with itself) is drawn again.
    const draws = [0.99, 0.99, 0.99, 0.99, 0.99, 0.99, 0, 0, 0];
    const random = () => draws.shift() ?? 0.5;
    const order = shuffledOptions(ids, ids, random);
    expect(order).not.toEqual(ids);
    expect([...order].sort()).toEqual(ids);
    for (let i = 0; i < 200; i++) expect(shuffledOptions(ids, ["B", "A", "D", "C"])).not.toEqual(["B", "A", "D", "C"]);
    expect(shuffledOptions(["A"], ["A"])).toEqual(["A"]);
  });
});
