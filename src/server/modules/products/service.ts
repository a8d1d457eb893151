import { asc, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { recommendedProducts } from "../../db/schema/index.ts";
import { PRODUCT_ARCHETYPES, type RecommendedProduct } from "../../../shared/contract/products.ts";
import { HttpError } from "../../plugins/errors.ts";

export function toProduct(row: typeof recommendedProducts.$inferSelect): RecommendedProduct {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    link: row.link,
    price: row.price,
    imageUrl: row.imageUrl,
    badge: row.badge,
    archetype: row.archetype as RecommendedProduct["archetype"],
    isDefault: row.isDefault,
    moduleId: row.moduleId,
  };
}

/** The featured product first, then in the order they were added. */
export function listProductsFor(db: Db, archetype: string): RecommendedProduct[] {
  if (!(PRODUCT_ARCHETYPES as readonly string[]).includes(archetype)) {
    throw new HttpError(422, `Unknown archetype "${archetype}". Allowed: ${PRODUCT_ARCHETYPES.join(", ")}.`, {
      allowed: PRODUCT_ARCHETYPES,
    });
  }
  return db
    .select()
    .from(recommendedProducts)
    .where(eq(recommendedProducts.archetype, archetype))
    .orderBy(desc(recommendedProducts.isDefault), asc(recommendedProducts.createdAt), asc(recommendedProducts.id))
    .all()
    .map(toProduct);
}
