import { afterEach, describe, expect, test } from "bun:test";
import { loadProgress, useProgressStore } from "./store.ts";

afterEach(() => localStorage.clear());

const kept = () => JSON.parse(localStorage.getItem("progress") ?? "null");

describe("reading the progress this browser keeps", () => {
  test("the older keys are folded in once, then removed", () => {
    localStorage.setItem("completedModules", "[2,1]");
    localStorage.setItem("lastQuizId", "abc123");
    loadProgress();
    const { progress, loaded } = useProgressStore.getState();
    expect(loaded).toBe(true);
    expect(progress.completed).toEqual([1, 2]);
    expect(progress.quiz).toEqual({ id: "abc123", archetype: null });
    expect(localStorage.getItem("completedModules")).toBeNull();
    expect(localStorage.getItem("lastQuizId")).toBeNull();
    expect(kept().completed).toEqual([1, 2]);
  });

  test("a broken older key is dropped without hiding the progress kept beside it", () => {
    localStorage.setItem(
      "progress",
      JSON.stringify({ read: { 1: [1, 2, 3] }, completed: [1], last: { module: 1, lesson: 4 } }),
    );
    localStorage.setItem("completedModules", "{{bad");
    loadProgress();
    expect(useProgressStore.getState().progress.read).toEqual({ 1: [1, 2, 3] });
    expect(useProgressStore.getState().progress.completed).toEqual([1]);
    expect(localStorage.getItem("completedModules")).toBeNull();
    // The next page load reads the same, not an empty record.
    loadProgress();
    expect(useProgressStore.getState().progress.last).toEqual({ module: 1, lesson: 4 });
  });

  test("module numbers the older key held as text still count", () => {
    localStorage.setItem("completedModules", '["3", 4]');
    loadProgress();
    expect(useProgressStore.getState().progress.completed).toEqual([3, 4]);
  });

  test("a progress value that is not JSON is nothing remembered, and does not stop the page", () => {
    localStorage.setItem("progress", "{not json");
    loadProgress();
    expect(useProgressStore.getState().progress.completed).toEqual([]);
  });
});
