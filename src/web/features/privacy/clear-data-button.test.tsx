import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { setAdminFlag } from "#web/features/auth/admin-session.ts";
import { withModuleQuiz } from "#web/features/progress/progress.ts";
import { updateProgress, useProgressStore } from "#web/features/progress/store.ts";
import { ThemeToggle } from "#web/layout/theme-toggle.tsx";
import { BROWSER_KEEPS, ClearDataButton } from "./clear-data-button.tsx";

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  document.documentElement.removeAttribute("data-theme");
});

/** Stores everything the site's own code keeps, through that code, plus what another part might add. */
function fillStorage() {
  render(<ThemeToggle />);
  fireEvent.click(screen.getByRole("button", { name: /theme/ }));
  updateProgress((p) =>
    withModuleQuiz({ ...p, quiz: { id: "abc123", archetype: null } }, 3, { correct: 4, total: 5, answers: [] }),
  );
  localStorage.setItem("lastQuizId", "old123");
  setAdminFlag({ username: "admin" });
  localStorage.setItem("somethingNew", "1");
  sessionStorage.setItem("draft", "x");
  // biome-ignore lint/suspicious/noDocumentCookie: a cookie some other script left, as a browser sees it.
  document.cookie = "probe=1; path=/";
  cleanup();
}

describe("clear my data on this device", () => {
  test("says what will be removed, removes every key, then says what was removed", async () => {
    fillStorage();
    expect(localStorage.length).toBe(6);
    const reload = spyOn(window.location, "reload").mockImplementation(() => {});
    render(<ClearDataButton />);
    fireEvent.click(screen.getByRole("button", { name: "Clear my data on this device" }));

    const dialog = await screen.findByRole("dialog", { name: "Clear my data on this device?" });
    for (const label of [
      "Your colour theme (light or dark)",
      "Your results and course progress (quiz result, estimate, lessons read, module quizzes)",
      "The address of your last quiz result",
      "Other data saved by this site (“somethingNew”)",
      "Other data saved by this site (“draft”)",
      "A cookie (“probe”)",
    ])
      expect(within(dialog).getByText(label)).toBeTruthy();
    // Nothing is removed before the visitor confirms.
    expect(localStorage.length).toBe(6);

    fireEvent.click(within(dialog).getByRole("button", { name: "Clear my data" }));
    const done = await screen.findByRole("dialog", { name: "Your data is cleared" });
    expect(
      within(done).getByText("Your results and course progress (quiz result, estimate, lessons read, module quizzes)"),
    ).toBeTruthy();
    expect(within(done).getAllByRole("listitem")).toHaveLength(8);
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(document.cookie).not.toContain("probe");
    // The page's own copy is forgotten too, not only the stored one.
    expect(useProgressStore.getState().progress.completed).toEqual([]);

    // Done starts the page afresh, as for a new visitor.
    fireEvent.click(within(done).getByRole("button", { name: "Done" }));
    expect(reload).toHaveBeenCalled();
    reload.mockRestore();
  });

  test("Cancel keeps everything", async () => {
    fillStorage();
    render(<ClearDataButton />);
    fireEvent.click(screen.getByRole("button", { name: "Clear my data on this device" }));
    const dialog = await screen.findByRole("dialog", { name: "Clear my data on this device?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(localStorage.length).toBe(6);
    expect(JSON.parse(localStorage.getItem("progress") ?? "{}").completed).toEqual([3]);
  });

  test("with nothing stored, it says so", async () => {
    render(<ClearDataButton />);
    fireEvent.click(screen.getByRole("button", { name: "Clear my data on this device" }));
    await screen.findByText("This site has saved nothing in this browser's storage right now.");
    // It promises only what it does: the browser's history and cache are the browser's to clear.
    expect(screen.getByText(BROWSER_KEEPS)).toBeTruthy();
  });
});
