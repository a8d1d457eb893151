import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { HttpError } from "#server/plugins/errors.ts";
import { MAX_IMAGE_PIXELS, VARIANT_WIDTHS } from "#shared/features/media/constants.ts";
import { uploadIdOf } from "./name-lock.ts";
import type { MediaVariant } from "./table.ts";
import { temporaryName } from "./uploads.ts";

/** The file name of an image's smaller copy `width` pixels wide. */
const variantName = (name: string, width: number) => `${uploadIdOf(name)}-w${width}.webp`;

/** Refusals of an image the server cannot or will not read, each a 4xx. */
function imageRefusal(error: unknown): HttpError {
  const code = (error as { code?: string }).code;
  if (code === "ERR_IMAGE_TOO_MANY_PIXELS")
    return new HttpError(
      413,
      `This image has too many pixels (at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels); make it smaller and upload it again.`,
    );
  return new HttpError(422, "This image could not be read (it may be damaged); nothing was stored.");
}

export interface Measured {
  width: number;
  height: number;
  variants: MediaVariant[];
}

/**
 * Reads an image's size and writes its smaller WebP copies beside it (never wider than it).
 * Decoding, resizing and encoding run on Bun's worker threads. GIFs keep only their size
 * (a copy would lose the animation). Throws a 4xx for a damaged image or one with too many
 * pixels, having removed any copy it wrote. The caller holds the upload's name.
 */
export async function measureImage(dir: string, name: string): Promise<Measured> {
  const bytes = await Bun.file(join(dir, name)).bytes();
  const written: string[] = [];
  try {
    const meta = await new Bun.Image(bytes, { maxPixels: MAX_IMAGE_PIXELS }).metadata();
    const variants: MediaVariant[] = [];
    if (meta.format !== "gif") {
      // A photo's EXIF orientation is applied: the copies are as the browser shows the original.
      for (const width of VARIANT_WIDTHS) {
        if (width >= meta.width) break;
        const image = new Bun.Image(bytes, { maxPixels: MAX_IMAGE_PIXELS }).resize(width, undefined, {
          fit: "inside",
          withoutEnlargement: true,
        });
        const out = await image.webp({ quality: 80 }).bytes();
        const file = variantName(name, width);
        // Under a temporary name first: a copy cut short by a crash is never served.
        const temp = join(dir, temporaryName());
        try {
          await Bun.write(temp, out);
          renameSync(temp, join(dir, file));
        } finally {
          rmSync(temp, { force: true });
        }
        written.push(file);
        variants.push({ name: file, width: image.width, height: image.height, size: out.length });
      }
    }
    // Reading the header is not reading the image: one with no copies is decoded whole once
    // (into a tiny placeholder), so a damaged file is refused like any other.
    if (variants.length === 0) await new Bun.Image(bytes, { maxPixels: MAX_IMAGE_PIXELS }).placeholder();
    // The original as shown: a rotated photo's copies have its shown proportions.
    const turned = variants[0] && variants[0].width < variants[0].height !== meta.width < meta.height;
    return {
      width: turned ? meta.height : meta.width,
      height: turned ? meta.width : meta.height,
      variants,
    };
  } catch (error) {
    for (const file of written) rmSync(join(dir, file), { force: true });
    // A codec's refusal is the image's fault (4xx); anything else (a full disk) is not.
    if (!String((error as { code?: string }).code ?? "").startsWith("ERR_IMAGE")) throw error;
    throw imageRefusal(error);
  }
}
