import { type Static, Type } from "@sinclair/typebox";

const HttpUrl = Type.String({
  pattern: "^https?://[^\\s]+$",
  maxLength: 2048,
  error: "Must be a valid URL",
});

export const Platform = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60, error: "Platform name is required, at most 60 characters" }),
  url: HttpUrl,
});
export type Platform = Static<typeof Platform>;

/** The brand and the two affiliate platforms (docs/product.md#site-settings), as the site renders them. */
export const SiteSettings = Type.Object({
  brandName: Type.String({ minLength: 1, maxLength: 60, error: "Brand name is required, at most 60 characters" }),
  platformA: Platform,
  platformB: Platform,
  bannerPlatform: Type.Union([Type.Literal("a"), Type.Literal("b")], {
    error: "Banner platform must be 'a' or 'b'",
  }),
});
export type SiteSettings = Static<typeof SiteSettings>;

/**
 * An http(s) origin: scheme, host and an optional port, nothing else (a trailing slash is
 * allowed). Host names are ASCII (a Unicode name is entered in its xn-- form).
 */
export const ORIGIN_PATTERN =
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

/** Where the public address in use comes from. */
export type PublicAddressSource = "environment" | "confirmed" | "sign-in" | "none";

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

const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".lan", ".home.arpa"];

/**
 * True for an origin only this machine or its local network can reach: localhost, private
 * and link-local addresses, and names without a dot (a container or machine name). Such an
 * address is never taken from a sign-in, and the admin is warned before publishing it.
 */
export function isLocalOrigin(origin: string): boolean {
  let host: string;
  try {
    host = new URL(origin).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  if (host === "localhost" || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return true;
  if (host.includes(":"))
    return host === "::1" || host === "::" || /^(f[cd]|fe[89ab])/.test(host) || host.startsWith("::ffff:");
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  return !host.includes(".");
}
