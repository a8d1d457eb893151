import type { ImgHTMLAttributes } from "react";
import type { ImageFit } from "#shared/features/media/constants.ts";

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "srcSet" | "sizes" | "alt"> & {
  src: string;
  /** Empty for a decorative image. */
  alt: string;
  /** The size and smaller copies the library recorded; without it the given width and height stay. */
  fit?: ImageFit | null;
  /** How wide the image shows in the layout (IMAGE_SIZES), for the browser to pick a copy. */
  sizes: string;
};

/** An <img> of an upload at a size fit for where it appears: srcset, sizes, width and height. */
export function FitImage({ src, alt, fit, sizes, width, height, ...rest }: Props) {
  return (
    <img
      src={src}
      alt={alt}
      srcSet={fit?.srcset || undefined}
      sizes={fit?.srcset ? sizes : undefined}
      width={fit?.width ?? width}
      height={fit?.height ?? height}
      {...rest}
    />
  );
}
