import { type Static, Type } from "@sinclair/typebox";
import { createSelectSchema } from "drizzle-typebox";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { MODULE_COUNT } from "#shared/features/course/constants.ts";
import { LinkChoiceFields } from "#shared/features/links/contract.ts";
import { OptionalSiteImage, SITE_IMAGE_PATTERN, upTo } from "#shared/schema/common.ts";
import { insertSchema } from "#shared/schema/row-schemas.ts";
import type { Sent } from "#shared/schema/sent.ts";

// The table (src/server/features/offers/table.ts) declares an offer's fields once; the shapes
// here are derived from it, with the product's rules and messages.

/** An offer as stored. */
const OfferRow = createSelectSchema(affiliateOffers);

/**
 * The public view of an affiliate offer (docs/product.md#offers): the fields a page shows, picked
 * so that a column added for the admin is not sent to visitors by itself. `descriptionHtml` is the
 * description written in the editor (Markdown) rendered to clean HTML; null: show `description`
 * as plain text.
 */
export const PublicOffer = Type.Pick(OfferRow, [
  "id",
  "title",
  "description",
  "descriptionHtml",
  "imageUrl",
  "videoUrl",
  "useEmbed",
  "embedCode",
  "linkUrl",
  "linkText",
]);
export type PublicOffer = Static<typeof PublicOffer>;

/** What content/offers.json seeds: the public fields plus the module and state. */
export const SeedOffer = Type.Object({
  title: Type.String({ minLength: 3, maxLength: 120 }),
  description: Type.String({ minLength: 20, maxLength: 600 }),
  imageUrl: Type.Union([Type.String({ pattern: SITE_IMAGE_PATTERN }), Type.Null()]),
  videoUrl: Type.Union([Type.String({ pattern: "^/|^https://" }), Type.Null()]),
  useEmbed: Type.Boolean(),
  embedCode: Type.Union([Type.String({ minLength: 10 }), Type.Null()]),
  linkUrl: Type.String({ pattern: "^https://" }),
  linkText: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
  moduleId: Type.Integer({ minimum: 1, maximum: MODULE_COUNT }),
  isActive: Type.Boolean(),
});
export type SeedOffer = Static<typeof SeedOffer>;

// The admin form and the admin API validate with this same schema and its messages.

export const OfferInput = Type.Object({
  ...Type.Omit(
    insertSchema(affiliateOffers, {
      title: Type.String({ minLength: 1, maxLength: 200, error: "Title is required, at most 200 characters" }),
      description: Type.String({
        minLength: 1,
        maxLength: 2000,
        error: "Description is required, at most 2000 characters",
      }),
      /** Made by the server from the description; accepted and ignored, so what the admin API lists can be sent back as it is. */
      descriptionHtml: upTo(100_000),
      imageUrl: OptionalSiteImage(),
      videoUrl: upTo(2048),
      // Sent by the form every time, though the column has a default.
      useEmbed: Type.Boolean(),
      embedCode: upTo(20_000),
      /** A destination typed without picking a link (adopted into the offer's own link); with `linkSlug` the link's destination is kept. */
      linkUrl: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 2048,
          pattern: "^https?://[^\\s]+$",
          error: "Link URL is required and must be a valid URL",
        }),
      ),
      linkSlug: LinkChoiceFields.linkSlug,
      linkText: upTo(60),
      moduleId: Type.Integer({
        minimum: 1,
        maximum: MODULE_COUNT,
        error: `Module must be a whole number from 1 to ${MODULE_COUNT}`,
      }),
      isActive: Type.Boolean(),
      archetype: upTo(60),
      productId: upTo(64),
      badge: upTo(30),
      price: upTo(40),
    }),
    ["id", "createdAt", "updatedAt"],
  ).properties,
  newLinkSlug: LinkChoiceFields.newLinkSlug,
  newLinkDestination: LinkChoiceFields.newLinkDestination,
});
export type OfferInput = Static<typeof OfferInput>;

/** The admin's view of an offer: the whole row, sent, its link URL the managed link's destination (docs/product.md#offers). */
export type AdminOffer = Sent<Static<typeof OfferRow>>;
