import { firstInvisible } from "#shared/invisible.ts";
import { hostProblem } from "#shared/public-host.ts";

// A managed link's destination is saved in one form, the one a browser sends (docs/product.md#managed-links):
// the WHATWG URL serialisation, with an international host in its ASCII (punycode) form and the
// path, query and fragment percent-encoded. That form is plain printable ASCII, so it is a valid
// Location header whatever was typed.

/** The longest destination kept, in its saved (encoded) form. */
const DESTINATION_MAX = 2048;

/** Plain printable ASCII: what a header may carry and what the saved form always is. */
const HEADER_SAFE = /^[\x21-\x7E]+$/;

export type DestinationReading = { url: string; problem?: undefined } | { url?: undefined; problem: string };

/**
 * `raw` as a destination visitors can follow, in its saved form, or why it cannot be one, as a
 * sentence starting with `what` ("The destination", "The fallback"): an http(s) address, no
 * invisible or direction characters, no spaces, no user name or password, and a host on the
 * public internet (see hostProblem).
 */
export function readDestination(raw: string, what = "The destination"): DestinationReading {
  // Spaces and line breaks around a pasted address go; an invisible character anywhere is refused.
  const text = raw.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
  // One rule for every field (src/shared/invisible.ts): what the admin reads is what is saved.
  const hidden = firstInvisible(text);
  if (hidden)
    return {
      problem: `${what} contains an invisible or direction-changing character (${hidden}): type the address again without it`,
    };
  if (/\s/u.test(text))
    return { problem: `${what} contains a space: remove it (a space inside an address is written %20)` };
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {}
  const web = /^https?:\/\//i.test(text);
  if (web && !url) return { problem: `${what} is not a valid web address: check its host name and port` };
  if (!url || !web || (url.protocol !== "http:" && url.protocol !== "https:"))
    return {
      problem: `${what} must be a full web address starting with http:// or https://, such as https://example.com/join`,
    };
  if (url.username || url.password)
    return { problem: `${what} must not contain a user name or password (the part before @)` };
  const host = hostProblem(url.hostname);
  if (host) return { problem: `${what}'s host ${url.hostname} ${host}` };
  const saved = url.href;
  if (!HEADER_SAFE.test(saved)) return { problem: `${what} cannot be written as a web address` };
  if (saved.length > DESTINATION_MAX)
    return {
      problem: `${what} is too long: ${saved.length} characters once written as a web address (at most ${DESTINATION_MAX})`,
    };
  return { url: saved };
}

/** The saved form of a destination, or null when it is not one visitors can follow. */
export function savedDestination(raw: string): string | null {
  return readDestination(raw).url ?? null;
}
