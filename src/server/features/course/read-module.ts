import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { readMarkdown } from "#server/lib/markdown.ts";
import { CourseModule, Topic } from "#shared/features/course/contract.ts";

/** A lesson file's front matter: its title and its pro tip. */
const LessonFrontMatter = Type.Pick(Topic, ["title", "proTip"]);

/**
 * One module from its module.yaml and its lesson files, in order, as the course serves it:
 * each lesson's Markdown rendered to clean HTML. A file that does not match the schema
 * stops the server with the file's name and what is wrong.
 */
export function readCourseModule(id: number, module: unknown, lessons: readonly string[]): CourseModule {
  const dir = `content/course/module-${String(id).padStart(2, "0")}`;
  const topics = lessons.map((text, i) => {
    const { data, html } = readMarkdown(`${dir}/lesson-${i + 1}.md`, text, LessonFrontMatter);
    return { id: i + 1, ...data, content: html };
  });
  const candidate = { ...(module as object), topics };
  if (Value.Check(CourseModule, candidate)) return candidate;
  const problems = [...Value.Errors(CourseModule, candidate)].map((e) => `${e.path} ${e.message}`);
  throw new Error(`${dir}: ${problems.join("; ")}`);
}
