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

/** Optional text: a string of at most `max` characters, or null / "" for "none". */
export const OptionalText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

/** An absolute http(s) URL or a path on this site (an upload). */
export const HttpUrlText = "^(https?://|/)[^\\s]*$";
