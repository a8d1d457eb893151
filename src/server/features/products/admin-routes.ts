import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { adminJson, TextId } from "#server/plugins/admin-route.ts";
import { RecommendedProduct } from "#shared/features/products/contract.ts";
import { createProduct, deleteProduct, listAllProducts, updateProduct } from "./service.ts";

/** Recommended products, mounted under /api/admin behind the admin guard (see app.ts). */
export function productAdminRoutes(db: Db) {
  return new Elysia({ name: "products-admin" })
    .get("/recommended-products", () => listAllProducts(db))
    .post(
      "/recommended-product",
      async ({ body, set }) => {
        set.status = 201;
        return await createProduct(db, body);
      },
      adminJson(RecommendedProduct),
    )
    .put("/recommended-product/:id", ({ params, body }) => updateProduct(db, params.id, body), {
      ...adminJson(RecommendedProduct),
      params: TextId,
    })
    .delete(
      "/recommended-product/:id",
      async ({ params }) => {
        await deleteProduct(db, params.id);
        return { message: "Product deleted" };
      },
      { params: TextId },
    );
}
