import { type Static, Type } from "@sinclair/typebox";
import { MODULE_COUNT } from "#shared/features/course/constants.ts";
import { LinkChoiceFields } from "#shared/features/links/contract.ts";
import { OptionalSiteImage, OptionalText, SITE_IMAGE_PATTERN } from "#shared/schema/common.ts";

/** The public view of an affiliate offer (docs/product.md#offers). */
export const PublicOffer = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  /** The description written in the editor (Markdown), rendered to clean HTML; null: show `description` as plain text. */
  descriptionHtml: Type.Union([Type.String(), Type.Null()]),
  imageUrl: Type.Union([Type.String(), Type.Null()]),
  videoUrl: Type.Union([Type.String(), Type.Null()]),
  useEmbed: Type.Boolean(),
  embedCode: Type.Union([Type.String(), Type.Null()]),
  linkUrl: Type.String(),
  linkText: Type.Union([Type.String(), Type.Null()]),
});
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
  title: Type.String({ minLength: 1, maxLength: 200, error: "Title is required, at most 200 characters" }),
  description: Type.String({
    minLength: 1,
    maxLength: 2000,
    error: "Description is required, at most 2000 characters",
  }),
  /** Made by the server from the description; accepted and ignored, so what the admin API lists can be sent back as it is. */
  descriptionHtml: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()])),
  imageUrl: OptionalSiteImage(),
  videoUrl: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
  useEmbed: Type.Boolean(),
  embedCode: OptionalText(20_000),
  /** A destination typed without picking a link (adopted into the offer's own link); with `linkSlug` the link's destination is kept. */
  linkUrl: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2048,
      pattern: "^https?://[^\\s]+$",
      error: "Link URL is required and must be a valid URL",
    }),
  ),
  ...LinkChoiceFields,
  linkText: OptionalText(60),
  moduleId: Type.Integer({
    minimum: 1,
    maximum: MODULE_COUNT,
    error: `Module must be a whole number from 1 to ${MODULE_COUNT}`,
  }),
  isActive: Type.Boolean(),
  archetype: OptionalText(60),
  productId: OptionalText(64),
  badge: OptionalText(30),
  price: OptionalText(40),
});
export type OfferInput = Static<typeof OfferInput>;

/** The admin's view of an offer: the public fields plus the rest (docs/product.md#offers). */
export interface AdminOffer extends Required<Omit<OfferInput, "linkSlug" | "newLinkSlug" | "newLinkDestination">> {
  id: number;
  /** The slug of the offer's managed link. */
  linkSlug: string | null;
  createdAt: string;
  updatedAt: string;
}
