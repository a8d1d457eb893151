import { Elysia, t } from "elysia";
import type { Db } from "#server/db/client.ts";
import { getPublishedPost, listCategories, listPublishedPosts, relatedPosts } from "./service.ts";

const SlugParams = t.Object({ slug: t.String({ minLength: 1, maxLength: 120 }) });

export function blogRoutes(db: Db) {
  return new Elysia({ name: "blog" })
    .get("/api/blog/posts", () => listPublishedPosts(db))
    .get("/api/blog/categories", () => listCategories(db))
    .get("/api/blog/post/:slug", ({ params }) => getPublishedPost(db, params.slug), { params: SlugParams })
    .get("/api/blog/post/:slug/related", ({ params }) => relatedPosts(db, params.slug), { params: SlugParams });
}
