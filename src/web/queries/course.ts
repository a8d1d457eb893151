import { useQuery } from "@tanstack/react-query";
import { API } from "../../shared/paths.ts";
import type { CourseModule } from "../../shared/contract/course.ts";

export interface ModuleSummary {
  id: number;
  title: string;
  description: string;
  isActive: boolean;
  topics: { id: number; title: string }[];
  checklist: string[];
}

export function useModules() {
  return useQuery<ModuleSummary[]>({ queryKey: [API.modules] });
}

export function useModule(id: number | null) {
  return useQuery<CourseModule | null>({ queryKey: [API.module(id ?? 0)], enabled: id !== null });
}
