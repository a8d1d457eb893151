import { Type, type Static } from "@sinclair/typebox";

export const BlogCategory = Type.Object({
  id: Type.Integer(),
  name: Type.String({ minLength: 1, maxLength: 60, error: "Name is required" }),
  slug: Type.String({ minLength: 1, maxLength: 60, pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$", error: "Slug is required" }),
});
export type BlogCategory = Static<typeof BlogCategory>;

/** SPEC 3: the badge label is the slug with hyphens turned to spaces, each word capitalised. */
export function categoryLabel(slug: string): string {
  return slug
    .split("-")
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

/** SPEC 3 badge colours by slug; any other slug is grey. */
export function categoryColor(slug: string): "green" | "blue" | "purple" | "amber" | "grey" {
  switch (slug) {
    case "getting-started":
      return "green";
    case "tips-and-tricks":
      return "blue";
    case "platform-reviews":
      return "purple";
    case "income-strategies":
      return "amber";
    default:
      return "grey";
  }
}
