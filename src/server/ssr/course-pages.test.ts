// The course pages as the first HTML response holds them, read through the parsed page.
import { describe, expect, test } from "bun:test";
import { courseModules } from "#server/features/course/content.ts";
import { siteApp } from "#tests/support/app.ts";
import { createCategory } from "#tests/support/factories.ts";
import { renderPage } from "#tests/support/page.ts";

async function page(path: string) {
  const { request } = await siteApp();
  return renderPage(request, path);
}

describe("/learn", () => {
  test("the overview with every module, its topics and the start button", async () => {
    const p = await page("/learn");
    expect(p.status).toBe(200);
    const main = p.main();
    expect(main.getAllByRole("button", { name: /^Start the Course/ })[0]!.getAttribute("href")).toBe("/learn/1");
    for (const m of courseModules) {
      expect(p.text).toContain(m.title);
      expect(
        main.getByRole("button", { name: new RegExp(`^Start Course Now ?: module ${m.id}$`) }).getAttribute("href"),
      ).toBe(`/learn/${m.id}`);
    }
    expect(main.getAllByRole("heading", { name: "What you'll learn" })).toHaveLength(courseModules.length);
    const join = main.getByRole("button", { name: "Join Platform One (opens in a new tab)" });
    expect(join.getAttribute("rel")).toBe("sponsored noopener");
  });
});

describe("/learn/:id", () => {
  test("the first lesson's text and pro tip are in the first HTML", async () => {
    const p = await page("/learn/2");
    expect(p.status).toBe(200);
    const module = courseModules[1]!;
    const lesson = p.document.createElement("div");
    lesson.innerHTML = module.topics[0]!.content;
    expect(p.text).toContain((lesson.textContent ?? "").replace(/\s+/g, " ").trim());
    expect(p.main().getByRole("heading", { name: module.topics[0]!.title })).toBeTruthy();
    expect(p.main().getByRole("heading", { name: "Pro tip" })).toBeTruthy();
    expect(p.text).toContain("Topic 1 of 5");
    expect(p.title).toBe(`Module 2: ${module.title} | Cam Guide`);
    // The offer loads in the browser (random, per visit): the server sends its loading state,
    // which the style sheet hides when scripts do not run.
    expect(p.text).toContain("Loading offer…");
  });

  test("the module's introduction opens its first lesson only; a later lesson starts with its own title", async () => {
    const module = courseModules[1]!;
    const first = await page("/learn/2");
    expect(first.main().queryByText(module.description)).toBeTruthy();
    const third = await page("/learn/2?topic=3");
    expect(third.status).toBe(200);
    expect(third.main().queryByText(module.description)).toBeNull();
    expect(third.main().getByRole("heading", { level: 1, name: module.title })).toBeTruthy();
    expect(third.main().getByRole("heading", { level: 2, name: module.topics[2]!.title })).toBeTruthy();
  });

  test("?quiz=true opens the module quiz, on the server a form of every question sent to the module's address", async () => {
    const p = await page("/learn/3?quiz=true");
    const main = p.main();
    expect(main.getByRole("heading", { name: "Module 3 Quiz" })).toBeTruthy();
    const questions = courseModules[2]!.quiz!.questions;
    for (const [i, question] of questions.entries()) {
      const name = `Question ${i + 1} of ${questions.length}: ${question.question}`;
      expect(main.getByRole("heading", { name })).toBeTruthy();
    }
    expect(main.getAllByRole("radio")).toHaveLength(questions.length * 4);
    const form = p.document.querySelector("form.module-quiz-form")!;
    expect(form.getAttribute("method")).toBe("get");
    expect(form.getAttribute("action")).toBe("/learn/3");
    expect(main.getByRole("button", { name: "Complete Quiz" })).toBeTruthy();
  });

  test.each(["abc", "1x", "-2", "%20"])("a non-numeric id (%s) is a real redirect to /learn", async (id) => {
    const { request } = await siteApp();
    const res = await request(`/learn/${id}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/learn");
  });

  test.each(["0", "11", "999"])("an unknown module (%s): 404 and 'Module Not Found'", async (id) => {
    const p = await page(`/learn/${id}`);
    expect(p.status).toBe(404);
    expect(p.main().getByRole("heading", { level: 1, name: "Module Not Found" })).toBeTruthy();
    expect(p.main().getByText("The requested module doesn't exist. Please return to the course page.")).toBeTruthy();
  });
});

describe("completion pages", () => {
  test("module-complete: quiz button and skip; module 1 by default", async () => {
    const four = (await page("/learn/module-complete?moduleId=4")).main();
    expect(four.getByRole("button", { name: "Start Module 4 Quiz" }).getAttribute("href")).toBe("/learn/4?quiz=true");
    expect(four.getByRole("button", { name: "Skip to the next module" }).getAttribute("href")).toBe("/learn/5");
    const fallback = (await page("/learn/module-complete")).main();
    expect(fallback.getByRole("button", { name: "Start Module 1 Quiz" }).getAttribute("href")).toBe(
      "/learn/1?quiz=true",
    );
    const last = (await page("/learn/module-complete?moduleId=10")).main();
    expect(last.getByRole("button", { name: /Skip/ }).getAttribute("href")).toBe("/course-complete");
  });

  test("quiz-complete: Start Module Quiz and a skip to the next module or the graduation", async () => {
    const two = (await page("/learn/quiz-complete?moduleId=2")).main();
    expect(two.getByRole("button", { name: "Start Module Quiz" }).getAttribute("href")).toBe("/learn/2");
    expect(two.getByRole("button", { name: "Skip for now" }).getAttribute("href")).toBe("/learn/3");
    const ten = (await page("/learn/quiz-complete?moduleId=10")).main();
    expect(ten.getByRole("button", { name: "Skip for now" }).getAttribute("href")).toBe("/learn/complete");
  });

  test("the graduation page claims no graduation on the server: the modules to take, with links", async () => {
    const p = await page("/learn/complete");
    expect(p.status).toBe(200);
    const main = p.main();
    // Progress lives in the browser; the server cannot know it.
    expect(main.getByRole("heading", { level: 1, name: "Your course progress" })).toBeTruthy();
    expect(p.text).not.toContain("Congratulations");
    for (const m of courseModules)
      expect(main.getByRole("link", { name: `Module ${m.id}: ${m.title}` }).getAttribute("href")).toBe(
        `/learn/${m.id}`,
      );
    expect(main.getByRole("button", { name: "Back to Courses" }).getAttribute("href")).toBe("/learn");
  });

  test("/course-complete is a permanent redirect to the graduation page", async () => {
    const { request } = await siteApp();
    const res = await request("/course-complete");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/learn/complete");
  });

  test("/resources: platforms, guides by category and a checklist per module", async () => {
    const { request, db } = await siteApp();
    await createCategory(db, { name: "Getting Started", slug: "getting-started" });
    const p = await renderPage(request, "/resources");
    expect(p.status).toBe(200);
    const main = p.main();
    expect(main.getByRole("link", { name: "Getting Started" }).getAttribute("href")).toBe(
      "/blog?category=getting-started",
    );
    for (const m of courseModules) expect(p.text).toContain(m.checklist![0]!);
    expect(main.getByRole("button", { name: "Join Platform One (opens in a new tab)" }).getAttribute("href")).toMatch(
      /^\/go\/[a-z0-9-]+\?p=resources$/,
    );
  });
});
