// The course's files, read when the code is built (a macro: see content.ts): per module,
// content/course/module-NN/module.yaml (title, description, checklist, quiz) and lesson-1.md to
// lesson-5.md (front matter: title and pro tip; body: the lesson in Markdown).
// tests/content.test.ts checks that every file is listed here.

import m1l1 from "#content/course/module-01/lesson-1.md" with { type: "text" };
import m1l2 from "#content/course/module-01/lesson-2.md" with { type: "text" };
import m1l3 from "#content/course/module-01/lesson-3.md" with { type: "text" };
import m1l4 from "#content/course/module-01/lesson-4.md" with { type: "text" };
import m1l5 from "#content/course/module-01/lesson-5.md" with { type: "text" };
import m1 from "#content/course/module-01/module.yaml";
import m2l1 from "#content/course/module-02/lesson-1.md" with { type: "text" };
import m2l2 from "#content/course/module-02/lesson-2.md" with { type: "text" };
import m2l3 from "#content/course/module-02/lesson-3.md" with { type: "text" };
import m2l4 from "#content/course/module-02/lesson-4.md" with { type: "text" };
import m2l5 from "#content/course/module-02/lesson-5.md" with { type: "text" };
import m2 from "#content/course/module-02/module.yaml";
import m3l1 from "#content/course/module-03/lesson-1.md" with { type: "text" };
import m3l2 from "#content/course/module-03/lesson-2.md" with { type: "text" };
import m3l3 from "#content/course/module-03/lesson-3.md" with { type: "text" };
import m3l4 from "#content/course/module-03/lesson-4.md" with { type: "text" };
import m3l5 from "#content/course/module-03/lesson-5.md" with { type: "text" };
import m3 from "#content/course/module-03/module.yaml";
import m4l1 from "#content/course/module-04/lesson-1.md" with { type: "text" };
import m4l2 from "#content/course/module-04/lesson-2.md" with { type: "text" };
import m4l3 from "#content/course/module-04/lesson-3.md" with { type: "text" };
import m4l4 from "#content/course/module-04/lesson-4.md" with { type: "text" };
import m4l5 from "#content/course/module-04/lesson-5.md" with { type: "text" };
import m4 from "#content/course/module-04/module.yaml";
import m5l1 from "#content/course/module-05/lesson-1.md" with { type: "text" };
import m5l2 from "#content/course/module-05/lesson-2.md" with { type: "text" };
import m5l3 from "#content/course/module-05/lesson-3.md" with { type: "text" };
import m5l4 from "#content/course/module-05/lesson-4.md" with { type: "text" };
import m5l5 from "#content/course/module-05/lesson-5.md" with { type: "text" };
import m5 from "#content/course/module-05/module.yaml";
import m6l1 from "#content/course/module-06/lesson-1.md" with { type: "text" };
import m6l2 from "#content/course/module-06/lesson-2.md" with { type: "text" };
import m6l3 from "#content/course/module-06/lesson-3.md" with { type: "text" };
import m6l4 from "#content/course/module-06/lesson-4.md" with { type: "text" };
import m6l5 from "#content/course/module-06/lesson-5.md" with { type: "text" };
import m6 from "#content/course/module-06/module.yaml";
import m7l1 from "#content/course/module-07/lesson-1.md" with { type: "text" };
import m7l2 from "#content/course/module-07/lesson-2.md" with { type: "text" };
import m7l3 from "#content/course/module-07/lesson-3.md" with { type: "text" };
import m7l4 from "#content/course/module-07/lesson-4.md" with { type: "text" };
import m7l5 from "#content/course/module-07/lesson-5.md" with { type: "text" };
import m7 from "#content/course/module-07/module.yaml";
import m8l1 from "#content/course/module-08/lesson-1.md" with { type: "text" };
import m8l2 from "#content/course/module-08/lesson-2.md" with { type: "text" };
import m8l3 from "#content/course/module-08/lesson-3.md" with { type: "text" };
import m8l4 from "#content/course/module-08/lesson-4.md" with { type: "text" };
import m8l5 from "#content/course/module-08/lesson-5.md" with { type: "text" };
import m8 from "#content/course/module-08/module.yaml";
import m9l1 from "#content/course/module-09/lesson-1.md" with { type: "text" };
import m9l2 from "#content/course/module-09/lesson-2.md" with { type: "text" };
import m9l3 from "#content/course/module-09/lesson-3.md" with { type: "text" };
import m9l4 from "#content/course/module-09/lesson-4.md" with { type: "text" };
import m9l5 from "#content/course/module-09/lesson-5.md" with { type: "text" };
import m9 from "#content/course/module-09/module.yaml";
import m10l1 from "#content/course/module-10/lesson-1.md" with { type: "text" };
import m10l2 from "#content/course/module-10/lesson-2.md" with { type: "text" };
import m10l3 from "#content/course/module-10/lesson-3.md" with { type: "text" };
import m10l4 from "#content/course/module-10/lesson-4.md" with { type: "text" };
import m10l5 from "#content/course/module-10/lesson-5.md" with { type: "text" };
import m10 from "#content/course/module-10/module.yaml";
import type { CourseModule } from "#shared/features/course/contract.ts";
import { readCourseModule } from "./read-module.ts";

const files: [unknown, string[]][] = [
  [m1, [m1l1, m1l2, m1l3, m1l4, m1l5]],
  [m2, [m2l1, m2l2, m2l3, m2l4, m2l5]],
  [m3, [m3l1, m3l2, m3l3, m3l4, m3l5]],
  [m4, [m4l1, m4l2, m4l3, m4l4, m4l5]],
  [m5, [m5l1, m5l2, m5l3, m5l4, m5l5]],
  [m6, [m6l1, m6l2, m6l3, m6l4, m6l5]],
  [m7, [m7l1, m7l2, m7l3, m7l4, m7l5]],
  [m8, [m8l1, m8l2, m8l3, m8l4, m8l5]],
  [m9, [m9l1, m9l2, m9l3, m9l4, m9l5]],
  [m10, [m10l1, m10l2, m10l3, m10l4, m10l5]],
];

/** The ten modules, each checked against the CourseModule schema, its lessons rendered to clean HTML. */
export function parseCourse(): CourseModule[] {
  return files.map(([module, lessons], i) => readCourseModule(i + 1, module, lessons));
}
