import type { CoverFit } from "#shared/features/media/constants.ts";
import { defineRead } from "#shared/read.ts";
import type { BlogCategory, BlogPost, BlogPostSummary } from "./contract.ts";

const slug = { minLength: 1, maxLength: 120 };

/** Published posts, newest first. */
export const blogPostsRead = defineRead<(BlogPostSummary & CoverFit)[]>()("/api/blog/posts", {});
export const blogCategoriesRead = defineRead<BlogCategory[]>()("/api/blog/categories", {});
export const blogPostRead = defineRead<(BlogPost & CoverFit) | null>()("/api/blog/post/:slug", { slug });
export const blogRelatedRead = defineRead<(BlogPostSummary & CoverFit)[]>()("/api/blog/post/:slug/related", { slug });
