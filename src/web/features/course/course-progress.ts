import { withCompleted } from "#shared/features/course/course.ts";

// Course progress kept in the browser (docs/product.md#course-progress): completedModules, a list of module ids.
export const KEY = "completedModules";

export function readCompletedModules(): number[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((n): n is number => Number.isInteger(n)) : [];
  } catch {
    return [];
  }
}

export function markModuleCompleted(moduleId: number): number[] {
  const next = withCompleted(readCompletedModules(), moduleId);
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage blocked: progress lasts for this visit only.
  }
  return next;
}
