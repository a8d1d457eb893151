import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { content } from "#server/db/content.ts";
import { renderAt, renderServerHtml } from "#tests/support/render.tsx";
import { normalise, type Progress } from "./progress.ts";
import { decodeResumeCode, encodeResumeCode } from "./resume-code.ts";
import ResumePage from "./resume-page.tsx";

afterEach(() => {
  cleanup();
  localStorage.clear();
  window.history.replaceState(null, "", "/");
});

const HERE: Progress = normalise({
  quiz: { id: "AbCdEfGhIjKlMnOpQrStUw", archetype: "Cosplay Babe" },
  read: { 1: [1, 2] },
  last: { module: 1, lesson: 3 },
});

const THERE: Progress = normalise({
  quiz: { id: "zYxWvUtSrQpOnMlKjIhGfQ", archetype: "Fitness Queen" },
  earnings: { id: "eEeEeEeEeEeEeEeEeEeEeA", tier: "Hustler Mode" },
  read: { 1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5], 3: [1] },
  completed: [1, 2],
  quizzes: {
    1: { correct: 5, total: 5, answers: ["A", "B", "C", "D", "A"] },
    2: { correct: 3, total: 5, answers: [] },
  },
  last: { module: 3, lesson: 2 },
});

function stored(): Progress {
  return normalise(JSON.parse(localStorage.getItem("progress") ?? "null"));
}

function renderWith(progress: Progress | null) {
  if (progress) localStorage.setItem("progress", JSON.stringify(progress));
  return renderAt("/resume", <ResumePage />);
}

function paste(text: string) {
  fireEvent.change(screen.getByLabelText("Paste a resume code or link"), { target: { value: text } });
  fireEvent.click(screen.getByRole("button", { name: "Check this code" }));
}

/** The preview's rows: what, from the code, on this device now. */
function previewRows() {
  const table = screen.getByRole("table");
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent));
}

describe("/resume", () => {
  test("the server render holds no code and says the page needs JavaScript", () => {
    localStorage.setItem("progress", JSON.stringify(THERE));
    const html = renderServerHtml("/resume", <ResumePage />, { data: [[["/api/settings"], content.siteSettings]] });
    expect(html).toContain("Continue on another device");
    expect(html).toContain("This needs JavaScript, because your progress lives in your browser");
    expect(html).not.toContain("CG1.");
    expect(html).not.toContain("<textarea");
  });

  test("shows this device's code and link, which carry its progress, with a warning", () => {
    renderWith(HERE);
    const code = screen.getByLabelText("Code") as HTMLTextAreaElement;
    expect(code.readOnly).toBe(true);
    expect(code.value).toBe(encodeResumeCode(HERE));
    expect(decodeResumeCode(code.value)).toEqual({ ok: true, progress: HERE });
    const link = screen.getByLabelText("Link") as HTMLTextAreaElement;
    expect(link.value).toBe(`${window.location.origin}/resume#${code.value}`);
    expect(screen.getByText(/Anyone with this code or link can see your results and progress/)).toBeTruthy();
  });

  test("nothing remembered: no code, but a code from elsewhere can be used", () => {
    renderWith(null);
    expect(screen.getByText(/This device has nothing to carry yet/)).toBeTruthy();
    expect(screen.queryByLabelText("Code")).toBeNull();
    expect(screen.getByLabelText("Paste a resume code or link")).toBeTruthy();
  });

  test("a mistyped or foreign code is refused with a clear message, and nothing changes", () => {
    renderWith(HERE);
    const code = encodeResumeCode(THERE);
    paste(`${code.slice(0, 12)}${code[12] === "A" ? "B" : "A"}${code.slice(13)}`);
    expect(screen.getByRole("alert").textContent).toContain("a character is wrong or missing");
    expect(screen.getByLabelText("Paste a resume code or link").getAttribute("aria-invalid")).toBe("true");
    paste("hello there");
    expect(screen.getByRole("alert").textContent).toContain("This is not a resume code from this site");
    paste(`CG2.${code.slice(4)}`);
    expect(screen.getByRole("alert").textContent).toContain("newer version");
    expect(screen.queryByRole("table")).toBeNull();
    expect(stored()).toEqual(HERE);
  });

  test("a good code: a preview beside this device's progress, replaced only on confirm", () => {
    renderWith(HERE);
    paste(`  ${encodeResumeCode(THERE)}\n`);
    expect(screen.getByRole("heading", { name: "What this code will restore" })).toBeTruthy();
    expect(previewRows()).toEqual([
      ["Persona quiz result", "Fitness Queen", "Cosplay Babe"],
      ["Earnings estimate", "Hustler Mode", "None"],
      ["Lessons read", "11 of 50", "2 of 50"],
      ["Modules completed", "2 of 10 (1, 2)", "None"],
      ["Quiz scores", "Module 1: 5/5, Module 2: 3/5", "None"],
      ["Last lesson", "Module 3, lesson 2", "Module 1, lesson 3"],
    ]);
    // Nothing is replaced by looking.
    expect(stored()).toEqual(HERE);

    fireEvent.click(screen.getByRole("button", { name: "Replace my progress on this device" }));
    expect(screen.getByText("Done: this device now has the progress from your code.")).toBeTruthy();
    expect(stored()).toEqual(THERE);
    // This device's own code now carries what it holds.
    expect((screen.getByLabelText("Code") as HTMLTextAreaElement).value).toBe(encodeResumeCode(THERE));
    // The next step of the restored progress: module 3, its lesson 2 opened last and unread.
    expect(screen.getByRole("button", { name: "Continue the course" }).getAttribute("href")).toBe("/learn/3?topic=2");
  });

  test("cancel leaves this device as it was", () => {
    renderWith(HERE);
    paste(encodeResumeCode(THERE));
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("table")).toBeNull();
    expect(stored()).toEqual(HERE);
  });

  test("arriving by the link: the code is read from the fragment, then taken out of the address", () => {
    const code = encodeResumeCode(THERE);
    window.history.replaceState(null, "", `/resume#${code}`);
    renderWith(null);
    expect(screen.getByRole("heading", { name: "What this code will restore" })).toBeTruthy();
    expect(window.location.hash).toBe("");
    expect(window.location.pathname).toBe("/resume");
    expect(localStorage.getItem("progress")).toBeNull();
  });

  test("a link whose code came with escaped spaces and line breaks reads the same", () => {
    const code = encodeResumeCode(THERE);
    window.history.replaceState(null, "", `/resume#%20%20${code.slice(0, 10)}%0A${code.slice(10)}%20`);
    renderWith(null);
    expect(screen.getByRole("heading", { name: "What this code will restore" })).toBeTruthy();
  });
});
