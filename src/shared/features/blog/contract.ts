import { type Static, Type } from "@sinclair/typebox";
import { OptionalSiteImage, OptionalText } from "#shared/schema/common.ts";
import "#shared/schema/formats.ts";

export { categoryColor, categoryLabel } from "./categories.ts";

export const BlogCategory = Type.Object({
  id: Type.Integer(),
  name: Type.String({ minLength: 1, maxLength: 60, error: "Name is required, at most 60 characters" }),
  slug: Type.String({ minLength: 1, maxLength: 60, pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$", error: "Slug is required" }),
});
export type BlogCategory = Static<typeof BlogCategory>;

const SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";

/** A blog post as the API serves it (docs/product.md#blog-post-page). Dates are ISO strings. */
export const BlogPost = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  slug: Type.String(),
  excerpt: Type.Union([Type.String(), Type.Null()]),
  category: Type.Union([Type.String(), Type.Null()]),
  coverImage: Type.Union([Type.String(), Type.Null()]),
  content: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  metaDescription: Type.Union([Type.String(), Type.Null()]),
  metaKeywords: Type.Union([Type.String(), Type.Null()]),
  published: Type.Boolean(),
  readingMinutes: Type.Integer(),
  /** When a published post becomes public (ISO), or null: public as soon as it is published. */
  publishAt: Type.Union([Type.String(), Type.Null()]),
  /** The date the site shows for the post: its publish date, else when it was written. */
  date: Type.String(),
});
export type BlogPost = Static<typeof BlogPost>;

/** What the list needs: no content. */
export type BlogPostSummary = Pick<
  BlogPost,
  | "id"
  | "title"
  | "slug"
  | "excerpt"
  | "category"
  | "coverImage"
  | "createdAt"
  | "updatedAt"
  | "readingMinutes"
  | "date"
>;

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

const postFields = {
  title: Type.String({ minLength: 1, maxLength: 200, error: "Title is required, at most 200 characters" }),
  slug: Type.String({
    minLength: 1,
    maxLength: 120,
    pattern: SLUG_PATTERN,
    error: "Slug is required: lower-case letters, digits and single hyphens",
  }),
  excerpt: OptionalText(500),
  category: Type.Optional(Type.Union([Type.String({ maxLength: 60 }), Type.Null()])),
  coverImage: OptionalSiteImage(),
  published: Type.Boolean({ error: "Published must be true or false" }),
  metaDescription: OptionalText(300),
  metaKeywords: OptionalText(300),
  /** When a published post becomes public (ISO date-time, UTC); absent or null: at once. */
  publishAt: Type.Optional(
    Type.Union([Type.String({ format: "date-time", error: "Publish date must be a date and time" }), Type.Null()]),
  ),
};

/**
 * What the API accepts: the Markdown (`contentMarkdown`), rendered and cleaned on save; or,
 * from clients written before the editor, the HTML itself (`content`), cleaned. One of the two.
 */
export const PostInput = Type.Object({
  ...postFields,
  contentMarkdown: Type.Optional(PostMarkdown),
  content: Type.Optional(Type.String({ minLength: 1, maxLength: 200_000, error: "Content is required" })),
});
export type PostInput = Static<typeof PostInput>;

/** What the admin's post form sends: always the Markdown. */
export const PostFormInput = Type.Object({ ...postFields, contentMarkdown: PostMarkdown });

/** A post as the admin API serves it: the public fields and the Markdown the editor opens. */
export type AdminBlogPost = BlogPost & {
  contentMarkdown: string;
  /** True when the post had only HTML (saved before the editor) and the Markdown is its conversion. */
  convertedFromHtml: boolean;
};

export const CategoryInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60, error: "Name is required, at most 60 characters" }),
  slug: Type.String({
    minLength: 1,
    maxLength: 60,
    pattern: SLUG_PATTERN,
    error: "Slug is required: lower-case letters, digits and single hyphens",
  }),
});
export type CategoryInput = Static<typeof CategoryInput>;
