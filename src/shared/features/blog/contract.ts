import { type Static, Type } from "@sinclair/typebox";
import { createSelectSchema } from "drizzle-typebox";
import { blogCategories, blogPosts, blogRedirects } from "#server/features/blog/table.ts";
import { OptionalSiteImage, upTo } from "#shared/schema/common.ts";
import { insertSchema } from "#shared/schema/row-schemas.ts";
import type { Sent } from "#shared/schema/sent.ts";
import "#shared/schema/formats.ts";
import { ADMIN_POSTS_MAX_PAGE, ADMIN_POSTS_MAX_SEARCH, ADMIN_POSTS_PAGE_PATTERN } from "./constants.ts";

export { categoryColor, categoryLabel } from "./categories.ts";

// The tables (src/server/features/blog/table.ts) are the one declaration of a post's and a
// category's fields. Every shape here is derived from them: the admin's input adds the product's
// rules and messages where it has one, and the views are the stored row, sent.

const SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";

/** A category as stored and served. */
const CategoryRow = createSelectSchema(blogCategories);
export type BlogCategory = Static<typeof CategoryRow>;

/** A post as stored. */
const PostRow = createSelectSchema(blogPosts);

/**
 * A blog post as the API serves it (docs/product.md#blog-post-page): the stored row without the
 * Markdown, dates as ISO strings, and what is computed from it: the minutes it takes to read and
 * `date`, the date the site shows (its publish date, else when it was written). `publishAt` is
 * when a published post becomes public, or null: public as soon as it is published.
 */
export type BlogPost = Sent<Omit<Static<typeof PostRow>, "contentMarkdown" | "searchText">> & {
  readingMinutes: number;
  date: string;
};

/** What a list shows: no content, and nothing computed from it (a card shows no reading time). */
export type BlogPostSummary = Omit<
  BlogPost,
  "content" | "metaDescription" | "metaKeywords" | "published" | "publishAt" | "readingMinutes"
>;

/** A post in a search's results: also a passage of its text with the words found marked, when the text has them. */
export type FoundPost = BlogPostSummary & { passage?: string };

/**
 * One page of the blog's list (docs/product.md#blog-list): its posts, how many match in all,
 * and the page's number out of how many.
 */
export interface BlogPostsPage<Post = FoundPost> {
  posts: Post[];
  total: number;
  page: number;
  pages: number;
}

/** A post in content/blog/posts/*.md: front matter for its fields, the body for its content. */
export const SeedPost = Type.Object({
  title: Type.String({ minLength: 10, maxLength: 110 }),
  slug: Type.String({ pattern: SLUG_PATTERN, maxLength: 80 }),
  excerpt: Type.String({ minLength: 80, maxLength: 300 }),
  category: Type.Union([
    Type.Literal("getting-started"),
    Type.Literal("tips-and-tricks"),
    Type.Literal("platform-reviews"),
    Type.Literal("income-strategies"),
  ]),
  coverImage: Type.Union([Type.String({ pattern: "^/seed/blog/[a-z0-9-]+\\.(svg|jpg)$" }), Type.Null()]),
  content: Type.String({ minLength: 2000 }),
  metaDescription: Type.String({ minLength: 70, maxLength: 160 }),
  metaKeywords: Type.String({ minLength: 10, maxLength: 200 }),
  published: Type.Boolean(),
  createdAt: Type.String({ format: "date-time" }),
});
export type SeedPost = Static<typeof SeedPost>;

// The admin form and the admin API validate with these same schemas and their messages.

/** The post's text as the admin writes it in the editor: Markdown. */
const PostMarkdown = Type.String({
  minLength: 1,
  maxLength: 200_000,
  pattern: "\\S",
  error: "Content is required, at most 200,000 characters",
});

const Slug = (maxLength: number) =>
  Type.String({
    minLength: 1,
    maxLength,
    pattern: SLUG_PATTERN,
    error: "Slug is required: lower-case letters, digits and single hyphens",
  });

/**
 * What the API accepts: the Markdown (`contentMarkdown`), rendered and cleaned on save; or,
 * from clients written before the editor, the HTML itself (`content`), cleaned. One of the two.
 * The post's other columns with the product's rules; the ones the server sets are left out.
 */
export const PostInput = Type.Omit(
  insertSchema(blogPosts, {
    title: Type.String({ minLength: 1, maxLength: 200, error: "Title is required, at most 200 characters" }),
    slug: Slug(120),
    excerpt: upTo(500),
    category: upTo(60),
    coverImage: OptionalSiteImage(),
    content: Type.Optional(Type.String({ minLength: 1, maxLength: 200_000, error: "Content is required" })),
    contentMarkdown: Type.Optional(PostMarkdown),
    metaDescription: upTo(300),
    metaKeywords: upTo(300),
    published: Type.Boolean({ error: "Published must be true or false" }),
    /** When a published post becomes public (ISO date-time, UTC); absent or null: at once. */
    publishAt: () => Type.String({ format: "date-time", error: "Publish date must be a date and time" }),
  }),
  ["id", "createdAt", "updatedAt", "searchText"],
);
export type PostInput = Static<typeof PostInput>;

/** What the admin's post form sends: always the Markdown. */
export const PostFormInput = Type.Object({
  ...Type.Omit(PostInput, ["content", "contentMarkdown"]).properties,
  contentMarkdown: PostMarkdown,
});

/** A post as the admin API serves it: the public fields and the Markdown the editor opens. */
export type AdminBlogPost = BlogPost & {
  contentMarkdown: string;
  /** True when the post had only HTML (saved before the editor) and the Markdown is its conversion. */
  convertedFromHtml: boolean;
};

export const CategoryInput = Type.Omit(
  insertSchema(blogCategories, {
    // At least one character that shows: not only spaces or zero-width characters.
    name: Type.String({
      minLength: 1,
      maxLength: 60,
      pattern: "[^\\s\\u200b-\\u200f\\u2060\\ufeff]",
      error: "Name is required, at most 60 characters",
    }),
    slug: Slug(60),
  }),
  ["id"],
);
export type CategoryInput = Static<typeof CategoryInput>;

/** An old address that forwards (src/server/features/blog/redirects.ts), as the admin API serves it. */
const RedirectRow = createSelectSchema(blogRedirects);
export type BlogRedirect = Sent<Static<typeof RedirectRow>>;

// The admin's post list (docs/decisions/088-admin-post-list-pages.md): one page at a time, searched
// by the server, and never a post's text; the editor asks for its post by id.

/** The admin list's query string: `page` (1-based; absent: the first) and `q` (in the title or the slug, any case). */
export const AdminPostsQuery = Type.Object({
  page: Type.Optional(
    Type.String({
      pattern: ADMIN_POSTS_PAGE_PATTERN,
      error: `page must be a whole number from 1 to ${ADMIN_POSTS_MAX_PAGE.toLocaleString("en-US")}`,
    }),
  ),
  q: Type.Optional(
    Type.String({
      maxLength: ADMIN_POSTS_MAX_SEARCH,
      error: `q (the search) must be at most ${ADMIN_POSTS_MAX_SEARCH} characters`,
    }),
  ),
});

/** A row of the admin's post list: what it shows, dates as ISO strings, and `date`, the date the site shows. */
export type AdminPostRow = Pick<
  BlogPost,
  "id" | "title" | "slug" | "category" | "published" | "publishAt" | "createdAt" | "updatedAt" | "date"
>;

/** One page of the admin's post list: its rows, how many posts match in all, and the pages they fill. */
export interface AdminPostPage {
  posts: AdminPostRow[];
  total: number;
  /** The page asked for: past the last one, `posts` is empty and `total` and `pages` still tell. */
  page: number;
  pages: number;
  pageSize: number;
}
