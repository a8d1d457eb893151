import { and, asc, desc, eq, ne } from "drizzle-orm";
import { inTransaction } from "#server/db/transaction.ts";
import type { Db } from "#server/db/types.ts";
import { chooseLink, destinationsBySlug, goPath } from "#server/features/links/service.ts";
import { rowValues } from "#server/lib/row-values.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { PRODUCT_ARCHETYPES, RecommendedProduct } from "#shared/features/products/contract.ts";
import { recommendedProducts } from "./table.ts";

type Row = typeof recommendedProducts.$inferSelect;

/** A product as pages show it: its link is the managed link on this site, never the destination. */
function toProduct(row: Row): RecommendedProduct {
  return { ...toAdminProduct(row), link: goPath(row.linkSlug) };
}

/**
 * A product as the admin edits it: the row but its managed link (added by the list when it has
 * one) and when it was added; its link is the destination.
 */
function toAdminProduct({ linkSlug: _slug, createdAt: _added, ...fields }: Row): RecommendedProduct {
  // The column holds one of the archetypes: the form's rule, kept on every read (value-rules.ts).
  return { ...fields, archetype: fields.archetype as RecommendedProduct["archetype"] };
}

/** The featured product first, then in the order they were added. */
export async function listProductsFor(db: Db, archetype: string): Promise<RecommendedProduct[]> {
  if (!(PRODUCT_ARCHETYPES as readonly string[]).includes(archetype)) {
    // The submitted value is not echoed back: the list of allowed names says it all.
    throw new HttpError(422, `Unknown archetype. Allowed: ${PRODUCT_ARCHETYPES.join(", ")}.`, {
      allowed: PRODUCT_ARCHETYPES,
    });
  }
  const rows = await db
    .select()
    .from(recommendedProducts)
    .where(eq(recommendedProducts.archetype, archetype))
    .orderBy(desc(recommendedProducts.isDefault), asc(recommendedProducts.createdAt), asc(recommendedProducts.id));
  return rows.map(toProduct);
}

// ---- Admin ----

export async function listAllProducts(db: Db): Promise<RecommendedProduct[]> {
  const rows = await db
    .select()
    .from(recommendedProducts)
    .orderBy(
      asc(recommendedProducts.archetype),
      desc(recommendedProducts.isDefault),
      asc(recommendedProducts.createdAt),
    );
  const destinations = await destinationsBySlug(db);
  return rows.map((row) => {
    const product = toAdminProduct(row);
    // The destination of the product's link, which the Links section may have changed.
    return {
      ...product,
      link: (row.linkSlug && destinations.get(row.linkSlug)) || product.link,
      ...(row.linkSlug ? { linkSlug: row.linkSlug } : {}),
    };
  });
}

/** The row values of the form: its text trimmed, its id left to the address (an update never renames a product). */
function productValues(input: RecommendedProduct) {
  const { id: _id, ...fields } = rowValues(recommendedProducts, RecommendedProduct, input);
  return {
    ...fields,
    name: input.name.trim(),
    description: input.description.trim(),
    link: input.link.trim(),
    price: input.price.trim(),
    badge: input.badge.trim(),
    isDefault: input.isDefault ?? false,
  };
}

/**
 * The product's managed link as the form picked it (an existing or a new link), or the typed URL
 * adopted into the product's own link; the product's link column keeps the link's destination.
 */
async function productLink(
  tx: Db,
  slug: string | null,
  id: string,
  input: RecommendedProduct,
  values: ReturnType<typeof productValues>,
) {
  const link = await chooseLink(tx, input, "", {
    slug,
    destination: values.link,
    name: id,
    notes: `Product: ${values.name}`,
    field: "link",
  });
  return { linkSlug: link.slug, link: link.destination };
}

/** One featured product per archetype: marking a new one unmarks the others. */
async function keepOneDefault(tx: Db, product: RecommendedProduct): Promise<void> {
  if (!product.isDefault) return;
  await tx
    .update(recommendedProducts)
    .set({ isDefault: false })
    .where(and(eq(recommendedProducts.archetype, product.archetype), ne(recommendedProducts.id, product.id)));
}

export async function createProduct(db: Db, input: RecommendedProduct): Promise<RecommendedProduct> {
  const [taken] = await db
    .select({ id: recommendedProducts.id })
    .from(recommendedProducts)
    .where(eq(recommendedProducts.id, input.id))
    .limit(1);
  if (taken) throw new HttpError(409, `A product with the id "${input.id}" already exists.`);
  return inTransaction(db, async (tx) => {
    const values = productValues(input);
    const link = await productLink(tx, null, input.id, input, values);
    const [row] = await tx
      .insert(recommendedProducts)
      .values({ id: input.id, ...values, ...link })
      .returning();
    const product = toAdminProduct(row!);
    await keepOneDefault(tx, product);
    return product;
  });
}

export function updateProduct(db: Db, id: string, input: RecommendedProduct): Promise<RecommendedProduct> {
  return inTransaction(db, async (tx) => {
    const [old] = await tx
      .select({ linkSlug: recommendedProducts.linkSlug })
      .from(recommendedProducts)
      .where(eq(recommendedProducts.id, id))
      .limit(1);
    if (!old) throw new HttpError(404, "No product with that id.");
    const values = productValues(input);
    const link = await productLink(tx, old.linkSlug, id, input, values);
    const [row] = await tx
      .update(recommendedProducts)
      .set({ ...values, ...link })
      .where(eq(recommendedProducts.id, id))
      .returning();
    const product = toAdminProduct(row!);
    await keepOneDefault(tx, product);
    return product;
  });
}

export async function deleteProduct(db: Db, id: string): Promise<void> {
  const deleted = await db
    .delete(recommendedProducts)
    .where(eq(recommendedProducts.id, id))
    .returning({ id: recommendedProducts.id });
  if (deleted.length === 0) throw new HttpError(404, "No product with that id.");
}
