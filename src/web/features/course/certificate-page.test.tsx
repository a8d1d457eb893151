import { afterEach, describe, expect, mock, test } from "bun:test";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { content } from "#server/db/content.ts";
import { MODULE_IDS } from "#shared/features/course/constants.ts";
import { moduleSummaries } from "#tests/support/course-modules.ts";
import { renderAt, renderServerHtml } from "#tests/support/render.tsx";
import CertificatePage from "./certificate-page.tsx";

afterEach(() => {
  cleanup();
  localStorage.clear();
});

function renderWith(completed: number[], read: Record<number, number[]> = {}, quizzes: object = {}) {
  localStorage.setItem("progress", JSON.stringify({ completed, read, quizzes }));
  const result = renderAt("/learn/certificate", <CertificatePage />);
  result.queryClient.setQueryData(["/api/course/modules"], moduleSummaries());
  return result;
}

describe("/learn/certificate", () => {
  test("the server render shows no certificate, and says why without JavaScript", () => {
    localStorage.setItem("progress", JSON.stringify({ completed: MODULE_IDS }));
    const html = renderServerHtml("/learn/certificate", <CertificatePage />, {
      data: [[["/api/settings"], content.siteSettings]],
    });
    expect(html).toContain("Your course certificate");
    expect(html).toContain("so this page needs JavaScript");
    expect(html).not.toContain("Course completion record");
    expect(html).not.toContain("<input");
  });

  test("not complete: how many modules are left, and a link to go on", () => {
    renderWith([1, 2, 3], { 4: [1, 2] });
    expect(screen.getByText(/You have 7 modules left \(Module 4, 5, 6, 7, 8, 9, 10\)/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Continue the course" }).getAttribute("href")).toBe("/learn/4?topic=3");
    expect(screen.queryByLabelText("Your name")).toBeNull();
    expect(screen.queryByRole("article", { name: "Certificate" })).toBeNull();
  });

  test("one module left is said in the singular", () => {
    renderWith(MODULE_IDS.slice(0, 9));
    expect(screen.getByText(/You have 1 module left \(Module 10\)/)).toBeTruthy();
  });

  test("complete: the typed name is drawn on the certificate and kept nowhere; Print prints", () => {
    // happy-dom has no print dialog: the button's call is what is checked.
    const print = mock(() => {});
    window.print = print;
    renderWith([...MODULE_IDS].reverse());
    const before = JSON.stringify({ ...localStorage });
    const certificate = screen.getByRole("article", { name: "Certificate" });
    expect(certificate.textContent).toContain("completed all 10 modules of the");
    // It certifies nothing it did not see: no "certifies", and it says where its record comes from.
    expect(certificate.textContent).not.toMatch(/certif/i);
    expect(certificate.textContent).toContain("Self-reported: recorded on the learner's own device.");
    expect(certificate.textContent).toContain(`${content.siteSettings.brandName} Free Cam Model Course`);
    expect(certificate.textContent).toContain(String(new Date().getFullYear()));

    const name = screen.getByLabelText("Your name") as HTMLInputElement;
    fireEvent.change(name, { target: { value: "Alex Rivera" } });
    expect(certificate.textContent).toContain("Alex Rivera");
    // No form to send, no address, no storage: the name lives on this screen only.
    expect(name.closest("form")).toBeNull();
    expect(name.getAttribute("name")).toBeNull();
    expect(name.getAttribute("autocomplete")).toBe("off");
    expect(JSON.stringify({ ...localStorage })).toBe(before);
    expect(sessionStorage.length).toBe(0);
    expect(window.location.href).not.toContain("Alex");

    fireEvent.click(screen.getByRole("button", { name: "Print or save as PDF" }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  test("the record states each module's kept score, a low one too, and a module without one", async () => {
    const quizzes = Object.fromEntries(
      MODULE_IDS.map((id) => [id, { correct: id === 2 ? 1 : 5, total: 5, answers: Array(5).fill("A") }]),
    );
    delete quizzes[7];
    renderWith([...MODULE_IDS], {}, quizzes);
    await screen.findByText(/^Module 1: /);
    const lines = screen.getAllByRole("listitem").map((li) => li.textContent);
    const title = (id: number) => moduleSummaries().find((m) => m.id === id)!.title;
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe(`Module 1: ${title(1)} – quiz 100% (5 of 5)`);
    expect(lines[1]).toBe(`Module 2: ${title(2)} – quiz 20% (1 of 5)`);
    expect(lines[6]).toBe(`Module 7: ${title(7)} – no quiz score kept`);
  });
});
