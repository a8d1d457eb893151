import type { CoverFit } from "#shared/features/media/constants.ts";
import { defineRead } from "#shared/read.ts";
import type { BlogCategory, BlogPost, BlogPostSummary } from "./contract.ts";

const slug = { minLength: 1, maxLength: 120 };

/** Published posts, newest first. */
export const blogPostsRead = defineRead<(BlogPostSummary & CoverFit)[]>()("/api/blog/posts", {});
export const blogCategoriesRead = defineRead<BlogCategory[]>()("/api/blog/categories", {});
export const blogPostRead = defineRead<(BlogPost & CoverFit) | null>()("/api/blog/post/:slug", { slug });
export const blogRelatedRead = defineRead<(BlogPostSummary & CoverFit)[]>()("/api/blog/post/:slug/related", { slug });
/** Where an old address of a post or a category forwards to (a slug changed, a category deleted), or null. */
export const blogMovedRead = defineRead<{ to: string } | null>()("/api/blog/moved/:kind/:slug", {
  kind: { pattern: "^(post|category)$", error: "Kind is post or category" },
  slug,
});
