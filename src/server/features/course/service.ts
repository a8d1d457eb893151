import { HttpError } from "#server/plugins/errors.ts";
import type { CourseModule, ModuleSummary } from "#shared/features/course/contract.ts";
import { courseModules } from "./content.ts";

/** The overview: every active module with its topic titles ('What you'll learn'). */
export function listModules(modules: CourseModule[] = courseModules): ModuleSummary[] {
  return modules
    .filter((m) => m.isActive)
    .map(({ id, title, description, isActive, topics, checklist }) => ({
      id,
      title,
      description,
      isActive,
      topics: topics.map((t) => ({ id: t.id, title: t.title })),
      checklist: checklist ?? [],
    }));
}

export function getModule(id: number, modules: CourseModule[] = courseModules): CourseModule {
  const module = modules.find((m) => m.id === id && m.isActive);
  if (!module) throw new HttpError(404, `No course module ${id}.`);
  return module;
}
