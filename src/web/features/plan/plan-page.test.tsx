import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, screen, within } from "@testing-library/react";
import { content } from "#server/db/content.ts";
import { modulesRead } from "#shared/features/course/reads.ts";
import { ALL_ARCHETYPES } from "#shared/features/products/constants.ts";
import { productsRead } from "#shared/features/products/reads.ts";
import { moduleSummaries } from "#tests/support/course-modules.ts";
import { renderAt, renderServerHtml } from "#tests/support/render.tsx";
import { EMPTY_PROGRESS, type Progress, withLessonRead, withModuleQuiz } from "#web/features/progress/progress.ts";
import { updateProgress } from "#web/features/progress/store.ts";
import PlanPage from "./plan-page.tsx";

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const modules = moduleSummaries();

const quiz = { id: "quiz-result-1", archetype: "Couple" as const };
const earnings = { id: "tier-result-1", tier: "Power Earner" as const };

async function renderWith(progress: Partial<Progress>) {
  localStorage.setItem("progress", JSON.stringify({ ...EMPTY_PROGRESS, ...progress }));
  const result = renderAt("/plan", <PlanPage />);
  act(() => {
    result.queryClient.setQueryData([modulesRead.key()], modules);
    for (const archetype of [quiz.archetype, ALL_ARCHETYPES])
      result.queryClient.setQueryData(
        [productsRead.key({ archetype })],
        content.products.filter((p) => p.archetype === archetype),
      );
  });
  // The query cache tells the page about data a moment later: wait for the course's titles.
  await screen.findAllByText(/of module \d+/);
  return result;
}

function section(heading: string) {
  return within(screen.getByRole("heading", { name: heading }).closest("section") as HTMLElement);
}

const moduleLinks = () =>
  section("Modules to take first")
    .getAllByRole("link")
    .map((a) => [a.textContent, a.getAttribute("href")]);

describe("/plan", () => {
  test("the server render is the same for everyone: how the plan is made, the quiz and the course", () => {
    localStorage.setItem("progress", JSON.stringify({ ...EMPTY_PROGRESS, quiz, earnings }));
    const html = renderServerHtml("/plan", <PlanPage />, { data: [[[modulesRead.key()], modules]] });
    expect(html).toContain("How your plan is made");
    expect(html).toContain('href="/quiz"');
    expect(html).toContain('href="/learn"');
    expect(html).not.toContain("Couple");
    expect(html).not.toContain("Power Earner");
    expect(html).not.toContain("Modules to take first");
  });

  test("nothing known: invites to the quiz and the calculator, and starts the course", async () => {
    await renderWith({});
    const known = section("What your plan is built from");
    expect(known.getByRole("link", { name: "Take the 5-minute persona quiz" }).getAttribute("href")).toBe("/quiz");
    expect(known.getByRole("link", { name: "Try the earnings calculator" }).getAttribute("href")).toBe(
      "/quiz/earnings",
    );
    expect(screen.queryByRole("heading", { name: "Modules to take first" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "Your first starter-kit items" })).toBeNull();
    const next = section("Your next step in the course").getByRole("button");
    expect([next.textContent, next.getAttribute("href")]).toEqual([
      "Module 1, lesson 1: Lesson 1 of module 1",
      "/learn/1",
    ]);
  });

  test("a quiz but no tier: the archetype's two modules, its kit, and an invitation to the calculator", async () => {
    await renderWith({ quiz });
    expect(section("What your plan is built from").getByText("Couple")).toBeTruthy();
    expect(
      section("What your plan is built from")
        .getByRole("link", { name: "Try the earnings calculator" })
        .getAttribute("href"),
    ).toBe("/quiz/earnings?quizId=quiz-result-1");
    expect(moduleLinks()).toEqual([
      ["Module 2: Title of module 2", "/learn/2"],
      ["Module 4: Title of module 4", "/learn/4"],
    ]);
    const kit = section("Your first starter-kit items");
    expect(kit.getAllByRole("listitem")).toHaveLength(3);
    expect(kit.getByText("Wide-angle 4K webcam for two people in frame")).toBeTruthy();
    expect(kit.getByRole("link", { name: "See your full starter kit" }).getAttribute("href")).toBe(
      "/quiz/starter-kit?quizId=quiz-result-1",
    );
  });

  test("everything known: three modules with reasons, the done one marked, and the next lesson", async () => {
    await renderWith({
      quiz,
      earnings,
      completed: [2],
      read: { 2: [1, 2, 3, 4, 5], 4: [1] },
      last: { module: 4, lesson: 1 },
    });
    expect(screen.queryByRole("link", { name: "Take the 5-minute persona quiz" })).toBeNull();
    expect(screen.queryByRole("link", { name: "Try the earnings calculator" })).toBeNull();
    expect(moduleLinks()).toEqual([
      ["Module 2: Title of module 2", "/learn/2"],
      ["Module 4: Title of module 4", "/learn/4"],
      ["Module 8: Title of module 8", "/learn/8"],
    ]);
    const items = section("Modules to take first").getAllByRole("listitem");
    expect(items.map((li) => li.textContent?.includes("Done"))).toEqual([true, false, false]);
    for (const li of items) expect(li.querySelector("p")?.textContent?.length).toBeGreaterThan(10);
    expect(screen.getByText("You have finished 1 of 3.")).toBeTruthy();
    const next = section("Your next step in the course").getByRole("button");
    expect([next.textContent, next.getAttribute("href")]).toEqual([
      "Module 4, lesson 2: Lesson 2 of module 4",
      "/learn/4?topic=2",
    ]);
  });

  test("follows progress as it changes: a lesson read moves the next step, a quiz finished marks its module", async () => {
    await renderWith({ quiz, earnings, read: { 4: [1] }, last: { module: 4, lesson: 2 } });
    const next = () => section("Your next step in the course").getByRole("button");
    expect(next().getAttribute("href")).toBe("/learn/4?topic=2");
    act(() => {
      updateProgress((p) => withLessonRead(p, 4, 2));
    });
    expect(next().textContent).toBe("Module 4, lesson 3: Lesson 3 of module 4");
    act(() => {
      updateProgress((p) =>
        [2, 4, 8].reduce((acc, m) => withModuleQuiz(acc, m, { correct: 5, total: 5, answers: [] }), p),
      );
    });
    expect(screen.getByText(/You have finished all three/)).toBeTruthy();
    // Module 4 is done now: the course goes on from there.
    expect(section("Your next step in the course").getByRole("button").getAttribute("href")).toBe("/learn/5");
  });
});
