import { type Static, Type } from "@sinclair/typebox";
import { createSelectSchema } from "drizzle-typebox";
import { links } from "#server/features/links/table.ts";
import { insertSchema } from "#shared/schema/row-schemas.ts";
import type { Sent } from "#shared/schema/sent.ts";

/** Lower-case letters, digits and single hyphens inside; 1 to 64 characters. */
export const LINK_SLUG_PATTERN = "^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$";

export const LinkSlug = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: LINK_SLUG_PATTERN,
  error:
    "The slug is 1 to 64 lower-case letters, digits and single hyphens, starting and ending with a letter or digit",
});

/**
 * The shape of an absolute http(s) address: a host, no ASCII spaces or control characters, no
 * backslash. What else a destination must be (a public host, no invisible characters) the server
 * checks with readDestination (destination.ts), which says precisely what is wrong.
 */
const HTTP_DESTINATION_PATTERN = "^[Hh][Tt][Tt][Pp][Ss]?://[^\\x00-\\x20/?#@\\\\]+(?:[/?#][^\\x00-\\x20\\\\]*)?$";

const destination = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 2048,
    pattern: HTTP_DESTINATION_PATTERN,
    error: `${what} must be a full web address starting with http:// or https://, such as https://example.com/join`,
  });

const LinkDestination = destination("The destination");

/** The most consecutive failed checks the admin may wait for before clicks go to the fallback by themselves. */
export const AUTO_FALLBACK_MAX = 20;

/** A managed link as stored (src/server/features/links/table.ts declares its fields once). */
const LinkRow = createSelectSchema(links);

/**
 * A managed link as the admin's Links section shows it: the row, sent. What the link checker
 * found (docs/product.md#link-health) is in `lastCheckedAt` (null: not checked yet), `lastStatus`
 * (null when nothing answered: a timeout, no connection), `finalUrl` (where the last check ended,
 * after its redirects), `hopCount`, `healthClass` and `consecutiveFailures` (checks in a row that
 * found the destination broken; a blocked answer neither counts nor resets).
 */
export type AdminLink = Sent<Static<typeof LinkRow>>;

/** What a check found: an answer with no redirect, after redirects, a refusal to robots, or no working page. */
export type HealthClass = NonNullable<AdminLink["healthClass"]>;

/** The columns the server and the link checker write; the admin never sends them. */
const NOT_SENT = [
  "id",
  "createdAt",
  "lastCheckedAt",
  "lastStatus",
  "finalUrl",
  "hopCount",
  "healthClass",
  "consecutiveFailures",
] as const;

/** What the admin types to make a link in the Links section. */
export const LinkCreate = Type.Omit(
  insertSchema(links, {
    slug: LinkSlug,
    destination: LinkDestination,
    active: Type.Boolean({ error: "Active must be true or false" }),
    /** Where clicks go when the link is off; "" or null: none; absent: unchanged. */
    fallbackDestination: Type.Optional(
      Type.Union([destination("The fallback"), Type.Null(), Type.Literal("")], {
        error:
          "The fallback must be a full web address starting with http:// or https://, such as https://example.com/join (or empty for none)",
      }),
    ),
    /** The admin's own notes; "" or null: none; absent: unchanged. */
    notes: Type.Optional(
      Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { error: "Notes are at most 500 characters" }),
    ),
    /** Clicks go to the fallback after this many failed checks in a row; null: never by itself; absent: unchanged. */
    autoFallbackAfter: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: AUTO_FALLBACK_MAX }), Type.Null()], {
        error: `The number of failed checks is a whole number from 1 to ${AUTO_FALLBACK_MAX} (or empty for never)`,
      }),
    ),
  }),
  NOT_SENT,
);
export type LinkCreate = Static<typeof LinkCreate>;

/** What the admin changes in a managed link (its slug stays: pages and sources refer to it). */
export const LinkUpdate = Type.Omit(LinkCreate, ["slug"]);
export type LinkUpdate = Static<typeof LinkUpdate>;

/** True when the link's failed checks have reached the number after which clicks go to its fallback. */
export function autoFallbackInEffect(link: Pick<AdminLink, "autoFallbackAfter" | "consecutiveFailures">): boolean {
  return link.autoFallbackAfter !== null && link.consecutiveFailures >= link.autoFallbackAfter;
}

/** The picker's value for "make a new link" (no slug can start with "+"). */
export const NEW_LINK = "+new";

/**
 * How a source (an offer, a product, a platform) picks its managed link: `linkSlug` names an
 * existing link, or is NEW_LINK with `newLinkSlug` and `newLinkDestination` for a link made in
 * the same save. Without `linkSlug` the source's typed URL is adopted into its own link. The
 * server checks the rules (a slug that exists, a free and valid new slug, a web address).
 */
export const LinkChoiceFields = {
  linkSlug: Type.Optional(Type.String({ maxLength: 64, error: "Choose a link" })),
  newLinkSlug: Type.Optional(Type.String({ maxLength: 64, error: "The slug is at most 64 characters" })),
  newLinkDestination: Type.Optional(
    Type.String({ maxLength: 2048, error: "The destination is at most 2048 characters" }),
  ),
};

export interface LinkChoice {
  linkSlug?: string;
  newLinkSlug?: string;
  newLinkDestination?: string;
}

/** Clicks on a link in a period, in all and per placement ("" for none). */
export interface LinkClicks {
  days7: number;
  days30: number;
  placements: { placement: string; days7: number; days30: number }[];
}

/** A link in the admin's list, with its clicks. */
export interface AdminLinkWithClicks extends AdminLink {
  clicks: LinkClicks;
}

/**
 * "Check all links now" and the read of its progress: whether the run goes on, how many links it
 * checked of how many, whether the last finished run reached no destination at all (the server
 * looks offline), and the list as it is now.
 */
export interface LinkCheckRun {
  running: boolean;
  checked: number;
  total: number;
  offline: boolean;
  links: AdminLinkWithClicks[];
}
