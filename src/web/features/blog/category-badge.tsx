import { Link } from "wouter";
import { categoryColor, categoryLabel } from "#shared/features/blog/categories.ts";
import { blogCategoriesRead } from "#shared/features/blog/reads.ts";
import { useRead } from "#web/lib/reads.ts";

/**
 * A category's name as the admin wrote it ("Legal basics", "FAQ & help"); from its slug only
 * for one the site no longer has. The pages that show badges load the categories with their data.
 */
export function useCategoryName(slug: string | null | undefined): string {
  const categories = useRead(blogCategoriesRead);
  if (!slug) return "";
  return categories.data?.find((c) => c.slug === slug)?.name ?? categoryLabel(slug);
}

/** The category badge, coloured by slug, linking to the filtered list. */
export function CategoryBadge({ slug }: { slug: string }) {
  const name = useCategoryName(slug);
  return (
    <Link
      href={`/blog?category=${encodeURIComponent(slug)}`}
      className={`category-badge category-${categoryColor(slug)}`}
    >
      {name}
    </Link>
  );
}
