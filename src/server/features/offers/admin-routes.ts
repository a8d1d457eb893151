import type { Db } from "#server/db/types.ts";
import { adminRecordRoutes, numericId } from "#server/plugins/record-routes.ts";
import { OfferInput } from "#shared/features/offers/contract.ts";
import { createOffer, deleteOffer, listAllOffers, updateOffer } from "./service.ts";

/** Affiliate offers, mounted under /api/admin behind the admin guard (see app.ts). */
export function offerAdminRoutes(db: Db) {
  return adminRecordRoutes(db, "affiliate-offer", OfferInput, {
    id: numericId,
    deleted: "Offer deleted",
    service: { list: listAllOffers, create: createOffer, update: updateOffer, remove: deleteOffer },
  });
}
