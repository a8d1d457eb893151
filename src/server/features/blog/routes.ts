import { serveRead } from "#server/lib/reads.ts";
import { blogCategoriesRead, blogPostRead, blogPostsRead, blogRelatedRead } from "#shared/features/blog/reads.ts";
import { getPublishedPost, listCategories, listPublishedPosts, relatedPosts } from "./service.ts";

export const blogReads = [
  serveRead(blogPostsRead, ({ db }) => listPublishedPosts(db)),
  serveRead(blogCategoriesRead, ({ db }) => listCategories(db)),
  serveRead(blogPostRead, ({ db }, { slug }) => getPublishedPost(db, slug)),
  serveRead(blogRelatedRead, ({ db }, { slug }) => relatedPosts(db, slug)),
];
