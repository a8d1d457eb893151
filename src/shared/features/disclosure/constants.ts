// The affiliate disclosure's wording and where it points (docs/product.md#affiliate-disclosure).
// Every label and note on the site reads its text from here, through useDisclosureWording().

/** The id of the terms page's affiliate disclosure section: the note's link lands on it. */
export const DISCLOSURE_ANCHOR = "affiliate-disclosure";

/** Where the page note's link goes. */
export const DISCLOSURE_HREF = `/terms#${DISCLOSURE_ANCHOR}`;

export interface DisclosureWording {
  /** The label on offer cards and the promotional banner. */
  sponsored: string;
  /** The label next to platform buttons, footer platform links and product links. */
  affiliate: string;
  /** The short note near a page's first affiliate link. */
  note: string;
  /** The text of the note's link to the terms page's disclosure section. */
  linkText: string;
  /** The note's one-line form in an offer card's header, where the lesson must stay on the first screen. */
  offerNote: string;
  /** Its link's text. */
  offerLinkText: string;
}

export const DEFAULT_DISCLOSURE_WORDING: DisclosureWording = {
  sponsored: "Sponsored",
  affiliate: "Affiliate link",
  note: "We earn a commission if you sign up or buy through links marked {affiliate} or {sponsored}, at no cost to you. Our advice is not for sale.",
  linkText: "Read our affiliate disclosure",
  offerNote: "We earn a commission.",
  offerLinkText: "Disclosure",
};

/**
 * The wording to show, given the operator's (possibly partial or blank) choice: a blank or
 * missing part falls back to the default, so a label can be reworded but never removed.
 */
export function disclosureWording(custom: Partial<DisclosureWording> | null | undefined): DisclosureWording {
  const pick = (key: keyof DisclosureWording) => custom?.[key]?.trim() || DEFAULT_DISCLOSURE_WORDING[key];
  const sponsored = pick("sponsored");
  const affiliate = pick("affiliate");
  // The notes name the labels through {sponsored} and {affiliate}, so a reworded label is
  // the word the note tells visitors to look for.
  const labels = (text: string) => text.replaceAll("{sponsored}", sponsored).replaceAll("{affiliate}", affiliate);
  return {
    sponsored,
    affiliate,
    note: labels(pick("note")),
    linkText: pick("linkText"),
    offerNote: labels(pick("offerNote")),
    offerLinkText: pick("offerLinkText"),
  };
}
