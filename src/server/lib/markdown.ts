import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { sanitizePostHtml } from "./sanitize.ts";

// Long-form content (lessons, posts, site pages) is written as Markdown with YAML front
// matter, so a change reads as a diff of prose (docs/decisions/027-content-in-markdown.md).
// Bun renders the Markdown and the blog's sanitiser cleans the result.

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

/** The front matter of a Markdown file, checked against a schema, and its body as clean HTML. */
export function readMarkdown<T extends TSchema>(
  file: string,
  text: string,
  schema: T,
): { data: import("@sinclair/typebox").Static<T>; html: string } {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new Error(`${file}: starts without front matter (a block between two --- lines)`);
  const data: unknown = Bun.YAML.parse(match[1] ?? "");
  const problems = [...Value.Errors(schema, data)].map((e) => `${e.path || "/"} ${e.message}`);
  if (problems.length > 0) throw new Error(`${file}: front matter ${problems.join("; ")}`);
  return { data, html: renderMarkdown(text.slice(match[0].length)) };
}

/** Markdown as the clean HTML the site stores and shows. */
export function renderMarkdown(markdown: string): string {
  return sanitizePostHtml(Bun.markdown.html(markdown)).trim();
}
