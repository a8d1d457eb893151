import type { Db } from "#server/db/client.ts";
import { adminRecordRoutes, textId } from "#server/plugins/record-routes.ts";
import { RecommendedProduct } from "#shared/features/products/contract.ts";
import { createProduct, deleteProduct, listAllProducts, updateProduct } from "./service.ts";

/** Recommended products, mounted under /api/admin behind the admin guard (see app.ts). */
export function productAdminRoutes(db: Db) {
  return adminRecordRoutes({
    name: "products-admin",
    path: "recommended-product",
    schema: RecommendedProduct,
    id: textId,
    list: () => listAllProducts(db),
    create: (input) => createProduct(db, input),
    update: (id, input) => updateProduct(db, id, input),
    remove: (id) => deleteProduct(db, id),
    deleted: "Product deleted",
  });
}
