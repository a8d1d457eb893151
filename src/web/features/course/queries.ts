import { useQuery } from "@tanstack/react-query";
import { API } from "#shared/paths.ts";
import type { CourseModule, ModuleSummary } from "#shared/features/course/contract.ts";

export function useModules() {
  return useQuery<ModuleSummary[]>({ queryKey: [API.modules] });
}

export function useModule(id: number | null) {
  return useQuery<CourseModule | null>({ queryKey: [API.module(id ?? 0)], enabled: id !== null });
}
