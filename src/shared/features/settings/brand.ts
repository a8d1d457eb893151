/** Page titles follow '{page} | {brand}' (docs/product.md#page-titles-and-metadata). */
export function pageTitle(page: string, brand: string): string {
  return `${page} | ${brand}`;
}

/** Replaces {{brand}}-style tokens in operator text; unknown tokens are left visible. */
export function fillTokens(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}
