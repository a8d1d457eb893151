// The site pages (terms, privacy) from content/pages: front matter for slug, title and
// description, the body in Markdown. {{brand}} in the text becomes the brand name when the page
// is shown. Read, checked and rendered when the code is built (Bun's macro: see content.ts).
import { Type } from "@sinclair/typebox";
import privacyMd from "#content/pages/privacy.md" with { type: "text" };
import termsMd from "#content/pages/terms.md" with { type: "text" };
import { readMarkdown } from "#server/lib/markdown.ts";
import { SitePage } from "#shared/features/site-pages/contract.ts";

const PageFrontMatter = Type.Pick(SitePage, ["slug", "title", "description"]);

/** Each page with its body as clean HTML and as the Markdown the editor opens. */
export function parseSitePages(): (Pick<SitePage, "slug" | "title" | "description"> & {
  body: string;
  bodyMarkdown: string;
})[] {
  return Object.entries({ "terms.md": termsMd, "privacy.md": privacyMd }).map(([file, text]) => {
    const { data, html, markdown } = readMarkdown(`content/pages/${file}`, text, PageFrontMatter);
    return { ...data, body: html, bodyMarkdown: markdown };
  });
}
