import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import type { CourseModule } from "#shared/features/course/contract.ts";
import { renderAt, renderServerHtml } from "#tests/support/render.tsx";
import { ModuleQuiz } from "./module-quiz.tsx";
import { TopicViewer } from "./topic-viewer.tsx";

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const module: CourseModule = {
  id: 3,
  title: "Test module",
  description: "A module used by the component tests, long enough for the schema.",
  isActive: true,
  topics: [
    { id: 1, title: "First topic", content: "<p>Lesson one text.</p>", proTip: "A tip written for the first topic." },
    { id: 2, title: "Second topic", content: "   " },
    { id: 3, title: "Third topic", content: "<p>Lesson three text.</p>" },
  ],
  quiz: {
    questions: [1, 2, 3].map((id) => ({
      id,
      question: `Question number ${id}?`,
      options: (["A", "B", "C", "D"] as const).map((o) => ({
        id: o,
        text: `Answer ${o}${id}`,
        explanation: `Why ${o}${id}: ${o === "B" ? "right, as the lesson says" : "wrong, as the lesson says"}.`,
      })),
      correctAnswer: "B" as const,
    })),
  },
};

describe("topic viewer", () => {
  test("starts at the first topic; Previous disabled; Next until the last; progress counts topics read", () => {
    renderAt("/learn/3", <TopicViewer module={module} />);
    expect(screen.getByRole("heading", { name: "First topic" })).toBeTruthy();
    expect(screen.getByText("Topic 1 of 3")).toBeTruthy();
    // Nothing read yet.
    expect(screen.getByText("0%")).toBeTruthy();
    // The first render leaves the focus where the browser put it.
    expect(document.activeElement).toBe(document.body);
    expect(screen.getByText("A tip written for the first topic.")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Previous" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText("All Topics Completed")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByText("33%")).toBeTruthy();
    // The focus follows to the new topic's title.
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Second topic" }));
    // An empty topic and the default pro tip.
    expect(screen.getByText("This topic content is coming soon!")).toBeTruthy();
    expect(screen.getByText("Most successful cam models completed this entire course.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByText("67%")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Next" })).toBeNull();
    // Clicked through, not read: the end says which lessons are left rather than that all are done.
    expect(screen.getByRole("heading", { name: "The end of this module's lessons" })).toBeTruthy();
    expect(screen.getByText("2 lessons are not read through yet on this device:")).toBeTruthy();
    // A plain link: a full page load, not a client navigation.
    expect(screen.getByRole("button", { name: "Continue" }).getAttribute("href")).toBe(
      "/learn/module-complete?moduleId=3",
    );
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(screen.getByText("Topic 2 of 3")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Second topic" }));
  });
});

describe("topic viewer: each lesson has its address", () => {
  test("?topic=N shows that lesson; Previous and Next are links to the neighbours", () => {
    const { location } = renderAt("/learn/3?topic=2", <TopicViewer module={module} />);
    expect(screen.getByRole("heading", { level: 2, name: "Second topic" })).toBeTruthy();
    expect(screen.getByText("Topic 2 of 3")).toBeTruthy();
    expect(screen.getByText("33%")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Previous" }).getAttribute("href")).toBe("/learn/3");
    expect(screen.getByRole("button", { name: "Next" }).getAttribute("href")).toBe("/learn/3?topic=3");
    // With scripts Next changes the lesson in place and adds it to the history (Back returns).
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(location.history).toEqual(["/learn/3?topic=2", "/learn/3?topic=3"]);
    expect(document.activeElement).toBe(screen.getByRole("heading", { level: 2, name: "Third topic" }));
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(location.history?.at(-1)).toBe("/learn/3?topic=2");
    expect(document.activeElement).toBe(screen.getByRole("heading", { level: 2, name: "Second topic" }));
  });

  test("a lesson the module does not have shows the first one", () => {
    renderAt("/learn/3?topic=5", <TopicViewer module={module} />);
    expect(screen.getByText("Topic 1 of 3")).toBeTruthy();
  });

  test("a click meant for a new tab is left to the browser", () => {
    const { location } = renderAt("/learn/3", <TopicViewer module={module} />);
    fireEvent.click(screen.getByRole("button", { name: "Next" }), { ctrlKey: true });
    expect(location.history).toEqual(["/learn/3"]);
  });
});

describe("module quiz without scripts", () => {
  test("the server renders every question as one form sent to the module's address", () => {
    const html = renderServerHtml("/learn/3", <ModuleQuiz module={module} onReview={() => {}} />, {
      search: "quiz=true",
    });
    document.body.innerHTML = html;
    const form = document.querySelector("form")!;
    expect(form.getAttribute("method")).toBe("get");
    expect(form.getAttribute("action")).toBe("/learn/3");
    expect(form.querySelector<HTMLInputElement>('input[type="hidden"][name="quiz"]')?.value).toBe("true");
    for (const name of ["a1", "a2", "a3"]) {
      const radios = [...form.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${name}"]`)];
      expect(radios.map((r) => r.value)).toEqual(["A", "B", "C", "D"]);
      expect(radios.every((r) => r.required)).toBe(true);
    }
    expect(screen.getAllByRole("group")).toHaveLength(3);
    expect(screen.getByRole("button", { name: "Complete Quiz" }).getAttribute("type")).toBe("submit");
    document.body.innerHTML = "";
  });

  test("answers in the address are scored: the result, each answer with the right one, and the way on", () => {
    renderAt("/learn/3?quiz=true&a1=B&a2=A&a3=B", <ModuleQuiz module={module} onReview={() => {}} />);
    expect(screen.getByRole("heading", { name: "Your score: 67%" })).toBeTruthy();
    expect(screen.getByText("2 of 3 correct.")).toBeTruthy();
    expect(screen.getByText("Good effort! You're on the right track.")).toBeTruthy();
    expect(screen.getAllByText(/^Correct! You chose B: “Answer B[13]”$/)).toHaveLength(2);
    // A wrong answer: why it is wrong, then the right one and why it is right.
    expect(screen.getByText("Not quite. You chose A: “Answer A2”")).toBeTruthy();
    expect(screen.getByText("The right answer is B: “Answer B2”")).toBeTruthy();
    // Every option's explanation, the ones not chosen too.
    for (const letter of ["A", "B", "C", "D"]) expect(screen.getByText(new RegExp(`^Why ${letter}2:`))).toBeTruthy();
    expect(screen.getByText(/Without JavaScript this browser keeps no course progress/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Continue" }).getAttribute("href")).toBe("/learn/4");
    expect(screen.getByRole("button", { name: "Review This Module Again" }).getAttribute("href")).toBe("/learn/3");
  });

  test("a form sent with a question unanswered is shown again, with the answers given", () => {
    const html = renderServerHtml("/learn/3", <ModuleQuiz module={module} onReview={() => {}} />, {
      search: "quiz=true&a1=C",
    });
    document.body.innerHTML = html;
    expect(document.querySelector<HTMLInputElement>('input[name="a1"][value="C"]')?.checked).toBe(true);
    expect(document.querySelector("input[name='a2']:checked")).toBeNull();
    expect(screen.queryByText(/Your score/)).toBeNull();
    document.body.innerHTML = "";
  });
});

describe("module quiz and result panel", () => {
  function answer(letter: string) {
    fireEvent.click(screen.getByRole("radio", { name: new RegExp(`Answer ${letter}`) }));
    fireEvent.click(screen.getByRole("button", { name: "Submit Answer" }));
  }

  test("submit is disabled until a choice; the answer locks and explains; score and messages", () => {
    let reviewed = 0;
    renderAt("/learn/3?quiz=true", <ModuleQuiz module={module} onReview={() => reviewed++} />);
    expect((screen.getByRole("button", { name: "Submit Answer" }) as HTMLButtonElement).disabled).toBe(true);
    answer("A");
    expect(screen.getByText("Not quite. You chose “Answer A1”")).toBeTruthy();
    expect(screen.getByText(/^Why A1: wrong/)).toBeTruthy();
    expect(screen.getByText("The right answer is “Answer B1”")).toBeTruthy();
    expect(screen.getByText(/^Why B1: right/)).toBeTruthy();
    for (const radio of screen.getAllByRole("radio")) expect((radio as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Next Question" }));
    // The focus moves to the new question, not to the body behind a disabled button.
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Question number 2?" }));
    answer("B");
    expect(screen.getByText("Correct! You chose “Answer B2”")).toBeTruthy();
    expect(screen.getByText(/^Why B2: right/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Next Question" }));
    answer("B");
    fireEvent.click(screen.getByRole("button", { name: "Complete Quiz" }));

    // 2 of 3 = 67%: below 75, at least 60.
    expect(screen.getByRole("heading", { name: "Your score: 67%" })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Your score: 67%" }));
    expect(screen.getByText("Good effort! You're on the right track.")).toBeTruthy();
    expect(screen.getByText("You've successfully completed Module 3!")).toBeTruthy();
    expect(JSON.parse(localStorage.getItem("progress")!).completed).toEqual([3]);
    expect(screen.getByRole("button", { name: "Continue" }).getAttribute("href")).toBe("/learn/4");
    fireEvent.click(screen.getByRole("button", { name: "Review This Module Again" }));
    expect(reviewed).toBe(1);
  });

  test("below 60 the visitor is advised to review but may continue", () => {
    renderAt("/learn/10?quiz=true", <ModuleQuiz module={{ ...module, id: 10 }} onReview={() => {}} />);
    for (let i = 0; i < 3; i++) {
      answer("C");
      fireEvent.click(screen.getByRole("button", { name: i < 2 ? "Next Question" : "Complete Quiz" }));
    }
    expect(screen.getByRole("heading", { name: "Your score: 0%" })).toBeTruthy();
    expect(screen.getByText("You might want to review this module again.")).toBeTruthy();
    expect(screen.queryByText(/successfully completed/)).toBeNull();
    expect(screen.getByRole("button", { name: "Continue" }).getAttribute("href")).toBe("/learn/complete");
    expect(JSON.parse(localStorage.getItem("progress")!).completed).toEqual([10]);
  });

  test("opened after a visitor's action, the quiz brings its title into focus; on a first load it does not", () => {
    renderAt("/learn/3?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
    expect(document.activeElement).toBe(document.body);
    cleanup();
    document.documentElement.dataset.hydrated = "true";
    try {
      renderAt("/learn/3?quiz=true", <ModuleQuiz module={module} onReview={() => {}} />);
      expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Module 3 Quiz" }));
    } finally {
      delete document.documentElement.dataset.hydrated;
    }
  });

  test("a module without a quiz: 'Quiz Not Available'", () => {
    renderAt("/learn/3?quiz=true", <ModuleQuiz module={{ ...module, quiz: undefined }} onReview={() => {}} />);
    expect(screen.getByRole("heading", { name: "Quiz Not Available" })).toBeTruthy();
    expect(screen.getByText("This module's quiz is currently being updated.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Continue" }).getAttribute("href")).toBe("/learn/4");
  });
});
