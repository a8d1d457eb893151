// Managed affiliate links: every outbound affiliate link on the site is an address on this
// site, /go/<slug>?p=<placement>, that the server answers with a redirect to the link's
// destination (docs/product.md#managed-links). Plain values: public pages import them.

/** The path every managed link starts with. */
export const GO_PREFIX = "/go/";

/** Where on the site a link was placed, and the page a visitor is sent back to when its link is off. */
export const PLACEMENT_PAGES = {
  footer: "/",
  banner: "/",
  "quiz-result": "/quiz",
  "tier-result": "/quiz/earnings",
  resources: "/resources",
  learn: "/learn",
  offer: "/learn",
  "starter-kit": "/quiz/starter-kit",
} as const;

export type Placement = keyof typeof PLACEMENT_PAGES;

/** A link inside a post is placed in that post: "post:<the post's slug>". */
const POST_PLACEMENT = "post:";

/** A post's slug as a placement names it (letters, digits and single hyphens), or null. */
export function placementPost(placement: string | null | undefined): string | null {
  if (!placement?.startsWith(POST_PLACEMENT)) return null;
  const slug = placement.slice(POST_PLACEMENT.length);
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) && slug.length <= 120 ? slug : null;
}

/** The page a placement names (a post's own page for a link in it); the home page for a placement the site does not know. */
export function placementPage(placement: string | null | undefined): string {
  const post = placementPost(placement);
  if (post) return `/blog/${post}`;
  return Object.hasOwn(PLACEMENT_PAGES, placement ?? "") ? PLACEMENT_PAGES[placement as Placement] : "/";
}

/** The managed link's address (from a public read) with the placement it is shown in. */
export function placedHref(href: string, placement: Placement): string {
  return `${href}?p=${placement}`;
}

/** A managed link's address inside the post with this slug. */
export function postPlacedHref(href: string, postSlug: string): string {
  return `${href}?p=${POST_PLACEMENT}${postSlug}`;
}

/** Each placement's name as the admin reads it ("" is a click without a placement). */
const PLACEMENT_LABELS: Record<Placement | "", string> = {
  footer: "Footer",
  banner: "Promotional banner",
  "quiz-result": "Quiz result page",
  "tier-result": "Earnings result page",
  resources: "Resources page",
  learn: "Course pages",
  offer: "Offer cards",
  "starter-kit": "Starter kit",
  "": "No placement",
};

/** A placement's readable name; one the site does not know is shown as it was counted. */
export function placementLabel(placement: string): string {
  const post = placementPost(placement);
  if (post) return `Post: ${post}`;
  return Object.hasOwn(PLACEMENT_LABELS, placement) ? PLACEMENT_LABELS[placement as Placement] : placement;
}
