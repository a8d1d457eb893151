import sanitizeHtml from "sanitize-html";
import { HttpError } from "#server/plugins/errors.ts";
import { sanitizePostHtml } from "./sanitize.ts";

// The site's security policy shows images from this site and data: only (img-src 'self' data:
// blob:). An image from another website in a post, a site page or an offer's description
// would be saved and then never shown, so saving it is refused with the address named.
// What is read is every attribute a browser loads an image or media file from, on any
// element the author wrote (the sanitiser drops most of them silently) and in the cleaned
// HTML that is stored and served.

// Two origins that stand for "this site": an address counts as this site's only if it stays
// on the same origin whatever scheme the site is reached over ("https:x" is a path on an
// https site but the host x on an http one).
const SITE_BASES = ["https://this-site.invalid/a/page", "http://this-site.invalid/a/page"].map((base) => new URL(base));

/**
 * True when a browser would fetch this image address from anywhere but this site: an absolute
 * address, //host, /\host, a scheme hidden by tabs, line breaks or leading control characters
 * (which URL parsing drops), javascript:, blob: and an address that does not parse at all.
 * Paths on this site (relative ones too) and data: images are shown.
 */
export function imageOffSite(address: string): boolean {
  for (const base of SITE_BASES) {
    let url: URL;
    try {
      url = new URL(address, base);
    } catch {
      return true;
    }
    if (url.protocol === "data:") return false;
    if (url.origin !== base.origin) return true;
  }
  return false;
}

/**
 * The addresses in a srcset (or imagesrcset) value, read generously: every run of characters
 * between white space and commas. Each address a browser takes from the list starts such a
 * run, and the run holds its scheme and host, so no candidate is missed however the list is
 * spaced, broken over lines or punctuated; a data: address split at its comma reads as data:
 * and a relative path.
 */
export function srcsetAddresses(value: string): string[] {
  return value.split(/[\t\n\f\r ,]+/).filter((part) => part !== "");
}

/** A CSS escape's character: U+FFFD for zero, a surrogate or beyond Unicode, as CSS reads them. */
const cssCharacter = (code: number) =>
  String.fromCodePoint(code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? 0xfffd : code);

/** The addresses in CSS text (a style attribute): url(...) and image-set("...") values, escapes decoded. */
function cssAddresses(css: string): string[] {
  const text = css
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\\([0-9a-f]{1,6})[\t\n\f\r ]?/gi, (_, hex: string) => cssCharacter(Number.parseInt(hex, 16)))
    .replace(/\\(.)/g, "$1");
  const found: string[] = [];
  for (const match of text.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)/gi))
    found.push(match[1] ?? match[2] ?? match[3] ?? "");
  for (const match of text.matchAll(/image(?:-set)?\(([^)]*)\)/gi))
    for (const quoted of match[1]!.matchAll(/"([^"]*)"|'([^']*)'/g)) found.push(quoted[1] ?? quoted[2] ?? "");
  return found;
}

// Elements whose src is a frame or a script, not an image: the sanitiser keeps frames only
// from the video players and never a script.
const NOT_IMAGE_SRC = new Set(["iframe", "frame", "script"]);
// SVG elements whose href (or xlink:href) is an image.
const SVG_IMAGES = new Set(["image", "feimage"]);

/** Every address in one element's attributes that a browser would load as an image or media file. */
function elementImageAddresses(tag: string, attribs: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(attribs)) {
    if (name === "srcset" || name === "imagesrcset") found.push(...srcsetAddresses(value));
    else if (name === "src" && !NOT_IMAGE_SRC.has(tag)) found.push(value);
    else if (name === "poster" || name === "background" || name === "lowsrc") found.push(value);
    else if (name === "data" && tag === "object") found.push(value);
    else if ((name === "href" || name === "xlink:href") && SVG_IMAGES.has(tag)) found.push(value);
    else if (name === "style") found.push(...cssAddresses(value));
  }
  return found;
}

/** Every image or media address in a piece of HTML, on any element, as a browser would read the attributes. */
export function imageAddresses(html: string): string[] {
  const found: string[] = [];
  // Only reads: every element is kept so its attributes are seen, and the output is dropped.
  sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags: {
      "*": (tagName, attribs) => {
        found.push(...elementImageAddresses(tagName.toLowerCase(), attribs));
        return { tagName, attribs };
      },
    },
  });
  return found;
}

/**
 * The first image address in `html` the site's security policy would block: in the HTML as
 * written (what the author meant to show) or in its cleaned form (what would be served).
 */
export function offSiteImage(html: string): string | undefined {
  return [...imageAddresses(html), ...imageAddresses(sanitizePostHtml(html))].find(imageOffSite);
}

/**
 * Refuses HTML that shows an image from another website, with a 422 at `field` naming the
 * address: "Images in the <where> must be uploaded here: ...".
 */
export function refuseOffSiteImages(html: string, field: string, where: string): void {
  const address = offSiteImage(html);
  if (address === undefined) return;
  // The address as the author would recognise it: on one line, at most 100 characters.
  const shown = address
    .replace(/\p{Cc}+/gu, " ")
    .trim()
    .slice(0, 100);
  throw new HttpError(422, "Some fields are missing or invalid.", [
    {
      field,
      message: `Images in the ${where} must be uploaded here: the site's security policy blocks images from other websites (${shown})`,
    },
  ]);
}
