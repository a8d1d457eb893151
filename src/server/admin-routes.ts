import { Elysia, t } from "elysia";
import type { Db } from "./db/client.ts";
import { CategoryInput, PostInput } from "#shared/features/blog/contract.ts";
import { OfferInput } from "#shared/features/offers/contract.ts";
import { RecommendedProduct } from "#shared/features/products/contract.ts";
import { SiteSettings } from "#shared/features/settings/contract.ts";
import { jsonBody } from "./plugins/json-body.ts";
import { adminGuard } from "./features/auth/guard.ts";
import { createCategory, createPost, deleteCategory, deletePost, listAllPosts, updatePost } from "./features/blog/admin-service.ts";
import { createOffer, deleteOffer, listAllOffers, updateOffer } from "./features/offers/service.ts";
import { createProduct, deleteProduct, listAllProducts, updateProduct } from "./features/products/service.ts";
import { getSettings, updateSettings } from "./features/settings/service.ts";

const NumericId = t.Object({ id: t.String({ pattern: "^\\d{1,9}$", error: "The id must be a whole number." }) });
const TextId = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });
const ADMIN_BODY_LIMIT = 256 * 1024;

/** DECISIONS P11: every route here needs the admin session; each one is listed here. */
export function adminRoutes(db: Db, secret: string, allowedOrigins: (request: Request) => string[], onChange: () => void = () => {}) {
  const json = <S extends Parameters<typeof jsonBody>[0]>(schema: S) => ({ parse: jsonBody(schema, ADMIN_BODY_LIMIT), body: schema! });
  return (
    new Elysia({ name: "admin" })
      .use(adminGuard(db, secret, allowedOrigins))
      .onAfterHandle({ as: "local" }, ({ set, request }) => {
        set.headers["cache-control"] = "no-store";
        // Whatever the admin changed may show on any cached page: drop them all.
        if (request.method !== "GET") onChange();
      })
      // Blog posts
      .get("/api/admin/blog/posts", async () => listAllPosts(db))
      .post("/api/admin/blog/post", async ({ body, set }) => ((set.status = 201), createPost(db, body)), json(PostInput))
      .put("/api/admin/blog/post/:id", async ({ params, body }) => updatePost(db, Number(params.id), body), { ...json(PostInput), params: NumericId })
      .delete("/api/admin/blog/post/:id", async ({ params }) => (await deletePost(db, Number(params.id)), { message: "Post deleted" }), { params: NumericId })
      // Categories (the list is public: GET /api/blog/categories)
      .post("/api/admin/blog/category", async ({ body, set }) => ((set.status = 201), createCategory(db, body)), json(CategoryInput))
      .delete("/api/admin/blog/category/:id", async ({ params }) => (await deleteCategory(db, Number(params.id)), { message: "Category deleted" }), {
        params: NumericId,
      })
      // Affiliate offers
      .get("/api/admin/affiliate-offers", async () => listAllOffers(db))
      .post("/api/admin/affiliate-offer", async ({ body, set }) => ((set.status = 201), createOffer(db, body)), json(OfferInput))
      .put("/api/admin/affiliate-offer/:id", async ({ params, body }) => updateOffer(db, Number(params.id), body), { ...json(OfferInput), params: NumericId })
      .delete("/api/admin/affiliate-offer/:id", async ({ params }) => (await deleteOffer(db, Number(params.id)), { message: "Offer deleted" }), { params: NumericId })
      // Recommended products
      .get("/api/admin/recommended-products", async () => listAllProducts(db))
      .post("/api/admin/recommended-product", async ({ body, set }) => ((set.status = 201), createProduct(db, body)), json(RecommendedProduct))
      .put("/api/admin/recommended-product/:id", async ({ params, body }) => updateProduct(db, params.id, body), { ...json(RecommendedProduct), params: TextId })
      .delete("/api/admin/recommended-product/:id", async ({ params }) => (await deleteProduct(db, params.id), { message: "Product deleted" }), { params: TextId })
      // Site settings (DECISIONS P5)
      .get("/api/admin/settings", async () => getSettings(db))
      .put("/api/admin/settings", async ({ body }) => updateSettings(db, body), json(SiteSettings))
  );
}
