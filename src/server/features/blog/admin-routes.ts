import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { deleteAutosave } from "#server/features/editor/service.ts";
import { adminJson, NumericId } from "#server/plugins/admin-route.ts";
import { CategoryInput, PostInput } from "#shared/features/blog/contract.ts";
import { createCategory, createPost, deleteCategory, deletePost, listAllPosts, updatePost } from "./admin-service.ts";

/** Posts and categories, mounted under /api/admin behind the admin guard (see app.ts). */
export function blogAdminRoutes(db: Db) {
  return (
    new Elysia({ name: "blog-admin" })
      .get("/blog/posts", () => listAllPosts(db))
      .post(
        "/blog/post",
        async ({ body, set }) => {
          set.status = 201;
          const post = await createPost(db, body);
          // Saved: the editor's unsaved copy is no longer needed.
          await deleteAutosave(db, "post:new");
          return post;
        },
        adminJson(PostInput),
      )
      .put(
        "/blog/post/:id",
        async ({ params, body }) => {
          const post = await updatePost(db, Number(params.id), body);
          await deleteAutosave(db, `post:${post.id}`);
          return post;
        },
        {
          ...adminJson(PostInput),
          params: NumericId,
        },
      )
      .delete(
        "/blog/post/:id",
        async ({ params }) => {
          await deletePost(db, Number(params.id));
          return { message: "Post deleted" };
        },
        { params: NumericId },
      )
      // The category list is public: GET /api/blog/categories.
      .post(
        "/blog/category",
        async ({ body, set }) => {
          set.status = 201;
          return await createCategory(db, body);
        },
        adminJson(CategoryInput),
      )
      .delete(
        "/blog/category/:id",
        async ({ params }) => {
          await deleteCategory(db, Number(params.id));
          return { message: "Category deleted" };
        },
        {
          params: NumericId,
        },
      )
  );
}
