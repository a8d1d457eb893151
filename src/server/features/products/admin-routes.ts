import type { Db } from "#server/db/types.ts";
import { adminRecordRoutes, textId } from "#server/plugins/record-routes.ts";
import { RecommendedProduct } from "#shared/features/products/contract.ts";
import { createProduct, deleteProduct, listAllProducts, updateProduct } from "./service.ts";

/** Recommended products, mounted under /api/admin behind the admin guard (see app.ts). */
export function productAdminRoutes(db: Db) {
  return adminRecordRoutes(db, "recommended-product", RecommendedProduct, {
    id: textId,
    deleted: "Product deleted",
    service: { list: listAllProducts, create: createProduct, update: updateProduct, remove: deleteProduct },
  });
}
