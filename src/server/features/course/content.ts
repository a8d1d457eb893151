// The course as the executable carries it: its files (course-files.ts) are read, checked and
// rendered when the code is built or first loaded, by Bun's macro, so a start parses no Markdown
// and a module that does not match the schema fails the build with the file's name.
import type { CourseModule } from "#shared/features/course/contract.ts";
import { parseCourse } from "./course-files.ts" with { type: "macro" };

/** The ten modules, each lesson's Markdown rendered to clean HTML. */
export const courseModules: CourseModule[] = parseCourse();
