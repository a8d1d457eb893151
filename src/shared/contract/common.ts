import { Type, type SchemaOptions } from "@sinclair/typebox";

/**
 * A union of string literals whose static type stays the literal union (a mapped
 * array of Type.Literal widens to string). The schema itself is a plain Union.
 */
export function literalUnion<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v)), options));
}
