import { defineRead } from "#shared/read.ts";
import type { CourseModule, ModuleSummary } from "./contract.ts";

export const modulesRead = defineRead<ModuleSummary[]>()("/api/course/modules", {});

export const moduleRead = defineRead<CourseModule | null>()("/api/course/modules/:id", {
  id: { pattern: "^\\d{1,4}$", error: "Module id must be a whole number." },
});
