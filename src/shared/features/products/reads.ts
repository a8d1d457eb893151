import type { ImageUrlFit } from "#shared/features/media/constants.ts";
import { defineRead } from "#shared/read.ts";
import type { RecommendedProduct } from "./contract.ts";

/** The featured product first; "All Archetypes" names the essentials. */
export const productsRead = defineRead<(RecommendedProduct & ImageUrlFit)[]>()("/api/recommended-products/:archetype", {
  archetype: { maxLength: 64 },
});
