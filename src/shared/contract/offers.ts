import { Type, type Static } from "@sinclair/typebox";
export { offersPath } from "../constants.ts";

/** SPEC 3: the public view of an affiliate offer. */
export const PublicOffer = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
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
  imageUrl: Type.Union([Type.String({ pattern: "^/|^https://" }), Type.Null()]),
  videoUrl: Type.Union([Type.String({ pattern: "^/|^https://" }), Type.Null()]),
  useEmbed: Type.Boolean(),
  embedCode: Type.Union([Type.String({ minLength: 10 }), Type.Null()]),
  linkUrl: Type.String({ pattern: "^https://" }),
  linkText: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
  moduleId: Type.Integer({ minimum: 1, maximum: 10 }),
  isActive: Type.Boolean(),
});
export type SeedOffer = Static<typeof SeedOffer>;

