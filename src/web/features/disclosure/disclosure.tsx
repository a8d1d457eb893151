import { createContext, useContext } from "react";
import { DISCLOSURE_HREF, type DisclosureWording, disclosureWording } from "#shared/features/disclosure/constants.ts";
import { useSettings } from "#web/features/settings/queries.ts";
import { showsPromoBanner } from "#web/layout/nav-paths.ts";

// Affiliate labels and the page's disclosure note (docs/product.md#affiliate-disclosure).
// Each affiliate link carries a visible label that its link names with aria-describedby; each
// page shows the note once, with the first affiliate block the server renders.

/**
 * The wording every label and note shows: the operator's wording from the settings read, with
 * each blank part at its default (disclosureWording), so a label is never removed. React
 * renders it as text, never as HTML.
 */
export function useDisclosureWording(): DisclosureWording {
  return disclosureWording(useSettings().disclosureWording);
}

/** A visible "Sponsored" or "Affiliate link" label; the link it sits next to names its id in aria-describedby. */
export function AffiliateLabel({ id, kind }: { id: string; kind: "sponsored" | "affiliate" }) {
  const wording = useDisclosureWording();
  return (
    <span id={id} className="affiliate-label">
      {kind === "sponsored" ? wording.sponsored : wording.affiliate}
    </span>
  );
}

/**
 * Where a page's note goes: under the promotional banner on the pages that show it, with the
 * platform buttons on the pages whose content starts its affiliate links with them, else by
 * the footer's platform links (an offer card, loaded in the browser, takes it from the footer).
 */
export type DisclosureSpot = "top" | "content" | "footer";

/** Pages whose server-rendered content shows platform buttons before any other affiliate link. */
const CONTENT_PATHS = new Set(["/learn", "/resources"]);

export function disclosureSpot(pathname: string): DisclosureSpot {
  if (showsPromoBanner(pathname)) return "top";
  if (CONTENT_PATHS.has(pathname)) return "content";
  return "footer";
}

export const DisclosureSpotContext = createContext<DisclosureSpot>("footer");

/**
 * The page's short disclosure note, shown only at the page's spot. An offer card ("offer")
 * shows it where the footer would, and the footer's copy is then hidden by the stylesheet.
 */
export function AffiliateDisclosure({ at }: { at: DisclosureSpot | "offer" }) {
  const spot = useContext(DisclosureSpotContext);
  const wording = useDisclosureWording();
  if (at !== spot && !(at === "offer" && spot === "footer")) return null;
  // In an offer card's header, beside its label: one short line, so the card stays compact.
  if (at === "offer")
    return (
      <span className="affiliate-disclosure offer-note">
        {wording.offerNote} <a href={DISCLOSURE_HREF}>{wording.offerLinkText}</a>
      </span>
    );
  return (
    <p className="affiliate-disclosure">
      {wording.note} {/* A full page load, so the browser lands on the section. */}
      <a href={DISCLOSURE_HREF}>{wording.linkText}</a>
    </p>
  );
}
