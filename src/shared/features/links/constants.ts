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

/** The page a placement names; the home page for a placement the site does not know. */
export function placementPage(placement: string | null | undefined): string {
  return Object.hasOwn(PLACEMENT_PAGES, placement ?? "") ? PLACEMENT_PAGES[placement as Placement] : "/";
}

/** The managed link's address (from a public read) with the placement it is shown in. */
export function placedHref(href: string, placement: Placement): string {
  return `${href}?p=${placement}`;
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
  return Object.hasOwn(PLACEMENT_LABELS, placement) ? PLACEMENT_LABELS[placement as Placement] : placement;
}
