import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { Router, useSearch } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { parseAnswers, spellAnswers } from "#shared/answers.ts";
import { badgeTone } from "#shared/features/products/contract.ts";
import { renderServerHtml } from "#tests/support/render.tsx";
import { AUTO_ADVANCE_LAST_MS, AUTO_ADVANCE_MS, Wizard } from "./wizard.tsx";
import { UNFINISHED_KEYS } from "./wizard-resume.tsx";

const LETTERS = ["A", "B", "C", "D"] as const;
type Letter = (typeof LETTERS)[number];
const questions = [1, 2, 3].map((id) => ({
  id,
  question: `Question text ${id}`,
  options: LETTERS.map((value) => ({ value, label: `Option ${value}${id}`, emoji: "⭐" })),
}));

const soFar = (value: string) => parseAnswers(value, LETTERS, { min: 1, max: questions.length - 1 });
const step = (answers: readonly Letter[]) => (answers.length > 0 ? `/quiz?answers=${spellAnswers(answers)}` : "/quiz");

/** The wizard as the quiz page uses it: its answers read from the address. */
function QuizAt({ onFinish, busy }: { onFinish: (answers: Letter[]) => void; busy?: boolean }) {
  const value = new URLSearchParams(useSearch()).get("answers") ?? "";
  const answered = parseAnswers(value, LETTERS, { min: 1, max: questions.length - 1 }) ?? [];
  return (
    <Wizard
      questions={questions}
      answered={answered}
      href={step}
      action="/quiz"
      onFinish={onFinish}
      busy={busy}
      resume={{ storageKey: UNFINISHED_KEYS.quiz, parse: soFar }}
    />
  );
}

let location = memoryLocation({ path: "/quiz", record: true });

/** Renders the wizard at an address (a reload there); `location.history` lists the steps visited. */
function show(path = "/quiz", onFinish: (answers: Letter[]) => void = () => {}, busy?: boolean) {
  const [pathname, search = ""] = path.split("?");
  location = memoryLocation({ path: pathname, searchPath: search, record: true });
  return render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <QuizAt onFinish={onFinish} busy={busy} />
    </Router>,
  );
}

const radio = (name: RegExp) => screen.getByRole("radio", { name }) as HTMLInputElement;

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  cleanup();
  // What was scheduled under fake timers runs before the real ones come back, so nothing
  // (React's own scheduling among it) is left waiting for a timer that never fires.
  act(() => jest.runOnlyPendingTimers());
  jest.useRealTimers();
});

describe("wizard", () => {
  test("progress, disabled buttons, auto-advance after 500 ms", () => {
    show();
    expect(screen.getByText("Question 1/3")).toBeTruthy();
    expect(screen.getByText("33%")).toBeTruthy();
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("33");
    expect((screen.getByRole("button", { name: "PREVIOUS" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "CONTINUE" }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole("radio", { name: /Option B1/ }));
    expect((screen.getByRole("button", { name: "CONTINUE" }) as HTMLButtonElement).disabled).toBe(false);
    act(() => jest.advanceTimersByTime(AUTO_ADVANCE_MS - 1));
    expect(screen.getByText("Question 1/3")).toBeTruthy();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.getByText("Question 2/3")).toBeTruthy();
    expect(screen.getByText("67%")).toBeTruthy();
  });

  test("choosing with the arrow keys does not move on by itself; CONTINUE does", () => {
    show();
    const second = screen.getByRole("radio", { name: /Option B1/ });
    fireEvent.keyDown(second, { key: "ArrowDown" });
    fireEvent.click(second);
    act(() => jest.advanceTimersByTime(2000));
    expect(screen.getByText("Question 1/3")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "CONTINUE" }));
    expect(screen.getByText("Question 2/3")).toBeTruthy();
  });

  test("the options are a labelled radio group", () => {
    show();
    const group = screen.getByRole("group", { name: "Question text 1" });
    expect(group.querySelectorAll('input[type="radio"]')).toHaveLength(4);
  });

  test("changing the answer restarts the delay; PREVIOUS cancels it and keeps the answer", () => {
    show();
    fireEvent.click(screen.getByRole("radio", { name: /Option A1/ }));
    act(() => jest.advanceTimersByTime(300));
    fireEvent.click(screen.getByRole("radio", { name: /Option C1/ }));
    act(() => jest.advanceTimersByTime(300));
    expect(screen.getByText("Question 1/3")).toBeTruthy();
    act(() => jest.advanceTimersByTime(200));
    expect(screen.getByText("Question 2/3")).toBeTruthy();
    fireEvent.click(screen.getByRole("radio", { name: /Option D2/ }));
    fireEvent.click(screen.getByRole("button", { name: "PREVIOUS" }));
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByText("Question 1/3")).toBeTruthy();
    expect((screen.getByRole("radio", { name: /Option C1/ }) as HTMLInputElement).checked).toBe(true);
  });

  test("the last step reads SEE RESULTS and finishes 800 ms after a choice, with answers by position", () => {
    const finished: string[][] = [];
    show("/quiz", (a) => void finished.push(a));
    for (const letter of ["B", "C"]) {
      fireEvent.click(screen.getAllByRole("radio").find((r) => (r as HTMLInputElement).value.endsWith(letter))!);
      act(() => jest.advanceTimersByTime(AUTO_ADVANCE_MS));
    }
    expect(screen.getByRole("button", { name: "SEE RESULTS" })).toBeTruthy();
    fireEvent.click(screen.getByRole("radio", { name: /Option D3/ }));
    act(() => jest.advanceTimersByTime(AUTO_ADVANCE_MS));
    expect(finished).toHaveLength(0);
    act(() => jest.advanceTimersByTime(AUTO_ADVANCE_LAST_MS - AUTO_ADVANCE_MS));
    expect(finished).toEqual([["B", "C", "D"]]);
  });

  test("while busy nothing can be changed or submitted twice", () => {
    show("/quiz?answers=AB", () => {}, true);
    expect(radio(/Option A3/).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "SEE RESULTS" }) as HTMLButtonElement).disabled).toBe(true);
    const previous = screen.getByRole("button", { name: "PREVIOUS" });
    expect(previous.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(previous);
    expect(location.history).toEqual(["/quiz?answers=AB"]);
  });
});

describe("the answer already chosen", () => {
  test("tapped again after PREVIOUS, it moves on as a new choice does", () => {
    show("/quiz?answers=BC");
    fireEvent.click(screen.getByRole("button", { name: "PREVIOUS" }));
    expect(screen.getByText("Question 2/3")).toBeTruthy();
    expect(radio(/Option C2/).checked).toBe(true);
    fireEvent.click(radio(/Option C2/));
    act(() => jest.advanceTimersByTime(AUTO_ADVANCE_MS));
    expect(screen.getByText("Question 3/3")).toBeTruthy();
    expect(location.history.at(-1)).toBe("/quiz?answers=BC");
  });
});

describe("leaving part-way and coming back in the same tab", () => {
  const bar = () => screen.queryByRole("region", { name: /questions earlier in this tab/ });

  test("the first question offers to continue after the answers given, or to start again", () => {
    show();
    expect(bar()).toBeNull();
    fireEvent.click(radio(/Option B1/));
    act(() => jest.advanceTimersByTime(AUTO_ADVANCE_MS));
    fireEvent.click(radio(/Option C2/));
    act(() => jest.advanceTimersByTime(AUTO_ADVANCE_MS));
    expect(screen.getByText("Question 3/3")).toBeTruthy();
    cleanup();

    // Elsewhere on the site, then the quiz's own link: its first question.
    show("/quiz");
    expect(bar()?.textContent).toContain("You answered 2 of 3 questions earlier in this tab.");
    const go = screen.getByRole("button", { name: "Continue (question 3 of 3)" });
    expect(go.getAttribute("href")).toBe("/quiz?answers=BC");
    fireEvent.click(go);
    expect(screen.getByText("Question 3/3")).toBeTruthy();
    expect(location.history.at(-1)).toBe("/quiz?answers=BC");
    cleanup();

    show("/quiz");
    fireEvent.click(screen.getByRole("button", { name: "Start again" }));
    expect(bar()).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Question text 1" }));
    cleanup();
    show("/quiz");
    expect(bar()).toBeNull();
  });

  test("choosing a first answer puts the offer away; a finished wizard offers nothing", () => {
    show("/quiz?answers=A");
    cleanup();
    show("/quiz");
    expect(bar()).toBeTruthy();
    fireEvent.click(radio(/Option D1/));
    expect(bar()).toBeNull();
    cleanup();

    const finished: Letter[][] = [];
    show("/quiz?answers=AB", (answers) => finished.push(answers));
    fireEvent.click(radio(/Option C3/));
    act(() => jest.advanceTimersByTime(AUTO_ADVANCE_LAST_MS));
    expect(finished).toEqual([["A", "B", "C"]]);
    cleanup();
    show("/quiz");
    expect(bar()).toBeNull();
  });
});

describe("wizard steps in the address", () => {
  test("each step pushes the address of the answers so far", () => {
    show();
    fireEvent.click(radio(/Option B1/));
    act(() => jest.advanceTimersByTime(AUTO_ADVANCE_MS));
    fireEvent.click(radio(/Option C2/));
    fireEvent.click(screen.getByRole("button", { name: "CONTINUE" }));
    expect(screen.getByText("Question 3/3")).toBeTruthy();
    expect(location.history).toEqual(["/quiz", "/quiz?answers=B", "/quiz?answers=BC"]);
  });

  test("a reload at a step's address shows that step; PREVIOUS shows the answer given there", () => {
    show("/quiz?answers=BC");
    expect(screen.getByText("Question 3/3")).toBeTruthy();
    expect(screen.getByRole("button", { name: "SEE RESULTS" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "PREVIOUS" }));
    expect(screen.getByText("Question 2/3")).toBeTruthy();
    expect(location.history.at(-1)).toBe("/quiz?answers=B");
    expect(radio(/Option C2/).checked).toBe(true);
  });

  test("Back (the shorter address) shows the previous question with its answer kept", () => {
    show();
    fireEvent.click(radio(/Option D1/));
    act(() => jest.advanceTimersByTime(AUTO_ADVANCE_MS));
    expect(screen.getByText("Question 2/3")).toBeTruthy();
    act(() => location.navigate("/quiz", { replace: true }));
    expect(screen.getByText("Question 1/3")).toBeTruthy();
    expect(radio(/Option D1/).checked).toBe(true);
  });

  test("focus moves to the new question's heading after an answer", () => {
    show();
    const option = radio(/Option A1/);
    option.focus();
    fireEvent.click(option);
    act(() => jest.advanceTimersByTime(AUTO_ADVANCE_MS));
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Question text 2" }));
  });

  test("without JavaScript each step is a form: GET to the next step, the last one POSTs all the answers", () => {
    const middle = document.createElement("div");
    middle.innerHTML = renderServerHtml("/quiz", <QuizAt onFinish={() => {}} />, { search: "answers=B" });
    const form = middle.querySelector("form")!;
    expect([form.getAttribute("method"), form.getAttribute("action")]).toEqual(["get", "/quiz"]);
    const values = [...form.querySelectorAll<HTMLInputElement>('input[type="radio"]')].map((r) => [r.name, r.value]);
    expect(values).toEqual(LETTERS.map((l) => ["answers", `B${l}`]));
    // CONTINUE submits the form until a script takes over; PREVIOUS is a link to the step before.
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    expect([submit.textContent, submit.disabled]).toEqual(["CONTINUE", false]);
    expect(form.querySelector('a[role="button"]')!.getAttribute("href")).toBe("/quiz");

    const last = document.createElement("div");
    last.innerHTML = renderServerHtml("/quiz", <QuizAt onFinish={() => {}} />, { search: "answers=BC" });
    expect(last.querySelector("form")!.getAttribute("method")).toBe("post");
    expect(last.querySelector<HTMLInputElement>('input[type="radio"]')!.value).toBe("BCA");
    expect(last.querySelector('a[role="button"]')!.getAttribute("href")).toBe("/quiz?answers=B");
  });
});

describe("starter-kit badge colours", () => {
  test.each([
    ["perfect", "secondary"],
    ["Perfect", "secondary"],
    ["PRO", "accent"],
    ["him", "accent"],
    ["PROMO", "primary"],
    ["ESSENTIAL", "primary"],
    ["TOP EARNER", "primary"],
  ] as const)("%s -> %s", (badge, tone) => expect(badgeTone(badge)).toBe(tone));
});
