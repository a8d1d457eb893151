import { MODULE_IDS, TOPICS_PER_MODULE } from "#shared/features/course/constants.ts";
import type { ModuleSummary } from "#shared/features/course/contract.ts";

/** The course overview's modules as the browser receives them, with titles the tests can name. */
export function moduleSummaries(): ModuleSummary[] {
  return MODULE_IDS.map((id) => ({
    id,
    title: `Title of module ${id}`,
    description: "A module used by the component tests.",
    isActive: true,
    topics: Array.from({ length: TOPICS_PER_MODULE }, (_, i) => ({
      id: i + 1,
      title: `Lesson ${i + 1} of module ${id}`,
    })),
    checklist: [],
  }));
}
