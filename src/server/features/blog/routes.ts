import { serveRead } from "#server/lib/reads.ts";
import { blogCategoriesRead, blogPostRead, blogPostsRead, blogRelatedRead } from "#shared/features/blog/reads.ts";
import { getPublishedPost, listCategories, listPublishedPosts, relatedPosts } from "./service.ts";

export const blogReads = [
  serveRead(blogPostsRead, ({ db, now }) => listPublishedPosts(db, now())),
  serveRead(blogCategoriesRead, ({ db }) => listCategories(db)),
  serveRead(blogPostRead, ({ db, now }, { slug }) => getPublishedPost(db, slug, now())),
  serveRead(blogRelatedRead, ({ db, now }, { slug }) => relatedPosts(db, slug, now())),
];
