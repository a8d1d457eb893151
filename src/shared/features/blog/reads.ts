import type { CoverFit } from "#shared/features/media/constants.ts";
import { defineRead } from "#shared/read.ts";
import type { BlogCategory, BlogPost, BlogPostSummary, BlogPostsPage, FoundPost } from "./contract.ts";

const slug = { minLength: 1, maxLength: 120 };

/**
 * One page of the published posts, newest first, or of a category's; or the posts a search
 * finds, best first. null (a 404) for a page after the last.
 */
export const blogPostsRead = defineRead<BlogPostsPage<FoundPost & CoverFit> | null>()(
  "/api/blog/posts",
  {},
  { query: ["page", "category", "q"] },
);
export const blogCategoriesRead = defineRead<BlogCategory[]>()("/api/blog/categories", {});
export const blogPostRead = defineRead<(BlogPost & CoverFit) | null>()("/api/blog/post/:slug", { slug });
export const blogRelatedRead = defineRead<(BlogPostSummary & CoverFit)[]>()("/api/blog/post/:slug/related", { slug });
/** Where an old address of a post or a category forwards to (a slug changed, a category deleted), or null. */
export const blogMovedRead = defineRead<{ to: string } | null>()("/api/blog/moved/:kind/:slug", {
  kind: { pattern: "^(post|category)$", error: "Kind is post or category" },
  slug,
});
