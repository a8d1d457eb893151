/** A category badge's label: the slug with hyphens turned to spaces, each word capitalised. */
export function categoryLabel(slug: string): string {
  return slug
    .split("-")
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

/** The four seeded categories have their own badge colour; any other slug is grey. */
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

/** The four categories the site ships with (the ones with a colour of their own). */
export function isSeededCategory(slug: string): boolean {
  return categoryColor(slug) !== "grey";
}
