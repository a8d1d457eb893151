import { type Static, Type } from "@sinclair/typebox";

const HttpUrl = Type.String({
  pattern: "^https?://[^\\s]+$",
  maxLength: 2048,
  error: "Must be a valid URL",
});

export const Platform = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60, error: "Platform name is required" }),
  url: HttpUrl,
});
export type Platform = Static<typeof Platform>;

/** The brand and the two affiliate platforms (docs/product.md#site-settings), as the site renders them. */
export const SiteSettings = Type.Object({
  brandName: Type.String({ minLength: 1, maxLength: 60, error: "Brand name is required" }),
  platformA: Platform,
  platformB: Platform,
  bannerPlatform: Type.Union([Type.Literal("a"), Type.Literal("b")], {
    error: "Banner platform must be 'a' or 'b'",
  }),
});
export type SiteSettings = Static<typeof SiteSettings>;
