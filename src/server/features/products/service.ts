import { and, asc, desc, eq, ne } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { recommendedProducts } from "./table.ts";
import { PRODUCT_ARCHETYPES, type RecommendedProduct } from "#shared/features/products/contract.ts";
import { HttpError } from "#server/plugins/errors.ts";

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
    // The submitted value is not echoed back: the list of allowed names says it all.
    throw new HttpError(422, `Unknown archetype. Allowed: ${PRODUCT_ARCHETYPES.join(", ")}.`, {
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

// ---- Admin ----

export function listAllProducts(db: Db): RecommendedProduct[] {
  return db.select().from(recommendedProducts).orderBy(asc(recommendedProducts.archetype), desc(recommendedProducts.isDefault), asc(recommendedProducts.createdAt)).all().map(toProduct);
}

function productValues(input: RecommendedProduct) {
  return {
    name: input.name.trim(),
    description: input.description.trim(),
    link: input.link.trim(),
    price: input.price.trim(),
    imageUrl: input.imageUrl?.trim() ? input.imageUrl.trim() : null,
    badge: input.badge.trim(),
    archetype: input.archetype,
    isDefault: input.isDefault ?? false,
    moduleId: input.moduleId ?? null,
  };
}

/** One featured product per archetype: marking a new one unmarks the others. */
function keepOneDefault(db: Db, product: RecommendedProduct) {
  if (!product.isDefault) return;
  db.update(recommendedProducts)
    .set({ isDefault: false })
    .where(and(eq(recommendedProducts.archetype, product.archetype), ne(recommendedProducts.id, product.id)))
    .run();
}

export function createProduct(db: Db, input: RecommendedProduct): RecommendedProduct {
  if (db.select({ id: recommendedProducts.id }).from(recommendedProducts).where(eq(recommendedProducts.id, input.id)).get()) {
    throw new HttpError(409, `A product with the id "${input.id}" already exists.`);
  }
  return db.transaction((tx) => {
    const row = tx.insert(recommendedProducts).values({ id: input.id, ...productValues(input) }).returning().get();
    const product = toProduct(row);
    keepOneDefault(tx as unknown as Db, product);
    return product;
  });
}

export function updateProduct(db: Db, id: string, input: RecommendedProduct): RecommendedProduct {
  return db.transaction((tx) => {
    const row = tx.update(recommendedProducts).set(productValues(input)).where(eq(recommendedProducts.id, id)).returning().get();
    if (!row) throw new HttpError(404, "No product with that id.");
    const product = toProduct(row);
    keepOneDefault(tx as unknown as Db, product);
    return product;
  });
}

export function deleteProduct(db: Db, id: string): void {
  if (db.delete(recommendedProducts).where(eq(recommendedProducts.id, id)).returning({ id: recommendedProducts.id }).all().length === 0) {
    throw new HttpError(404, "No product with that id.");
  }
}
