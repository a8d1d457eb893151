import { Link } from "wouter";
import { categoryColor, categoryLabel } from "#shared/features/blog/categories.ts";

/** The category badge, coloured by slug, linking to the filtered list. */
export function CategoryBadge({ slug }: { slug: string }) {
  return (
    <Link
      href={`/blog?category=${encodeURIComponent(slug)}`}
      className={`category-badge category-${categoryColor(slug)}`}
    >
      {categoryLabel(slug)}
    </Link>
  );
}
