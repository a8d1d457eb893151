// Plain values public pages may import (no schema library).

/** An image's intrinsic size and its smaller copies, for an <img>'s width, height and srcset. */
export interface ImageFit {
  width: number;
  height: number;
  /** "url 480w, url 960w, …, original Nw"; empty when the image has no smaller copies. */
  srcset: string;
}

/** The widths (CSS pixels) smaller WebP copies of an uploaded image are made at, never wider than it. */
export const VARIANT_WIDTHS = [480, 960, 1600] as const;

/** The largest image accepted, in pixels (width × height): 40 megapixels. */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** What `sizes` says for each place an image appears (its width in the layout). */
export const IMAGE_SIZES = {
  /** A post's body, and its cover on the post page: the reading column. */
  article: "(min-width: 800px) 736px, 100vw",
  /** A post card in the blog's grid. */
  card: "(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw",
  /** An offer's picture in a lesson. */
  offer: "(min-width: 860px) 400px, 100vw",
  /** A product's picture in the starter kit. */
  product: "(min-width: 640px) 240px, 50vw",
} as const;

/** A post (or its summary) as public reads serve it: the cover's size and smaller copies. */
export interface CoverFit {
  coverFit?: ImageFit | null;
}

/** An offer or product as public reads serve it: its picture's size and smaller copies. */
export interface ImageUrlFit {
  imageFit?: ImageFit | null;
}
