import { format, formatDistanceStrict } from "date-fns";
import { blogPageNumber, MATCH_END, MATCH_START, MAX_BLOG_SEARCH, MAX_CATEGORY_SLUG } from "./constants.ts";

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

/** What the blog's list shows, read from its address (?page=, ?category=, ?q=). */
export interface BlogListState {
  page: number;
  category: string | null;
  search: string;
}

/**
 * The list's state from its address. A page that is not a whole number from 1 is the first
 * page; a search or a category longer than any could be is cut, so every address shows a list.
 */
export function blogListState(query: URLSearchParams): BlogListState {
  const page = query.get("page") ?? "";
  return {
    page: blogPageNumber(page) ?? 1,
    category: query.get("category")?.slice(0, MAX_CATEGORY_SLUG) || null,
    search: (query.get("q") ?? "").slice(0, MAX_BLOG_SEARCH),
  };
}

/** The list's address for a state: each part only when it is not the default. */
export function blogListAddress({ page, category, search }: BlogListState): string {
  const query = new URLSearchParams();
  if (category) query.set("category", category);
  if (search.trim() !== "") query.set("q", search);
  if (page > 1) query.set("page", String(page));
  const encoded = query.toString();
  return encoded ? `/blog?${encoded}` : "/blog";
}

/** The read's query for a state: what the server needs, trimmed (so "tax" and "tax " share an answer). */
export function blogListQuery({ page, category, search }: BlogListState): {
  page?: string;
  category?: string;
  q?: string;
} {
  const q = search.trim().replace(/\s+/g, " ");
  return {
    ...(category ? { category } : {}),
    ...(q ? { q } : {}),
    ...(page > 1 ? { page: String(page) } : {}),
  };
}

/**
 * The page numbers the list links to from `current` of `last`: the first, the last, and the
 * pages either side of the current one; a gap ("gap") stands for the pages between, unless it
 * would hide a single page, which is then shown. At most seven entries, so they fit a phone.
 */
export function pageNumbers(current: number, last: number): (number | "gap")[] {
  const shown = new Set([1, last, current - 1, current, current + 1].filter((n) => n >= 1 && n <= last));
  // A gap of one page shows that page instead ("1 2 3", not "1 … 3").
  if (shown.has(3) && !shown.has(2)) shown.add(2);
  if (shown.has(last - 2) && !shown.has(last - 1)) shown.add(last - 1);
  const numbers = [...shown].sort((a, b) => a - b);
  return numbers.flatMap((n, i) => (i > 0 && n - numbers[i - 1]! > 1 ? ["gap" as const, n] : [n]));
}

/** At most this many words of a search are used; the rest are ignored. */
const MAX_WORDS = 5;
/** A word longer than this is cut: no English word is, and the index needs no more. */
const MAX_WORD = 40;

/**
 * Words too common to find anything by (PostgreSQL's English search leaves them out too): a
 * search for "how to light a room" looks for "light" and "room".
 */
const STOP_WORDS = new Set(
  (
    "am an as at be by do he if in is it me my no of on or so to up us we " +
    "about after all also and any are because been before being but can could did does doing for from had has " +
    "have having her here hers him his how into its just more most not now off once only other our ours out over " +
    "own same she should some such than that the their theirs them then there these they this those through too " +
    "under until very was were what when where which while who whom why will with would you your yours"
  ).split(" "),
);

/**
 * The words a search looks for: runs of letters and digits, lower-cased, without single
 * letters and the most common words, at most five. Everything else (quotes, operators,
 * punctuation) separates words, so a search can never be read as the index's query syntax; and
 * a search of single letters cannot make the index rank every post for each of them.
 */
export function searchWords(search: string): string[] {
  const words =
    search
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const kept = words.filter((word) => [...word].length > 1 && !STOP_WORDS.has(word));
  return [...new Set(kept.map((word) => word.slice(0, MAX_WORD)))].slice(0, MAX_WORDS);
}

/** Parts of a text, each marked or not: a found word is marked. */
export type Marked = { text: string; mark: boolean }[];

/** A passage from the server, its found words between MATCH_START and MATCH_END, as parts. */
export function passageParts(passage: string): Marked {
  const parts: Marked = [];
  for (const [i, piece] of passage.split(new RegExp(`[${MATCH_START}${MATCH_END}]`)).entries())
    if (piece) parts.push({ text: piece, mark: i % 2 === 1 });
  return parts;
}

/**
 * A title or an excerpt with each word that starts with a word of the search marked, as the
 * index matches (a prefix, in any case): "tax" marks "Taxes". A word the index found by its stem
 * alone ("earnings" finding "earned") is not marked here.
 */
export function markWords(text: string, search: string): Marked {
  const words = searchWords(search);
  if (words.length === 0) return [{ text, mark: false }];
  const parts: Marked = [];
  let last = 0;
  for (const found of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = found[0].toLowerCase();
    if (!words.some((w) => word.startsWith(w))) continue;
    const start = found.index;
    if (start > last) parts.push({ text: text.slice(last, start), mark: false });
    parts.push({ text: found[0], mark: true });
    last = start + found[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), mark: false });
  return parts;
}
