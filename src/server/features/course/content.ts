// The course as the executable carries it: one JSON file per module in content/course.
import m1 from "#content/course/module-01.json" with { type: "json" };
import m2 from "#content/course/module-02.json" with { type: "json" };
import m3 from "#content/course/module-03.json" with { type: "json" };
import m4 from "#content/course/module-04.json" with { type: "json" };
import m5 from "#content/course/module-05.json" with { type: "json" };
import m6 from "#content/course/module-06.json" with { type: "json" };
import m7 from "#content/course/module-07.json" with { type: "json" };
import m8 from "#content/course/module-08.json" with { type: "json" };
import m9 from "#content/course/module-09.json" with { type: "json" };
import m10 from "#content/course/module-10.json" with { type: "json" };
import type { CourseModule } from "#shared/features/course/contract.ts";

// tests/content.test.ts checks every file against the CourseModule schema.
export const courseModules = [m1, m2, m3, m4, m5, m6, m7, m8, m9, m10] as CourseModule[];
