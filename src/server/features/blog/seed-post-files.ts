// The seed's blog posts, one Markdown file each in content/blog/posts: front matter for the
// post's fields, the body for its content (tests/content.test.ts checks that every file is
// listed). Read when the code is built, by Bun's macro: see seed-posts.ts.
import { Type } from "@sinclair/typebox";
import p0 from "#content/blog/posts/banking-and-getting-paid.md" with { type: "text" };
import p1 from "#content/blog/posts/choosing-a-stage-name.md" with { type: "text" };
import p2 from "#content/blog/posts/how-to-start-camming-safely.md" with { type: "text" };
import p3 from "#content/blog/posts/keeping-chat-lively-on-slow-nights.md" with { type: "text" };
import p4 from "#content/blog/posts/lighting-on-a-budget.md" with { type: "text" };
import p5 from "#content/blog/posts/platform-reviews.md" with { type: "text" };
import p6 from "#content/blog/posts/questions-to-ask-before-signing-up.md" with { type: "text" };
import p7 from "#content/blog/posts/studio-or-independent.md" with { type: "text" };
import p8 from "#content/blog/posts/taxes-for-cam-models.md" with { type: "text" };
import p9 from "#content/blog/posts/token-arithmetic-in-cents.md" with { type: "text" };
import p10 from "#content/blog/posts/your-first-week-on-camera.md" with { type: "text" };
import { readMarkdown } from "#server/lib/markdown.ts";
import { SeedPost } from "#shared/features/blog/contract.ts";

const PostFrontMatter = Type.Omit(SeedPost, ["content"]);

const files: Record<string, string> = {
  "banking-and-getting-paid": p0,
  "choosing-a-stage-name": p1,
  "how-to-start-camming-safely": p2,
  "keeping-chat-lively-on-slow-nights": p3,
  "lighting-on-a-budget": p4,
  "platform-reviews": p5,
  "questions-to-ask-before-signing-up": p6,
  "studio-or-independent": p7,
  "taxes-for-cam-models": p8,
  "token-arithmetic-in-cents": p9,
  "your-first-week-on-camera": p10,
};

/** Each post's content as clean HTML, and its Markdown source, which the editor opens. */
export function parseSeedPosts(): (SeedPost & { contentMarkdown: string })[] {
  return Object.entries(files).map(([slug, text]) => {
    const file = `content/blog/posts/${slug}.md`;
    const { data, html, markdown } = readMarkdown(file, text, PostFrontMatter);
    if (data.slug !== slug) throw new Error(`${file}: its slug is ${data.slug}; name the file after the slug`);
    return { ...data, content: html, contentMarkdown: markdown };
  });
}
