import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { getModule, listModules } from "./service.ts";
import type { CourseModule } from "#shared/features/course/contract.ts";

describe("course API", () => {
  test("GET /api/course/modules lists ten modules with topic titles, no lesson text", async () => {
    const { request } = testApp();
    const modules = await (await request("/api/course/modules")).json();
    expect(modules.map((m: { id: number }) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(modules[0].topics).toHaveLength(5);
    expect(JSON.stringify(modules)).not.toContain("<p>");
  });

  test("GET /api/course/modules/:id has the lessons and the quiz", async () => {
    const { request } = testApp();
    const module = await (await request("/api/course/modules/4")).json();
    expect(module.title).toBe("Setting Up Your Space & Equipment");
    expect(module.topics).toHaveLength(5);
    expect(module.quiz.questions).toHaveLength(5);
  });

  test.each([
    ["0", 404],
    ["11", 404],
    ["abc", 422],
    ["-1", 422],
  ])("module %s: %i", async (id, status) => {
    const { request } = testApp();
    expect((await request(`/api/course/modules/${id}`)).status).toBe(status);
  });

  test("inactive modules are neither listed nor served", () => {
    const modules: CourseModule[] = [
      { id: 1, title: "Visible module", description: "x".repeat(60), isActive: true, topics: [] },
      { id: 2, title: "Hidden module", description: "x".repeat(60), isActive: false, topics: [] },
    ];
    expect(listModules(modules).map((m) => m.id)).toEqual([1]);
    expect(() => getModule(2, modules)).toThrow("No course module 2.");
  });
});
