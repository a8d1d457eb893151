// The course pages as the first HTML response holds them (SPEC 2, DECISIONS P6, P7, P10).
import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { courseModules } from "#server/features/course/content.ts";

const text = (html: string) => html.replaceAll("<!-- -->", "");

describe("/learn", () => {
  test("the overview with every module, its topics and the start button", async () => {
    const { request } = testApp();
    const res = await request("/learn");
    expect(res.status).toBe(200);
    const body = text(await res.text());
    expect(body).toContain('href="/learn/1"');
    for (const m of courseModules) {
      expect(body).toContain(m.title.replace(/&/g, "&amp;"));
      expect(body).toContain(`href="/learn/${m.id}"`);
    }
    expect(body).toContain("What you&#x27;ll learn");
    expect(body).toContain("Start Course Now");
    expect(body).toContain('rel="sponsored noopener"');
  });
});

describe("/learn/:id", () => {
  test("the first lesson's text and pro tip are in the first HTML", async () => {
    const { request } = testApp();
    const res = await request("/learn/2");
    expect(res.status).toBe(200);
    const body = text(await res.text());
    const module = courseModules[1]!;
    expect(body).toContain(module.topics[0]!.content);
    expect(body).toContain("Topic 1 of 5");
    expect(body).toContain(`<title>Module 2: ${module.title.replace(/&/g, "&amp;")} | Cam Guide</title>`);
    // The offer loads in the browser (random, per visit): the server sends its loading state.
    expect(body).toContain("Loading offer…");
  });

  test("?quiz=true opens the module quiz", async () => {
    const { request } = testApp();
    const body = text(await (await request("/learn/3?quiz=true")).text());
    expect(body).toContain("Module 3 Quiz");
    expect(body).toContain("Question 1 of 5");
    expect(body).toContain("Submit Answer");
    expect(body).toContain(courseModules[2]!.quiz!.questions[0]!.question.replace(/'/g, "&#x27;"));
  });

  test.each(["abc", "1x", "-2", "%20"])("a non-numeric id (%s) is a real redirect to /learn", async (id) => {
    const { request } = testApp();
    const res = await request(`/learn/${id}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/learn");
  });

  test.each(["0", "11", "999"])("an unknown module (%s): 404 and 'Module Not Found'", async (id) => {
    const { request } = testApp();
    const res = await request(`/learn/${id}`);
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).toContain("Module Not Found");
    expect(body).toContain("The requested module doesn&#x27;t exist. Please return to the course page.");
  });
});

describe("completion pages", () => {
  test("module-complete: quiz button and skip; module 1 by default", async () => {
    const { request } = testApp();
    const four = text(await (await request("/learn/module-complete?moduleId=4")).text());
    expect(four).toContain('href="/learn/4?quiz=true"');
    expect(four).toContain("Start Module 4 Quiz");
    expect(four).toContain('href="/learn/5"');
    const fallback = text(await (await request("/learn/module-complete")).text());
    expect(fallback).toContain("Start Module 1 Quiz");
    const last = text(await (await request("/learn/module-complete?moduleId=10")).text());
    expect(last).toContain('href="/course-complete"');
  });

  test("quiz-complete: Start Module Quiz and a skip to the next module or the graduation", async () => {
    const { request } = testApp();
    const two = text(await (await request("/learn/quiz-complete?moduleId=2")).text());
    expect(two).toContain('href="/learn/2"');
    expect(two).toContain("Start Module Quiz");
    expect(two).toContain('href="/learn/3"');
    const ten = text(await (await request("/learn/quiz-complete?moduleId=10")).text());
    expect(ten).toContain('href="/learn/complete"');
  });

  test("the graduation page with its gifts and buttons (DECISIONS P9)", async () => {
    const { request } = testApp();
    const res = await request("/learn/complete");
    expect(res.status).toBe(200);
    const body = text(await res.text());
    expect(body).toContain("<h1>Congratulations</h1>");
    for (const needle of ["Starter Kit Discount", "20%", "Resource Library", "Community Access", "Back to Courses", "Start Your Career"]) expect(body).toContain(needle);
    expect(body).toContain('href="/resources"');
    expect(body).toContain('href="/blog"');
    // Without a quiz in this browser, the starter-kit gift leads to the quiz.
    expect(body).toContain('href="/quiz"');
  });

  test("/course-complete is a permanent redirect to the graduation page", async () => {
    const { request } = testApp();
    const res = await request("/course-complete");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/learn/complete");
  });

  test("/resources: platforms, guides by category and a checklist per module", async () => {
    const { request } = testApp();
    const res = await request("/resources");
    expect(res.status).toBe(200);
    const body = text(await res.text());
    expect(body).toContain('href="/blog?category=getting-started"');
    for (const m of courseModules) expect(body).toContain(m.checklist![0]!.replace(/'/g, "&#x27;").replace(/&(?!#)/g, "&amp;"));
    expect(body).toContain('href="https://example.com/platform-one"');
  });
});
