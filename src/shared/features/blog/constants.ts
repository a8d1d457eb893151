/** Where the admin sees a saved post (draft, scheduled or public) as visitors will: `${PREVIEW_PATH}/<id>`; a POST here shows the editor's unsaved form. */
export const PREVIEW_PATH = "/admin/preview/post";

/** How many posts a page of the blog's list shows. */
export const BLOG_PAGE_SIZE = 12;
/** The highest page number an address may name (and the longest search and category it may carry). */
export const MAX_BLOG_PAGE = 99_999;
export const MAX_BLOG_SEARCH = 200;
export const MAX_CATEGORY_SLUG = 60;

/**
 * From how many letters a searched word also finds the words it starts ("mon" finds "money");
 * a shorter one finds only itself ("tv"). The server's search and the page's "keep typing"
 * both ask searchesByPrefix.
 */
export const PREFIX_SEARCH_LETTERS = 3;

/** Whether a searched word also finds the words it starts (counted in letters, not UTF-16 units). */
export function searchesByPrefix(word: string): boolean {
  return [...word].length >= PREFIX_SEARCH_LETTERS;
}

/** Around each word a search found in a passage of a post's text (characters no text holds). */
export const MATCH_START = "\u0002";
export const MATCH_END = "\u0003";

/** The highest page the admin's post list may be asked for (a bound on the address, not a count). */
export const ADMIN_POSTS_MAX_PAGE = 100_000;
/** A page of the admin's post list as its address writes it: 1 to ADMIN_POSTS_MAX_PAGE, no leading zero. */
export const ADMIN_POSTS_PAGE_PATTERN = "^(?:[1-9]\\d{0,4}|100000)$";
/** The longest search the admin's post list takes. */
export const ADMIN_POSTS_MAX_SEARCH = 200;

/** `?page=` of the admin's post list as a number, or null when it is not one the list takes. */
export function readAdminPostsPage(value: string | null | undefined): number | null {
  return value != null && new RegExp(ADMIN_POSTS_PAGE_PATTERN).test(value) ? Number(value) : null;
}

/** A page number as an address writes it: a whole number from 1 to MAX_BLOG_PAGE, no leading zero; else null. */
export function blogPageNumber(value: string): number | null {
  return /^[1-9]\d{0,4}$/.test(value) ? Number(value) : null;
}
