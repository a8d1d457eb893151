/** Where the admin sees a saved post (draft, scheduled or public) as visitors will: `${PREVIEW_PATH}/<id>`; a POST here shows the editor's unsaved form. */
export const PREVIEW_PATH = "/admin/preview/post";

/** How many posts a page of the blog's list shows. */
export const BLOG_PAGE_SIZE = 12;
/** The highest page number an address may name (and the longest search and category it may carry). */
export const MAX_BLOG_PAGE = 99_999;
export const MAX_BLOG_SEARCH = 200;
export const MAX_CATEGORY_SLUG = 60;

/** Around each word a search found in a passage of a post's text (characters no text holds). */
export const MATCH_START = "\u0002";
export const MATCH_END = "\u0003";
