import { describe, expect, test } from "bun:test";
import type { CourseModule } from "#shared/features/course/contract.ts";
import { runScenarios, type Scenario } from "#tests/support/scenario.ts";
import { getModule, listModules } from "./service.ts";

runScenarios("course API", [
  {
    name: "the list: ten modules with topic titles, no lesson text",
    path: "/api/course/modules",
    status: 200,
    notContains: ["<p>"],
    check: (res) => {
      const modules = res.json<{ id: number; topics: unknown[] }[]>();
      expect(modules.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(modules[0]!.topics).toHaveLength(5);
    },
  },
  {
    name: "one module has the lessons and the quiz",
    path: "/api/course/modules/4",
    status: 200,
    contains: { title: "Setting Up Your Space & Equipment" },
    check: (res) => {
      const module = res.json();
      expect(module.topics).toHaveLength(5);
      expect(module.quiz.questions).toHaveLength(5);
    },
  },
  ...(
    [
      ["0", 404],
      ["11", 404],
      ["abc", 422],
      ["-1", 422],
    ] as const
  ).map(([id, status]): Scenario => ({ name: `module ${id}`, path: `/api/course/modules/${id}`, status })),
]);

describe("course service", () => {
  test("inactive modules are neither listed nor served", () => {
    const modules: CourseModule[] = [
      { id: 1, title: "Visible module", description: "x".repeat(60), isActive: true, topics: [] },
      { id: 2, title: "Hidden module", description: "x".repeat(60), isActive: false, topics: [] },
    ];
    expect(listModules(modules).map((m) => m.id)).toEqual([1]);
    expect(() => getModule(2, modules)).toThrow("No course module 2.");
  });
});
