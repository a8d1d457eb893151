import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { HttpError } from "#server/plugins/errors.ts";
import { toVideoSource, VIDEO_PLAYER_ORIGINS } from "#shared/features/offers/video-url.ts";
import { decodeAttribute, escapeAttribute } from "#shared/html-attributes.ts";
import { sanitizePostHtml } from "./sanitize.ts";

// Long-form content (lessons, posts, site pages) is written as Markdown with YAML front
// matter, so a change reads as a diff of prose (docs/decisions/027-content-in-markdown.md).
// Bun renders the Markdown and the blog's sanitiser cleans the result. What the admin writes
// in the editor goes through the very same function, for the saved page and for its preview
// (docs/decisions/043-writing-editor.md).

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

/** The front matter of a Markdown file, checked against a schema, and its body (Markdown and clean HTML). */
export function readMarkdown<T extends TSchema>(
  file: string,
  text: string,
  schema: T,
): { data: import("@sinclair/typebox").Static<T>; html: string; markdown: string } {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new Error(`${file}: starts without front matter (a block between two --- lines)`);
  const data: unknown = Bun.YAML.parse(match[1] ?? "");
  const problems = [...Value.Errors(schema, data)].map((e) => `${e.path || "/"} ${e.message}`);
  if (problems.length > 0) throw new Error(`${file}: front matter ${problems.join("; ")}`);
  const markdown = text.slice(match[0].length).trim();
  return { data, html: renderMarkdown(markdown), markdown };
}

/** The player of a YouTube or Vimeo address (YouTube's privacy-enhanced one), or null. */
function playerFrame(href: string): string | null {
  const video = toVideoSource(decodeAttribute(href));
  if (video?.kind === "youtube") {
    const src = `${VIDEO_PLAYER_ORIGINS[0]}/embed/${video.id}?rel=0`;
    return `<iframe src="${escapeAttribute(src)}" title="YouTube video" width="560" height="315" allow="encrypted-media; picture-in-picture; fullscreen" allowfullscreen></iframe>`;
  }
  if (video?.kind === "vimeo") {
    const src = `${VIDEO_PLAYER_ORIGINS[1]}/video/${video.id}`;
    return `<iframe src="${escapeAttribute(src)}" title="Vimeo video" width="560" height="315" allow="picture-in-picture; fullscreen" allowfullscreen></iframe>`;
  }
  return null;
}

// A paragraph holding nothing but one link (a bare address or [text](address)).
const LONE_LINK = /<p>\s*<a href="([^"]*)"(?:\s+title="[^"]*")?>[^<]*<\/a>\s*<\/p>/g;

/**
 * Markdown as HTML before cleaning (a paragraph holding only a YouTube or Vimeo link becomes
 * its player): what checks of the author's intent (images from other websites) read, since
 * the sanitiser silently drops some of what they look for.
 */
/** Quotes inside quotes deeper than this are no writing anyone does; each level costs markup. */
const MAX_QUOTE_DEPTH = 20;
const DEEP_QUOTE = new RegExp(`^(?:[ \\t]*>){${MAX_QUOTE_DEPTH + 1}}`, "m");
/** Far more than any real text renders to (a 200,000-character post is about 250 KB of HTML). */
const MAX_HTML_BYTES = 1024 * 1024;

export function markdownToHtml(markdown: string): string {
  // Cleaning megabytes of markup takes seconds on the server's one thread: refused instead.
  if (DEEP_QUOTE.test(markdown))
    throw new HttpError(422, `Quotes can be nested at most ${MAX_QUOTE_DEPTH} deep (lines starting with > > >...).`);
  const html = Bun.markdown.html(markdown, { autolinks: true });
  if (html.length > MAX_HTML_BYTES)
    throw new HttpError(422, "This text makes too much markup to show; shorten it or split it into several posts.");
  return html.replace(LONE_LINK, (paragraph, href: string) => playerFrame(href) ?? paragraph);
}

/** Markdown as the clean HTML the site stores and shows. */
export function renderMarkdown(markdown: string): string {
  return sanitizePostHtml(markdownToHtml(markdown)).trim();
}
