import { MODULE_COUNT, MODULE_IDS } from "#shared/features/course/constants.ts";
import type { ImageUrlFit } from "#shared/features/media/constants.ts";
import { defineRead } from "#shared/read.ts";
import type { PublicOffer } from "./contract.ts";

/**
 * A module's active offers. The browser asks with fullRandom=true (a random order) and a
 * timestamp `t` that defeats any cache between us and the visitor; never server-rendered.
 */
export const moduleOffersRead = defineRead<(PublicOffer & ImageUrlFit)[]>()(
  "/api/module/:id/affiliate-offers",
  {
    id: {
      pattern: `^(${MODULE_IDS.join("|")})$`,
      error: `Module id must be a whole number from 1 to ${MODULE_COUNT}.`,
    },
  },
  { query: ["fullRandom", "t"] },
);
