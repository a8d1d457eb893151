import { withCoverFits, withPostFits } from "#server/features/media/fits.ts";
import { serveRead } from "#server/lib/reads.ts";
import {
  blogCategoriesRead,
  blogMovedRead,
  blogPostRead,
  blogPostsRead,
  blogRelatedRead,
} from "#shared/features/blog/reads.ts";
import { movedTo } from "./redirects.ts";
import { getPublishedPost, listCategories, publishedPostsPage, relatedPosts } from "./service.ts";

export const blogReads = [
  serveRead(blogPostsRead, async ({ db, now }, _params, query) => {
    const page = await publishedPostsPage(db, now(), query);
    return { ...page, posts: await withCoverFits(db, page.posts) };
  }),
  serveRead(blogCategoriesRead, ({ db }) => listCategories(db)),
  serveRead(blogPostRead, async ({ db, now }, { slug }) => withPostFits(db, await getPublishedPost(db, slug, now()))),
  serveRead(blogMovedRead, async ({ db }, { kind, slug }) => {
    const to = await movedTo(db, kind === "post" ? "post" : "category", slug);
    return to === null ? null : { to };
  }),
  serveRead(blogRelatedRead, async ({ db, now }, { slug }) => withCoverFits(db, await relatedPosts(db, slug, now()))),
];
