import { type Static, Type } from "@sinclair/typebox";
import { siteSettings } from "#server/features/settings/table.ts";
import { LinkChoiceFields } from "#shared/features/links/contract.ts";
import { firstInvisible } from "#shared/invisible.ts";
import { hostProblem } from "#shared/public-host.ts";
import { READABLE_TEXT_FORMAT, SHOWN_TEXT_FORMAT } from "#shared/schema/formats.ts";
import { insertSchema } from "#shared/schema/row-schemas.ts";
import { MAX_RESULT_RETENTION_DAYS } from "./result-retention.ts";

const HttpUrl = Type.String({
  pattern: "^https?://[^\\s]+$",
  maxLength: 2048,
  error: "Must be a valid URL",
});

const Platform = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60, error: "Platform name is required, at most 60 characters" }),
  url: HttpUrl,
  // The admin's pick of a managed link; with `linkSlug` the server keeps the link's destination in `url`.
  ...LinkChoiceFields,
});

/** An email address, an http(s) address, or nothing. */
const OPERATOR_CONTACT_PATTERN = '^(|[^\\s@<>"]+@[^\\s@<>"]+\\.[^\\s@<>"]+|https?://[^\\s<>"]+)$';

/**
 * The message at a text field of the settings: the invisible character named when there is one
 * (one pasted right-to-left override would reverse the text shown after it, the "results vary"
 * note included), else what the field takes.
 */
const textError =
  (what: string, takes: string) =>
  ({ value }: { value?: unknown }): string => {
    const hidden = typeof value === "string" ? firstInvisible(value, { prose: true }) : null;
    return hidden ? `${what} contains an invisible or direction-changing character (${hidden}): remove it` : takes;
  };

/** A claim the site makes about itself: plain text up to `maxLength` characters, or empty to hide it. */
const Claim = (what: string, maxLength: number) =>
  Type.String({
    maxLength,
    format: SHOWN_TEXT_FORMAT,
    error: textError(
      what,
      `${what} must be plain text of at most ${maxLength} characters, with no control or invisible characters (leave it empty to hide it)`,
    ),
  });

/**
 * A part of the disclosure wording: plain text up to `maxLength` characters with at least two
 * letters or digits (so no label renders blank), or empty for the default.
 */
const WordingPart = (what: string, maxLength: number) =>
  Type.Optional(
    Type.String({
      maxLength,
      format: READABLE_TEXT_FORMAT,
      error: textError(
        what,
        `${what} must be plain text of at most ${maxLength} characters with at least two letters or digits, and no control or invisible characters (leave it empty for the default)`,
      ),
    }),
  );

/**
 * The row's own fields the settings form edits, derived from the table: the brand, the banner's
 * platform, the claims and the disclosure wording. The columns other parts of Settings save
 * (the public address, the schedules, the retention) and the platforms' columns (nested below)
 * are left out.
 */
const { brandName, ...ownFields } = Type.Omit(
  insertSchema(siteSettings, {
    brandName: Type.String({ minLength: 1, maxLength: 60, error: "Brand name is required, at most 60 characters" }),
    bannerPlatform: Type.Union([Type.Literal("a"), Type.Literal("b")], {
      error: "Banner platform must be 'a' or 'b'",
    }),
    /** The home page's figure for the potential monthly income of top performers, such as "$10k+". */
    incomeFigure: Claim("The income figure", 20),
    /** The home page's figure for how many cam models the site has helped, such as "10,000+". */
    modelsHelpedFigure: Claim("The models-helped figure", 20),
    /** The home page's testimonial, without quotation marks: empty hides the whole testimonial. */
    testimonialQuote: Claim("The testimonial", 600),
    /** Who the testimonial is from, such as "Jess, Girl Next Door archetype". */
    testimonialAttribution: Claim("The testimonial's author", 100),
    /** The banner's second sentence; `{platform}` stands for the banner platform's name. */
    bannerClaim: Claim("The banner claim", 200),
    /** The graduation page's discount code (letters, digits, - and _); empty hides the discount gift. */
    giftDiscountCode: Type.String({
      maxLength: 40,
      pattern: "^[A-Za-z0-9_-]*$",
      error: "The discount code takes letters, digits, - and _ (at most 40), or leave it empty to hide the gift",
    }),
    /** Where the code works, such as a shop's name. */
    giftDiscountPartner: Claim("Where the code works", 60),
    /** What the code takes off, in percent. */
    giftDiscountPercent: Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: 90 })], {
      error: "The discount is a whole percentage from 1 to 90",
    }),
    /** The address of the community graduates are invited to; empty hides the community gift. */
    communityUrl: Type.String({
      maxLength: 2048,
      pattern: "^(https?://[^\\s]+)?$",
      error: "The community's address starts with https:// (or leave it empty to hide the gift)",
    }),
    /** The operator's legal name (a person or a business) as the Terms and Privacy pages name them. */
    operatorName: Type.Optional(Claim("The operator's name", 120)),
    /** How visitors reach the operator: an email address or an http(s) address; empty while unpublished. */
    operatorContact: Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: OPERATOR_CONTACT_PATTERN,
        error:
          "The contact must be an email address (such as owner@example.com) or a web address starting with https:// (leave it empty while you have none)",
      }),
    ),
    /**
     * The operator's wording of the affiliate disclosure, part by part (plain text); a blank or
     * missing part reads as the default, so a label can be reworded but never removed.
     */
    disclosureWording: Type.Optional(
      Type.Object(
        {
          sponsored: WordingPart("The Sponsored label", 40),
          affiliate: WordingPart("The Affiliate link label", 40),
          note: WordingPart("The disclosure note", 300),
          linkText: WordingPart("The note's link text", 40),
          offerNote: WordingPart("The offer card's note", 300),
          offerLinkText: WordingPart("The offer card's link text", 40),
        },
        { additionalProperties: false, error: "The disclosure wording has six text parts" },
      ),
    ),
  }),
  [
    "id",
    "platformAName",
    "platformAUrl",
    "platformBName",
    "platformBUrl",
    "platformALinkSlug",
    "platformBLinkSlug",
    "publicOrigin",
    "publicOriginConfirmed",
    "backupCron",
    "backupKeep",
    "linkCheckHours",
    "resultRetentionDays",
    "updatedAt",
  ],
).properties;

/**
 * The brand, the two affiliate platforms and the claims the site makes about itself
 * (docs/product.md#site-settings), as the site renders them. An empty claim is not shown.
 */
export const SiteSettings = Type.Object({ brandName, platformA: Platform, platformB: Platform, ...ownFields });
export type SiteSettings = Static<typeof SiteSettings>;

/**
 * The settings every page reads: the admin's SiteSettings, how long saved results are kept (in
 * days) and the added pages the footer links to.
 */
export type PublicSettings = SiteSettings & {
  resultRetentionDays: number;
  footerPages: { slug: string; title: string }[];
};

/**
 * An http(s) origin: scheme, host and an optional port, nothing else (a trailing slash is
 * allowed). Host names are ASCII (a Unicode name is entered in its xn-- form).
 */
const ORIGIN_PATTERN =
  "^[Hh][Tt][Tt][Pp][Ss]?://([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\\.?|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?/?$";

/** What the admin saves as the site's public address. */
export const PublicAddressInput = Type.Object({
  origin: Type.String({
    maxLength: 300,
    pattern: ORIGIN_PATTERN,
    error: "Enter the address visitors use, such as https://example.com (http or https, no path)",
  }),
});
export type PublicAddressInput = Static<typeof PublicAddressInput>;

/**
 * What the admin typed as the public address, with https:// in front when it names no scheme:
 * most owners type their domain as they would tell it to someone ("example.com").
 */
export function assumeHttps(raw: string): string {
  const input = raw.trim();
  return input === "" || /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
}

/** Where the public address in use comes from. */
type PublicAddressSource = "environment" | "confirmed" | "sign-in" | "none";

/** The site's public address as the admin's Settings tab shows it. */
export interface PublicAddress {
  /** The origin links in feeds, the sitemap and canonical tags use; null when none is known. */
  origin: string | null;
  source: PublicAddressSource;
}

/**
 * The canonical form of an origin the admin entered or a sign-in came from, or null when
 * it is not a plain http(s) origin (a path, a query, credentials, a bad host or port).
 */
export function canonicalOrigin(raw: string | null | undefined): string | null {
  const input = raw?.trim() ?? "";
  if (input.length > 300 || !new RegExp(ORIGIN_PATTERN).test(input)) return null;
  try {
    const url = new URL(input);
    return url.origin === "null" ? null : url.origin;
  } catch {
    return null;
  }
}

/**
 * True for an origin only this machine or its local network can reach (its host is not a public
 * one: localhost, private and link-local addresses, names without a dot or used only inside
 * private networks; the rule a link's destination follows, src/shared/public-host.ts). Such an
 * address is never taken from a sign-in, and the admin is warned before publishing it.
 */
export function isLocalOrigin(origin: string): boolean {
  try {
    return hostProblem(new URL(origin).hostname) !== null;
  } catch {
    return false;
  }
}

/** What Settings stores: whole days from 1 to 3,650, or null for the default. */
export const ResultRetentionInput = Type.Object({
  days: Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: MAX_RESULT_RETENTION_DAYS })], {
    error: `Keep results for a whole number of days from 1 to ${MAX_RESULT_RETENTION_DAYS.toLocaleString("en-US")} (ten years)`,
  }),
});
export type ResultRetentionInput = Static<typeof ResultRetentionInput>;
