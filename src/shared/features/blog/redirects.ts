import type { BlogRedirect } from "./contract.ts";

// The two ends of an old blog address that forwards: both built from slugs, so a redirect
// always stays on the site.

type Ends = Pick<BlogRedirect, "kind" | "fromSlug" | "toSlug">;

/** A post's address, or a category's list. */
export function address(kind: BlogRedirect["kind"], slug: string): string {
  return kind === "post" ? `/blog/${slug}` : `/blog?category=${encodeURIComponent(slug)}`;
}

/** The old address visitors may still use. */
export function redirectSource({ kind, fromSlug }: Pick<Ends, "kind" | "fromSlug">): string {
  return address(kind, fromSlug);
}

/** Where it forwards to: the new address, or the blog's list for a deleted category. */
export function redirectTarget({ kind, toSlug }: Pick<Ends, "kind" | "toSlug">): string {
  return toSlug === null ? "/blog" : address(kind, toSlug);
}
