import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import type { CourseModule } from "#shared/features/course/contract.ts";
import { renderAt, renderServerHtml } from "#tests/support/render.tsx";
import { ModuleQuiz } from "./module-quiz.tsx";

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// Five questions; the right answer of question n is RIGHT[n - 1].
const RIGHT = ["B", "A", "D", "C", "B"] as const;
const module: CourseModule = {
  id: 4,
  title: "Review module",
  description: "A module used by the review tests, long enough for the schema to accept.",
  isActive: true,
  topics: [{ id: 1, title: "First topic", content: "<p>Text.</p>" }],
  quiz: {
    questions: RIGHT.map((correctAnswer, i) => ({
      id: i + 1,
      question: `Question number ${i + 1}?`,
      options: (["A", "B", "C", "D"] as const).map((o) => ({
        id: o,
        text: `Answer ${o}${i + 1}`,
        explanation: `Why ${o}${i + 1}: ${o === correctAnswer ? "right" : "wrong"}, as the lesson says.`,
      })),
      correctAnswer,
    })),
  },
};

const stored = () => JSON.parse(localStorage.getItem("progress") ?? "{}").quizzes?.[4];

function answer(letter: string, last: boolean) {
  // The options show no letter (their order changes with every attempt): found by their text.
  fireEvent.click(screen.getByRole("radio", { name: new RegExp(`^Answer ${letter}\\d$`) }));
  fireEvent.click(screen.getByRole("button", { name: "Submit Answer" }));
  fireEvent.click(screen.getByRole("button", { name: last ? "Complete Quiz" : "Next Question" }));
}

/** The review's item for question n. */
function reviewed(n: number) {
  const list = screen.getByRole("region", { name: "Review your answers" });
  return within(list)
    .getByRole("heading", { name: new RegExp(`Question number ${n}\\?`) })
    .closest("li")!;
}

describe("after a module quiz: review and retry", () => {
  test("the review shows every question, the answer chosen, the right one and every explanation", () => {
    renderAt("/learn/4?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    // Questions 2 and 4 wrong on purpose.
    for (const [i, letter] of ["B", "C", "D", "A", "B"].entries()) answer(letter, i === 4);
    expect(screen.getByRole("heading", { name: "Your score: 60%" })).toBeTruthy();
    const review = screen.getByRole("region", { name: "Review your answers" });
    expect(within(review).getAllByRole("heading", { level: 3 })).toHaveLength(5);

    const second = within(reviewed(2));
    expect(second.getByText("Not quite. You chose C: “Answer C2”")).toBeTruthy();
    expect(second.getByText("The right answer is A: “Answer A2”")).toBeTruthy();
    for (const letter of ["A", "B", "C", "D"]) expect(second.getByText(new RegExp(`^Why ${letter}2:`))).toBeTruthy();
    // Which is yours and which is right, in words.
    expect(second.getByText("Your answer").closest("li")!.textContent).toContain("Answer C2");
    expect(second.getByText("Right answer").closest("li")!.textContent).toContain("Answer A2");

    const first = within(reviewed(1));
    expect(first.getByText("Correct! You chose B: “Answer B1”")).toBeTruthy();
    // One option is both.
    const both = first.getByText("Your answer").closest("li")!;
    expect(within(both).getByText("Right answer")).toBeTruthy();

    // The record holds the letters chosen.
    expect(stored()).toEqual({ correct: 3, total: 5, answers: ["B", "C", "D", "A", "B"] });
  });

  test("'Retry the ones I missed' asks only those; the record becomes the latest answer to each question", () => {
    renderAt("/learn/4?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    for (const [i, letter] of ["B", "C", "D", "A", "B"].entries()) answer(letter, i === 4);
    const retry = screen.getByRole("button", { name: "Retry the ones I missed" });
    // Without scripts it is an address asking the missed questions, the right answers standing.
    expect(retry.getAttribute("href")).toBe("/learn/4?quiz=true&a1=B&a3=D&a5=B&retry=24");
    // Offered in the result panel too, above the review: the same retry.
    const early = within(screen.getByRole("status")).getByRole("button", { name: "Retry the 2 I missed" });
    expect(early.getAttribute("href")).toBe(retry.getAttribute("href"));
    fireEvent.click(retry);

    expect(screen.getByRole("heading", { name: "Module 4 Quiz: the ones you missed" })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Module 4 Quiz: the ones you missed" }));
    expect(screen.getByText("Retry 1 of 2 (question 2 of 5)")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Question number 2?" })).toBeTruthy();
    answer("A", false);
    expect(screen.getByText("Retry 2 of 2 (question 4 of 5)")).toBeTruthy();
    // Question 4 missed again.
    answer("B", true);

    expect(screen.getByRole("heading", { name: "Your score: 80%" })).toBeTruthy();
    expect(screen.getByText(/^This retry: 1 of 2 right\./)).toBeTruthy();
    expect(screen.getByText("4 of 5 correct.")).toBeTruthy();
    expect(within(reviewed(2)).getByText("Correct! You chose A: “Answer A2”")).toBeTruthy();
    expect(within(reviewed(4)).getByText("Not quite. You chose B: “Answer B4”")).toBeTruthy();
    expect(stored()).toEqual({ correct: 4, total: 5, answers: ["B", "A", "D", "B", "B"] });

    // Again: only question 4 is left.
    expect(screen.getByText("You missed one question. Try it again: your right answers stand.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Retry the ones I missed" }));
    expect(screen.getByText("Retry 1 of 1 (question 4 of 5)")).toBeTruthy();
    answer("C", true);
    expect(screen.getByRole("heading", { name: "Your score: 100%" })).toBeTruthy();
    // Answered after the answers were revealed: what the visitor remembers, not mastery.
    expect(screen.getByText(/^Well remembered\. You had seen the answers before this try/)).toBeTruthy();
    expect(screen.queryByText(/mastered/)).toBeNull();
    expect(screen.queryByRole("button", { name: "Retry the ones I missed" })).toBeNull();
    expect(stored()).toEqual({ correct: 5, total: 5, answers: ["B", "A", "D", "C", "B"] });
  });

  test("all right: the review, and no retry", () => {
    renderAt("/learn/4?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    for (const [i, letter] of RIGHT.entries()) answer(letter, i === 4);
    expect(screen.getAllByText(/^Correct! You chose/)).toHaveLength(5);
    expect(screen.queryByRole("button", { name: "Retry the ones I missed" })).toBeNull();
    expect(screen.queryByText(/This retry/)).toBeNull();
  });
});

describe("every attempt shows the options in a new order", () => {
  /** The texts of the options shown for the question on screen, in order. */
  const shownOrder = () => screen.getAllByRole("radio").map((r) => r.closest("label")!.textContent ?? "");

  test("a retry never shows a question's options in the order of the attempt before", () => {
    renderAt("/learn/4?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    const first: string[][] = [];
    for (const [i, letter] of ["A", "A", "A", "A", "A"].entries()) {
      first.push(shownOrder());
      answer(letter, i === 4);
    }
    fireEvent.click(screen.getByRole("button", { name: "Retry the ones I missed" }));
    // Every question but the second was missed: each comes back in another order.
    for (const n of [1, 3, 4, 5]) {
      expect(screen.getByRole("heading", { name: `Question number ${n}?` })).toBeTruthy();
      const again = shownOrder();
      expect(again).not.toEqual(first[n - 1]!);
      expect([...again].sort()).toEqual([...first[n - 1]!].sort());
      answer(RIGHT[n - 1]!, n === 5);
    }
    expect(screen.getByRole("heading", { name: "Your score: 100%" })).toBeTruthy();
  });

  test("the whole quiz taken again on a device that holds its result is not called mastery", () => {
    renderAt("/learn/4?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    for (const [i, letter] of RIGHT.entries()) answer(letter, i === 4);
    expect(screen.getByText("Amazing! You've mastered this module!")).toBeTruthy();
    cleanup();
    renderAt("/learn/4?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    for (const [i, letter] of RIGHT.entries()) answer(letter, i === 4);
    expect(screen.getByRole("heading", { name: "Your score: 100%" })).toBeTruthy();
    expect(screen.getByText(/^Well remembered\. You had seen the answers before this try/)).toBeTruthy();
    expect(screen.queryByText(/mastered/)).toBeNull();
  });
});

describe("review and retry without scripts", () => {
  test("the sent result reviews every option and links the retry of the missed ones", () => {
    renderAt("/learn/4?quiz=true&a1=B&a2=C&a3=D&a4=A&a5=B", <ModuleQuiz module={module} onReview={() => {}} />);
    expect(screen.getByRole("heading", { name: "Your score: 60%" })).toBeTruthy();
    expect(within(reviewed(4)).getByText(/^Why D4:/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Retry the ones I missed" }).getAttribute("href")).toBe(
      "/learn/4?quiz=true&a1=B&a3=D&a5=B&retry=24",
    );
    // Answers in the address (a link anyone could send) change nothing kept on this device.
    expect(stored()).toBeUndefined();
    // With scripts the retry runs in the page, from the answers in the address.
    fireEvent.click(screen.getByRole("button", { name: "Retry the ones I missed" }));
    expect(screen.getByText("Retry 1 of 2 (question 2 of 5)")).toBeTruthy();
    answer("A", false);
    answer("C", true);
    expect(screen.getByRole("heading", { name: "Your score: 100%" })).toBeTruthy();
    expect(stored()).toEqual({ correct: 5, total: 5, answers: [...RIGHT] });
  });

  test("the retry address is a form of the missed questions only, the other answers sent along", () => {
    const html = renderServerHtml("/learn/4", <ModuleQuiz module={module} onReview={() => {}} />, {
      search: "quiz=true&a1=B&a3=D&a5=B&retry=24",
    });
    document.body.innerHTML = html;
    expect(screen.getByRole("heading", { name: "Module 4 Quiz: the ones you missed" })).toBeTruthy();
    expect(screen.getAllByRole("group")).toHaveLength(2);
    expect(screen.getByText("Question 2 of 5:")).toBeTruthy();
    expect(screen.getByText("Question 4 of 5:")).toBeTruthy();
    const form = document.querySelector("form")!;
    const hidden = [...form.querySelectorAll<HTMLInputElement>('input[type="hidden"]')].map((i) => [i.name, i.value]);
    expect(hidden).toEqual([
      ["quiz", "true"],
      ["retry", "24"],
      ["a1", "B"],
      ["a3", "D"],
      ["a5", "B"],
    ]);
    expect([...form.querySelectorAll<HTMLInputElement>('input[type="radio"]')].map((r) => r.name)).toEqual([
      ..."a2 a2 a2 a2 a4 a4 a4 a4".split(" "),
    ]);
    document.body.innerHTML = "";
  });

  test("the retry sent: its result, the score from the latest answers, the review again", () => {
    renderAt(
      "/learn/4?quiz=true&a1=B&a2=A&a3=D&a4=B&a5=B&retry=24",
      <ModuleQuiz module={module} onReview={() => {}} />,
    );
    expect(screen.getByRole("heading", { name: "Your score: 80%" })).toBeTruthy();
    expect(screen.getByText(/^This retry: 1 of 2 right\./)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Retry the ones I missed" }).getAttribute("href")).toBe(
      "/learn/4?quiz=true&a1=B&a2=A&a3=D&a5=B&retry=4",
    );
  });

  test("a retry whose other answers are missing asks the whole quiz", () => {
    const html = renderServerHtml("/learn/4", <ModuleQuiz module={module} onReview={() => {}} />, {
      search: "quiz=true&a1=B&retry=24",
    });
    document.body.innerHTML = html;
    expect(screen.getByRole("heading", { name: "Module 4 Quiz" })).toBeTruthy();
    expect(screen.getAllByRole("group")).toHaveLength(5);
    document.body.innerHTML = "";
  });
});

describe("a result from the address is kept only when the visitor asks", () => {
  test("a link with answers leaves a better record alone until 'Save it to my progress'", () => {
    const best = { correct: 5, total: 5, answers: [...RIGHT] };
    localStorage.setItem("progress", JSON.stringify({ completed: [4], quizzes: { 4: best } }));
    renderAt("/learn/4?quiz=true&a1=A&a2=A&a3=A&a4=A&a5=A", <ModuleQuiz module={module} onReview={() => {}} />);
    expect(screen.getByRole("heading", { name: "Your score: 20%" })).toBeTruthy();
    expect(stored()).toEqual(best);
    expect(
      screen.getByText(/Saving it replaces the score this device keeps for this module: 100% \(5 of 5 correct\)\./),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save it to my progress" }));
    expect(stored()).toEqual({ correct: 1, total: 5, answers: ["A", "A", "A", "A", "A"] });
    expect(screen.getByText("Saved to your progress on this device.")).toBeTruthy();
  });

  test("a link to another module's answers does not mark that module completed", () => {
    renderAt("/learn/4?quiz=true&a1=A&a2=A&a3=A&a4=A&a5=A", <ModuleQuiz module={module} onReview={() => {}} />);
    expect(JSON.parse(localStorage.getItem("progress") ?? "{}").completed ?? []).toEqual([]);
  });
});

describe("a quiz finished before on this device", () => {
  test("the quiz starts with the last score and 'Review my answers' opens the review and the retry", () => {
    localStorage.setItem(
      "progress",
      JSON.stringify({ completed: [4], quizzes: { 4: { correct: 4, total: 5, answers: ["B", "A", "D", "A", "B"] } } }),
    );
    renderAt("/learn/4?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    expect(screen.getByText("Last time on this device you scored 80% (4 of 5 correct).")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Review my answers" }));
    expect(screen.getByRole("heading", { name: "Your score: 80%" })).toBeTruthy();
    expect(within(reviewed(4)).getByText("Not quite. You chose A: “Answer A4”")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Retry the ones I missed" }));
    expect(screen.getByText("Retry 1 of 1 (question 4 of 5)")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Review my answers" })).toBeNull();
  });

  test("without a record with its answers, or once the quiz has begun, nothing is offered", () => {
    renderAt("/learn/4?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    expect(screen.queryByRole("button", { name: "Review my answers" })).toBeNull();
    cleanup();
    localStorage.setItem("progress", JSON.stringify({ quizzes: { 4: { correct: 0, total: 5, answers: [] } } }));
    renderAt("/learn/4?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    expect(screen.queryByRole("button", { name: "Review my answers" })).toBeNull();
    cleanup();
    localStorage.setItem(
      "progress",
      JSON.stringify({ quizzes: { 4: { correct: 5, total: 5, answers: ["B", "A", "D", "C", "B"] } } }),
    );
    renderAt("/learn/4?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    expect(screen.getByRole("button", { name: "Review my answers" })).toBeTruthy();
    answer("B", false);
    expect(screen.queryByRole("button", { name: "Review my answers" })).toBeNull();
  });
});
