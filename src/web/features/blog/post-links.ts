import { postPlacedHref } from "#shared/features/links/constants.ts";

// The managed links (/go/<slug>) inside a post's stored HTML, as the sanitiser leaves them:
// <a href="/go/<slug>" [title="…"] target="_blank" rel="sponsored noopener">. Each is an
// affiliate link, so it gets what every other affiliate link on the site has
// (docs/product.md#affiliate-disclosure): the post as its placement, the words "opens in a new
// tab" for screen readers, and the visible label right after it, which the link names.
const MANAGED_LINK = /<a href="(\/go\/[a-z0-9-]{1,64})"([^>]*)>([\s\S]*?)<\/a>/g;

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The post's HTML with each managed link placed in the post and labelled (`label`: the affiliate label's wording). */
export function labelManagedLinks(html: string, postSlug: string, label: string): string {
  let count = 0;
  return html.replace(MANAGED_LINK, (_link, href: string, rest: string, text: string) => {
    const id = `post-affiliate-${++count}`;
    return (
      `<a href="${postPlacedHref(href, postSlug)}"${rest} aria-describedby="${id}">${text}` +
      `<span class="visually-hidden"> (opens in a new tab)</span></a>` +
      ` <span id="${id}" class="affiliate-label">${escapeText(label)}</span>`
    );
  });
}
