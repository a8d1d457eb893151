import { type Static, Type } from "@sinclair/typebox";
import { recommendedProducts } from "#server/features/products/table.ts";
import { PRODUCT_ARCHETYPES } from "./constants.ts";

export { badgeTone, PRODUCT_ARCHETYPES, PRODUCT_BADGES } from "./constants.ts";

import { MODULE_COUNT } from "#shared/features/course/constants.ts";
import { LinkChoiceFields } from "#shared/features/links/contract.ts";
import { literalUnion, OptionalSiteImage } from "#shared/schema/common.ts";
import { insertSchema } from "#shared/schema/row-schemas.ts";

const ProductArchetypeName = literalUnion(PRODUCT_ARCHETYPES, {
  error: `Archetype must be one of: ${PRODUCT_ARCHETYPES.join(", ")}`,
});

/**
 * A product as the admin edits it and pages show it, derived from its table with the product
 * form's rules and messages (docs/product.md#admin-forms-and-validation); the admin form and the
 * API share them.
 */
export const RecommendedProduct = Type.Object({
  ...Type.Omit(
    insertSchema(recommendedProducts, {
      id: Type.String({ minLength: 1, maxLength: 64, pattern: "^[a-z0-9_-]+$" }),
      name: Type.String({ minLength: 2, maxLength: 120, error: "Name must be at least 2 characters" }),
      description: Type.String({ minLength: 10, maxLength: 600, error: "Description must be at least 10 characters" }),
      link: Type.String({ pattern: "^https?://[^\\s]+$", maxLength: 2048, error: "Must be a valid URL" }),
      // The admin's pick of a managed link; with `linkSlug` the server keeps the link's destination in `link`.
      linkSlug: LinkChoiceFields.linkSlug,
      price: Type.String({ minLength: 1, maxLength: 40, error: "Price is required, at most 40 characters" }),
      imageUrl: OptionalSiteImage(),
      badge: Type.String({ minLength: 1, maxLength: 30, error: "Badge is required, at most 30 characters" }),
      archetype: ProductArchetypeName,
      isDefault: Type.Boolean({ default: false }),
      moduleId: () => Type.Integer({ minimum: 1, maximum: MODULE_COUNT }),
    }),
    ["createdAt"],
  ).properties,
  newLinkSlug: LinkChoiceFields.newLinkSlug,
  newLinkDestination: LinkChoiceFields.newLinkDestination,
});
export type RecommendedProduct = Static<typeof RecommendedProduct>;
