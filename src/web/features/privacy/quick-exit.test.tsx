import { afterEach, beforeEach, describe, expect, jest, spyOn, test } from "bun:test";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { DOUBLE_ESCAPE_MS, QUICK_EXIT_URL, QuickExit } from "./quick-exit.tsx";

let replace: ReturnType<typeof spyOn>;

beforeEach(() => {
  replace = spyOn(window.location, "replace").mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  replace.mockRestore();
  jest.useRealTimers();
  document.body.style.visibility = "";
});

function pressEscape(target: Element | Document = document.body) {
  fireEvent.keyDown(target, { key: "Escape" });
}

describe("quick exit", () => {
  test("is a plain link to the neutral page that replaces this history entry when clicked", () => {
    render(<QuickExit />);
    const link = screen.getByRole("link", { name: "Quick exit" });
    expect(link.getAttribute("href")).toBe(QUICK_EXIT_URL);
    expect(link.getAttribute("rel")).toBe("noreferrer");
    fireEvent.click(link);
    expect(replace).toHaveBeenCalledWith(QUICK_EXIT_URL);
  });

  test("Escape twice within a second leaves; once, or twice far apart, does not", () => {
    jest.useFakeTimers();
    render(<QuickExit />);
    pressEscape();
    expect(replace).not.toHaveBeenCalled();
    jest.advanceTimersByTime(DOUBLE_ESCAPE_MS + 200);
    pressEscape();
    expect(replace).not.toHaveBeenCalled();
    jest.advanceTimersByTime(300);
    pressEscape();
    expect(replace).toHaveBeenCalledWith(QUICK_EXIT_URL);
  });

  test("not while typing in a text field, nor while a dialog or menu is open for Escape to close", () => {
    render(
      <>
        <QuickExit />
        <input aria-label="Name" />
        <textarea aria-label="Note" />
        <details className="site-menu" data-escape-closes="">
          <summary>Menu</summary>
        </details>
      </>,
    );
    const input = screen.getByRole("textbox", { name: "Name" });
    pressEscape(input);
    pressEscape(input);
    const note = screen.getByRole("textbox", { name: "Note" });
    pressEscape(note);
    pressEscape(note);
    expect(replace).not.toHaveBeenCalled();

    const menu = document.querySelector("details")!;
    menu.open = true;
    pressEscape();
    pressEscape();
    expect(replace).not.toHaveBeenCalled();
    menu.open = false;
    pressEscape();
    pressEscape();
    expect(replace).toHaveBeenCalledTimes(1);
  });

  test("an open section that Escape does not close (the course contents' current module) takes nothing", () => {
    render(
      <>
        <QuickExit />
        <details open>
          <summary>Module 2</summary>
        </details>
      </>,
    );
    pressEscape();
    pressEscape();
    expect(replace).toHaveBeenCalledWith(QUICK_EXIT_URL);
  });
});
