import type { Db } from "#server/db/types.ts";
import { imageSources } from "#server/lib/sanitize.ts";
import { type CoverFit, IMAGE_SIZES, type ImageFit, type ImageUrlFit } from "#shared/features/media/constants.ts";
import { imageFits } from "./service.ts";

// What public reads add to the images they name: the size the library recorded and the
// smaller copies, so pages set width, height, srcset and sizes.

/** Posts (or summaries) with their cover's size and copies. */
export async function withCoverFits<T extends { coverImage: string | null }>(
  db: Db,
  posts: T[],
): Promise<(T & CoverFit)[]> {
  const fits = await fitsOf(db, posts, (p) => p.coverImage);
  return posts.map((p, i) => ({ ...p, coverFit: fits[i] }));
}

/** Offers or products with their picture's size and copies. */
export async function withImageFits<T extends { imageUrl?: string | null }>(
  db: Db,
  items: T[],
): Promise<(T & ImageUrlFit)[]> {
  const fits = await fitsOf(db, items, (i) => i.imageUrl);
  return items.map((item, i) => ({ ...item, imageFit: fits[i] }));
}

/** The size and copies of each item's image, in the items' order (null where it is no known upload), in one query. */
async function fitsOf<T>(
  db: Db,
  items: T[],
  image: (item: T) => string | null | undefined,
): Promise<(ImageFit | null)[]> {
  const sources = items.map(image);
  const fits = await imageFits(db, sources);
  return sources.map((source) => (source && fits.get(source)) || null);
}

/** A post with its cover's size and copies, and each uploaded image in its content given width, height and srcset. */
export async function withPostFits<T extends { coverImage: string | null; content: string }>(
  db: Db,
  post: T,
): Promise<T & CoverFit> {
  const fits = await imageFits(db, [post.coverImage, ...imageSources(post.content)]);
  return {
    ...post,
    content: fitImagesInHtml(post.content, fits, IMAGE_SIZES.article),
    coverFit: (post.coverImage && fits.get(post.coverImage)) || null,
  };
}

const IMG = /<img\b[^>]*>/gi;
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag)?.[1];

/**
 * Sanitised HTML with each <img> of a known upload given its width and height (when it has
 * none) and its srcset and sizes (when it has copies and no srcset of its own). The HTML is
 * the sanitiser's output, so attributes are double-quoted and a quote inside one is escaped.
 */
function fitImagesInHtml(html: string, fits: Map<string, ImageFit>, sizes: string): string {
  if (fits.size === 0) return html;
  return html.replace(IMG, (tag) => {
    const src = attribute(tag, "src");
    const fit = src && fits.get(src);
    if (!fit) return tag;
    const extra: string[] = [];
    if (attribute(tag, "width") === undefined && attribute(tag, "height") === undefined)
      extra.push(`width="${fit.width}"`, `height="${fit.height}"`);
    if (fit.srcset && attribute(tag, "srcset") === undefined) extra.push(`srcset="${fit.srcset}"`, `sizes="${sizes}"`);
    if (extra.length === 0) return tag;
    return tag.replace(/^<img\b/i, `<img ${extra.join(" ")}`);
  });
}
