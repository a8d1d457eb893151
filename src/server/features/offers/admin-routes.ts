import type { Db } from "#server/db/client.ts";
import { adminRecordRoutes, numericId } from "#server/plugins/record-routes.ts";
import { OfferInput } from "#shared/features/offers/contract.ts";
import { createOffer, deleteOffer, listAllOffers, updateOffer } from "./service.ts";

/** Affiliate offers, mounted under /api/admin behind the admin guard (see app.ts). */
export function offerAdminRoutes(db: Db) {
  return adminRecordRoutes({
    name: "offers-admin",
    path: "affiliate-offer",
    schema: OfferInput,
    id: numericId,
    list: () => listAllOffers(db),
    create: (input) => createOffer(db, input),
    update: (id, input) => updateOffer(db, id, input),
    remove: (id) => deleteOffer(db, id),
    deleted: "Offer deleted",
  });
}
