import { type SchemaOptions, Type } from "@sinclair/typebox";

/**
 * A union of string literals whose static type stays the literal union (a mapped
 * array of Type.Literal widens to string). The schema itself is a plain Union.
 */
export function literalUnion<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      options,
    ),
  );
}

/**
 * A refinement of a text column (drizzle-typebox): at most `max` characters. The table says the
 * rest: a column that may be empty takes null too, and may be left out of an insert.
 */
export const upTo = (max: number) => () => Type.String({ maxLength: max });

/**
 * A path on this site, such as an upload (/uploads/…): the only images the site's content
 * security policy (img-src 'self') lets a page show. "//host/…" and "/\host/…" name
 * another site and are refused.
 */
export const SITE_IMAGE_PATTERN = "^(/(?![/\\\\])[^\\s\\\\]*)?$";

export const SITE_IMAGE_MESSAGE =
  "Use an image uploaded here (or a path on this site starting with /): the site's security policy blocks images from other websites";

/** An optional image field: a path on this site, or null, "" or absent for none. */
export const OptionalSiteImage = () =>
  Type.Optional(
    Type.Union(
      [Type.String({ maxLength: 2048, pattern: SITE_IMAGE_PATTERN, error: SITE_IMAGE_MESSAGE }), Type.Null()],
      { error: SITE_IMAGE_MESSAGE },
    ),
  );
