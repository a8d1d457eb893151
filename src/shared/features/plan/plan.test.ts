import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import planJson from "#content/plan.json" with { type: "json" };
import { courseModules } from "#server/features/course/content.ts";
import { TIERS } from "#shared/features/earnings/constants.ts";
import { ARCHETYPES } from "#shared/features/quiz/constants.ts";
import { PlanTable } from "./contract.ts";
import { PLAN_SIZE, planModules, planTable } from "./plan.ts";

describe("content/plan.json", () => {
  test("matches its schema: every archetype and tier, nothing else", () => {
    expect([...Value.Errors(PlanTable, planJson)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  test("names modules the course has, each once per list", () => {
    const ids = new Set(courseModules.map((m) => m.id));
    for (const picks of [...Object.values(planTable.archetypes), ...Object.values(planTable.tiers)]) {
      for (const pick of picks) expect(ids.has(pick.module)).toBe(true);
      expect(new Set(picks.map((p) => p.module)).size).toBe(picks.length);
    }
  });
});

describe("planModules", () => {
  test("every archetype and tier gives three different modules, in course order", () => {
    for (const archetype of ARCHETYPES)
      for (const { name } of TIERS) {
        const modules = planModules(archetype, name).map((p) => p.module);
        expect([archetype, name, modules.length, new Set(modules).size]).toEqual([
          archetype,
          name,
          PLAN_SIZE,
          PLAN_SIZE,
        ]);
        expect(modules).toEqual([...modules].sort((a, b) => a - b));
      }
  });

  test("the archetype picks two by fit, the tier adds one", () => {
    expect(planModules("Girl Next Door", "Power Earner").map((p) => p.module)).toEqual([3, 5, 8]);
    expect(planModules("Girl Next Door", "Casual Starter").map((p) => p.module)).toEqual([1, 3, 5]);
  });

  test("a tier whose first pick the archetype already made adds its next one", () => {
    // Cosplay Babe picks module 8, Power Earner's first choice.
    expect(planModules("Cosplay Babe", "Power Earner").map((p) => p.module)).toEqual([3, 6, 8]);
    expect(planModules("Couple", "Casual Starter").map((p) => p.module)).toEqual([1, 2, 4]);
  });

  test("what is unknown adds nothing", () => {
    expect(planModules("Fitness Queen", null).map((p) => p.module)).toEqual([4, 9]);
    expect(planModules(null, "Hustler Mode").map((p) => p.module)).toEqual([6]);
    expect(planModules(null, null)).toEqual([]);
  });

  test("each pick carries its one-line reason", () => {
    for (const pick of planModules("Dominatrix", "Hustler Mode")) expect(pick.reason.length).toBeGreaterThan(10);
  });
});
