import { withCoverFits, withPostFits } from "#server/features/media/fits.ts";
import { serveRead } from "#server/lib/reads.ts";
import { blogCategoriesRead, blogPostRead, blogPostsRead, blogRelatedRead } from "#shared/features/blog/reads.ts";
import { getPublishedPost, listCategories, listPublishedPosts, relatedPosts } from "./service.ts";

export const blogReads = [
  serveRead(blogPostsRead, async ({ db }) => withCoverFits(db, await listPublishedPosts(db))),
  serveRead(blogCategoriesRead, ({ db }) => listCategories(db)),
  serveRead(blogPostRead, async ({ db }, { slug }) => withPostFits(db, await getPublishedPost(db, slug))),
  serveRead(blogRelatedRead, async ({ db }, { slug }) => withCoverFits(db, await relatedPosts(db, slug))),
];
