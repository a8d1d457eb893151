import { withImageFits } from "#server/features/media/fits.ts";
import { serveRead } from "#server/lib/reads.ts";
import { productsRead } from "#shared/features/products/reads.ts";
import { listProductsFor } from "./service.ts";

export const productReads = [
  serveRead(productsRead, async ({ db }, { archetype }) => withImageFits(db, await listProductsFor(db, archetype))),
];
