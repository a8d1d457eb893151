import { serveRead } from "#server/lib/reads.ts";
import { productsRead } from "#shared/features/products/reads.ts";
import { listProductsFor } from "./service.ts";

export const productReads = [serveRead(productsRead, ({ db }, { archetype }) => listProductsFor(db, archetype))];
