import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { TOAST_DURATION, TOAST_REMOVE_DELAY, toast, useToastStore } from "#web/stores/toast.ts";
import { Toaster } from "./toaster.tsx";

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
  jest.useRealTimers();
});

describe("toasts", () => {
  test("shows one at a time: a new toast replaces the old", () => {
    render(<Toaster />);
    act(() => void toast({ title: "First" }));
    act(
      () =>
        void toast({
          title: "Error",
          description: "Failed to save quiz result. Please try again.",
          variant: "destructive",
        }),
    );
    const items = screen.getAllByTestId("toast");
    expect(items).toHaveLength(1);
    expect(items[0]!.textContent).toContain("Failed to save quiz result. Please try again.");
    expect(items[0]!.querySelector('[role="alert"]')).not.toBeNull();
  });

  test("closes itself after 5000 ms and leaves the store after the remove delay", () => {
    render(<Toaster />);
    act(() => void toast({ title: "Saved" }));
    act(() => jest.advanceTimersByTime(TOAST_DURATION - 10));
    expect(screen.queryAllByTestId("toast")).toHaveLength(1);
    act(() => jest.advanceTimersByTime(20));
    expect(screen.queryAllByTestId("toast")).toHaveLength(0);
    expect(useToastStore.getState().toasts).toHaveLength(1);
    act(() => jest.advanceTimersByTime(TOAST_REMOVE_DELAY));
    expect(useToastStore.getState().toasts).toHaveLength(0);
  });

  test("can be updated and dismissed with its button", () => {
    render(<Toaster />);
    let id = "";
    act(() => {
      id = toast({ title: "Uploading" });
    });
    act(() => useToastStore.getState().update(id, { title: "Upload successful" }));
    expect(screen.getByTestId("toast").textContent).toContain("Upload successful");
    fireEvent.click(screen.getByRole("button", { name: "Dismiss notification" }));
    expect(screen.queryAllByTestId("toast")).toHaveLength(0);
  });

  test("a swipe right of more than 50 px dismisses; a shorter one does not", () => {
    render(<Toaster />);
    act(() => void toast({ title: "Swipe me" }));
    const item = screen.getByTestId("toast");
    fireEvent.pointerDown(item, { clientX: 100 });
    fireEvent.pointerUp(item, { clientX: 140 });
    expect(screen.queryAllByTestId("toast")).toHaveLength(1);
    fireEvent.pointerDown(item, { clientX: 100 });
    fireEvent.pointerMove(item, { clientX: 130 });
    fireEvent.pointerUp(item, { clientX: 160 });
    expect(screen.queryAllByTestId("toast")).toHaveLength(0);
  });

  test("F8 focuses the notification region", () => {
    render(<Toaster />);
    fireEvent.keyDown(window, { key: "F8" });
    expect(document.activeElement).toBe(screen.getByRole("region", { name: "Notifications (F8)" }));
  });
});
