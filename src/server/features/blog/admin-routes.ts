import type { Db } from "#server/db/types.ts";
import { deleteAutosave } from "#server/features/editor/service.ts";
import { adminJson, NumericId } from "#server/plugins/admin-route.ts";
import { adminRecordRoutes, numericId } from "#server/plugins/record-routes.ts";
import { AdminPostsQuery, CategoryInput, PostInput } from "#shared/features/blog/contract.ts";
import {
  createCategory,
  createPost,
  deleteCategory,
  deletePost,
  getAdminPost,
  listPostPage,
  postsPerCategory,
  updateCategory,
  updatePost,
} from "./admin-service.ts";
import { deleteRedirect, listRedirects } from "./redirects.ts";

/** Posts and categories, mounted under /api/admin behind the admin guard (see app.ts). */
export function blogAdminRoutes(db: Db) {
  return (
    adminRecordRoutes(db, "blog/post", PostInput, {
      id: numericId,
      deleted: "Post deleted",
      // A page of rows without their text, searched by title and slug; the editor gets its post by id.
      listQuery: AdminPostsQuery,
      service: {
        list: (db, { page, q }) => listPostPage(db, { page: page === undefined ? 1 : Number(page), q }),
        get: getAdminPost,
        // Saved: the editor's unsaved copy is no longer needed.
        create: async (db, input) => {
          const post = await createPost(db, input);
          await deleteAutosave(db, "post:new");
          return post;
        },
        update: async (db, id, input) => {
          const post = await updatePost(db, id, input);
          await deleteAutosave(db, `post:${post.id}`);
          return post;
        },
        remove: deletePost,
      },
    })
      // The category list is public: GET /api/blog/categories. How many posts each holds is not.
      .get("/blog/category-posts", async () => await postsPerCategory(db))
      .post(
        "/blog/category",
        async ({ body, set }) => {
          set.status = 201;
          return await createCategory(db, body);
        },
        adminJson(CategoryInput),
      )
      .put("/blog/category/:id", async ({ params, body }) => await updateCategory(db, Number(params.id), body), {
        ...adminJson(CategoryInput),
        params: NumericId,
      })
      .delete(
        "/blog/category/:id",
        async ({ params }) => {
          const { posts } = await deleteCategory(db, Number(params.id));
          return {
            message:
              posts === 0
                ? "Category deleted"
                : `Category deleted; its ${posts === 1 ? "post is" : `${posts} posts are`} now Uncategorized`,
            posts,
          };
        },
        { params: NumericId },
      )
      // Old addresses that forward to new ones: the owner sees them all and may delete one.
      .get("/blog/redirects", async () => await listRedirects(db))
      .delete(
        "/blog/redirect/:id",
        async ({ params }) => {
          await deleteRedirect(db, Number(params.id));
          return { message: "Redirect deleted" };
        },
        { params: NumericId },
      )
  );
}
