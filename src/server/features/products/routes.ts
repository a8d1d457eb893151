import { Elysia, t } from "elysia";
import type { Db } from "#server/db/client.ts";
import { listProductsFor } from "./service.ts";

export function productRoutes(db: Db) {
  return new Elysia({ name: "products" }).get(
    "/api/recommended-products/:archetype",
    ({ params }) => listProductsFor(db, params.archetype),
    { params: t.Object({ archetype: t.String({ maxLength: 64 }) }) },
  );
}
