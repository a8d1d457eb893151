import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { adminJson, NumericId } from "#server/plugins/admin-route.ts";
import { OfferInput } from "#shared/features/offers/contract.ts";
import { createOffer, deleteOffer, listAllOffers, updateOffer } from "./service.ts";

/** Affiliate offers, mounted under /api/admin behind the admin guard (see app.ts). */
export function offerAdminRoutes(db: Db) {
  return new Elysia({ name: "offers-admin" })
    .get("/affiliate-offers", () => listAllOffers(db))
    .post(
      "/affiliate-offer",
      async ({ body, set }) => {
        set.status = 201;
        return await createOffer(db, body);
      },
      adminJson(OfferInput),
    )
    .put("/affiliate-offer/:id", ({ params, body }) => updateOffer(db, Number(params.id), body), {
      ...adminJson(OfferInput),
      params: NumericId,
    })
    .delete(
      "/affiliate-offer/:id",
      async ({ params }) => {
        await deleteOffer(db, Number(params.id));
        return { message: "Offer deleted" };
      },
      { params: NumericId },
    );
}
