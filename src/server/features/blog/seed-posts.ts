// The seed's blog posts, read from content/blog/posts, checked and rendered when the code is
// built or first loaded (Bun's macro runs seed-post-files.ts then), so a start parses no Markdown.
import type { SeedPost } from "#shared/features/blog/contract.ts";
import { parseSeedPosts } from "./seed-post-files.ts" with { type: "macro" };

/** Each post's content as clean HTML, and its Markdown source, which the editor opens. */
export const seedPosts: (SeedPost & { contentMarkdown: string })[] = parseSeedPosts();
