import { Type, type Static } from "@sinclair/typebox";
import { SLUG_PATTERN } from "./blog.ts";

// The admin forms and the admin API validate with these same schemas and messages
// (SPEC 5). Optional text fields accept null or "" for "none".

const OptionalText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const HttpUrlText = "^(https?://|/)[^\\s]*$";

export const LoginInput = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64, error: "Username is required" }),
  password: Type.String({ minLength: 1, maxLength: 256, error: "Password is required" }),
});
export type LoginInput = Static<typeof LoginInput>;

export const PostInput = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200, error: "Title is required" }),
  slug: Type.String({ minLength: 1, maxLength: 120, pattern: SLUG_PATTERN, error: "Slug is required: lower-case letters, digits and single hyphens" }),
  content: Type.String({ minLength: 1, maxLength: 200_000, error: "Content is required" }),
  excerpt: OptionalText(500),
  category: Type.Optional(Type.Union([Type.String({ maxLength: 60 }), Type.Null()])),
  coverImage: Type.Optional(Type.Union([Type.String({ maxLength: 2048, pattern: HttpUrlText, error: "Cover image must be an uploaded image or a URL" }), Type.Null()])),
  published: Type.Boolean({ error: "Published must be true or false" }),
  metaDescription: OptionalText(300),
  metaKeywords: OptionalText(300),
});
export type PostInput = Static<typeof PostInput>;

export const CategoryInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60, error: "Name is required" }),
  slug: Type.String({ minLength: 1, maxLength: 60, pattern: SLUG_PATTERN, error: "Slug is required: lower-case letters, digits and single hyphens" }),
});
export type CategoryInput = Static<typeof CategoryInput>;

export const OfferInput = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200, error: "Title is required" }),
  description: Type.String({ minLength: 1, maxLength: 2000, error: "Description is required" }),
  imageUrl: Type.Optional(Type.Union([Type.String({ maxLength: 2048, pattern: HttpUrlText, error: "Image must be an uploaded image or a URL" }), Type.Null()])),
  videoUrl: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
  useEmbed: Type.Boolean(),
  embedCode: OptionalText(20_000),
  linkUrl: Type.String({ minLength: 1, maxLength: 2048, pattern: "^https?://[^\\s]+$", error: "Link URL is required and must be a valid URL" }),
  linkText: OptionalText(60),
  moduleId: Type.Integer({ minimum: 1, maximum: 10, error: "Module must be a whole number from 1 to 10" }),
  isActive: Type.Boolean(),
  archetype: OptionalText(60),
  productId: OptionalText(64),
  badge: OptionalText(30),
  price: OptionalText(40),
});
export type OfferInput = Static<typeof OfferInput>;

/** The admin's view of an offer: the public fields plus the rest (SPEC 3). */
export interface AdminOffer extends Required<OfferInput> {
  id: number;
  createdAt: string;
  updatedAt: string;
}

export interface AdminUser {
  id: number;
  username: string;
}
