import sanitizeHtml from "sanitize-html";
import { GO_PREFIX } from "#shared/features/links/constants.ts";
import { byText } from "./text-memo.ts";

/** A managed link as written in a post: /go/<slug>, with or without a query or fragment. */
const MANAGED_LINK = /^\/go\/([a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63})(?:[?#][\s\S]*)?$/;

// Blog HTML is cleaned with an allow-list before it is stored and before it
// is rendered. No scripts, no event handlers, no javascript: URLs; frames only from the
// YouTube privacy-enhanced player and Vimeo's player.
const FRAME_HOSTS = ["www.youtube-nocookie.com", "www.youtube.com", "player.vimeo.com"];

/**
 * The attributes kept, by element. An attribute that holds an address must also be read by
 * the image check in content-images.ts when it can show an image (sanitize.test.ts fails on
 * one added here that nobody has classified).
 */
export const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ["href", "title", "rel", "target"],
  img: ["src", "srcset", "sizes", "alt", "title", "width", "height", "loading"],
  iframe: ["src", "title", "width", "height", "allow", "allowfullscreen", "loading"],
  th: ["colspan", "rowspan", "scope"],
  td: ["colspan", "rowspan"],
};

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "pre",
    "code",
    "ul",
    "ol",
    "li",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "sub",
    "sup",
    "small",
    "mark",
    "a",
    "img",
    "figure",
    "figcaption",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "caption",
    "iframe",
  ],
  allowedAttributes: ALLOWED_ATTRIBUTES,
  allowedSchemes: ["https", "http", "mailto"],
  allowedSchemesByTag: { img: ["https", "http", "data"] },
  allowProtocolRelative: false,
  allowedIframeHostnames: FRAME_HOSTS,
  transformTags: {
    // A managed link (/go/<slug>) is an affiliate link: it opens in a new tab, marked sponsored,
    // its address reduced to the link itself (the page adds the placement and the label).
    // Outbound links open safely; links elsewhere are marked as not endorsed.
    a: (tagName, attribs) => {
      const managed = MANAGED_LINK.exec(attribs.href ?? "");
      if (managed)
        return {
          tagName,
          attribs: {
            href: `${GO_PREFIX}${managed[1]}`,
            ...(attribs.title ? { title: attribs.title } : {}),
            target: "_blank",
            rel: "sponsored noopener",
          },
        };
      const external = /^https?:\/\//i.test(attribs.href ?? "");
      return {
        tagName,
        attribs: external ? { ...attribs, target: "_blank", rel: "noopener noreferrer nofollow" } : attribs,
      };
    },
    // An image without a description is treated as decorative, so screen readers skip it.
    img: (tagName, attribs) => ({ tagName, attribs: { alt: "", ...attribs, loading: "lazy" } }),
    // YouTube frames always use the privacy-enhanced domain.
    iframe: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...attribs,
        src: (attribs.src ?? "").replace(
          /^https:\/\/www\.youtube\.com\/embed\//,
          "https://www.youtube-nocookie.com/embed/",
        ),
        loading: "lazy",
      },
    }),
  },
  exclusiveFilter: (frame) => frame.tag === "iframe" && !/^https:\/\//.test(frame.attribs.src ?? ""),
};

export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/**
 * Stored HTML as it is shown: cleaned again on the way out, so a row written by other means (a
 * restore, by hand) is as safe as one the editor saved. The same text is cleaned once (byText),
 * so a page rendered per request no longer pays the sanitiser each time.
 */
export const cleanStoredHtml = byText((html) => sanitizeHtml(html, OPTIONS));

/** The src of every <img> in a piece of HTML, as a browser would read it. */
export const imageSources = byText(function imageSources(html: string): readonly string[] {
  const sources: string[] = [];
  sanitizeHtml(html, {
    allowedTags: ["img"],
    allowedAttributes: { img: ["src"] },
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: [],
    transformTags: {
      img: (tagName, attribs) => {
        if (attribs.src !== undefined) sources.push(attribs.src);
        return { tagName, attribs };
      },
    },
  });
  return sources;
});
