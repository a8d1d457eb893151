import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import type { CourseModule } from "#shared/features/course/contract.ts";
import { renderAt } from "#tests/support/render.tsx";
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
      options: (["A", "B", "C", "D"] as const).map((o) => ({ id: o, text: `Answer ${o}${id}` })),
      correctAnswer: "B" as const,
      explanation: `Explanation ${id}: B is right because the lesson says so, clearly.`,
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
    expect(screen.getByText("All Topics Completed")).toBeTruthy();
    // A plain link: a full page load, not a client navigation.
    expect(screen.getByRole("button", { name: "Continue" }).getAttribute("href")).toBe(
      "/learn/module-complete?moduleId=3",
    );
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(screen.getByText("Topic 2 of 3")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Second topic" }));
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
    expect(screen.getByText("Incorrect. The right answer is B.")).toBeTruthy();
    expect(screen.getByText(/Explanation 1/)).toBeTruthy();
    for (const radio of screen.getAllByRole("radio")) expect((radio as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Next Question" }));
    // The focus moves to the new question, not to the body behind a disabled button.
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Question number 2?" }));
    answer("B");
    expect(screen.getByText("Correct!")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Next Question" }));
    answer("B");
    fireEvent.click(screen.getByRole("button", { name: "Complete Quiz" }));

    // 2 of 3 = 67%: below 75, at least 60.
    expect(screen.getByRole("heading", { name: "Your score: 67%" })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Your score: 67%" }));
    expect(screen.getByText("Good effort! You're on the right track.")).toBeTruthy();
    expect(screen.getByText("You've successfully completed Module 3!")).toBeTruthy();
    expect(JSON.parse(localStorage.getItem("completedModules")!)).toEqual([3]);
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
    expect(JSON.parse(localStorage.getItem("completedModules")!)).toEqual([10]);
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
