import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { badgeTone } from "#shared/features/products/contract.ts";
import { AUTO_ADVANCE_LAST_MS, AUTO_ADVANCE_MS, Wizard } from "./wizard.tsx";

const questions = [1, 2, 3].map((id) => ({
  id,
  question: `Question text ${id}`,
  options: (["A", "B", "C", "D"] as const).map((value) => ({ value, label: `Option ${value}${id}`, emoji: "⭐" })),
}));

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  cleanup();
  jest.useRealTimers();
});

describe("wizard", () => {
  test("progress, disabled buttons, auto-advance after 500 ms", () => {
    render(<Wizard questions={questions} onFinish={() => {}} />);
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
    render(<Wizard questions={questions} onFinish={() => {}} />);
    const second = screen.getByRole("radio", { name: /Option B1/ });
    fireEvent.keyDown(second, { key: "ArrowDown" });
    fireEvent.click(second);
    act(() => jest.advanceTimersByTime(2000));
    expect(screen.getByText("Question 1/3")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "CONTINUE" }));
    expect(screen.getByText("Question 2/3")).toBeTruthy();
  });

  test("the options are a labelled radio group", () => {
    render(<Wizard questions={questions} onFinish={() => {}} />);
    const group = screen.getByRole("group", { name: "Question text 1" });
    expect(group.querySelectorAll('input[type="radio"]')).toHaveLength(4);
  });

  test("changing the answer restarts the delay; PREVIOUS cancels it and keeps the answer", () => {
    render(<Wizard questions={questions} onFinish={() => {}} />);
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
    render(<Wizard questions={questions} onFinish={(a) => void finished.push(a)} />);
    for (const letter of ["B", "C"]) {
      fireEvent.click(screen.getAllByRole("radio").find((r) => (r as HTMLInputElement).value === letter)!);
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
    const finished: unknown[] = [];
    render(<Wizard questions={questions.slice(0, 1)} onFinish={(a) => void finished.push(a)} busy />);
    expect((screen.getByRole("radio", { name: /Option A1/ }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "SEE RESULTS" }) as HTMLButtonElement).disabled).toBe(true);
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
