import { format, formatDistanceStrict } from "date-fns";

/** Minutes to read at about 200 words a minute; never less than one. */
export function readingMinutes(html: string): number {
  const words = html
    .replace(/<[^>]+>/g, " ")
    .split(/\s+/)
    .filter(Boolean).length;
  return Math.max(1, Math.ceil(words / 200));
}

/** The post date as 'MMMM d, yyyy'. Formatted in UTC so server and browser agree. */
export function longDate(iso: string): string {
  const date = new Date(iso);
  return format(new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()), "MMMM d, yyyy");
}

/** Relative time, 'x ago'. */
export function relativeTime(iso: string, now: Date = new Date()): string {
  return formatDistanceStrict(new Date(iso), now, { addSuffix: true, roundingMethod: "floor" });
}

export interface PostFilter {
  category: string | null;
  search: string;
}

/** The words of a search, lower-cased: what a post must all contain, in any order. */
function searchWords(search: string): string[] {
  return search.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * The blog list filter: a post must match the category (if any) and hold every word of
 * the search, in any order and case, in its title or excerpt.
 */
export function filterPosts<T extends { title: string; excerpt: string | null; category: string | null }>(
  posts: T[],
  filter: PostFilter,
): T[] {
  const words = searchWords(filter.search);
  return posts.filter((p) => {
    if (filter.category && p.category !== filter.category) return false;
    const text = `${p.title}\n${p.excerpt ?? ""}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
