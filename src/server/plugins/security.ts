import { Elysia } from "elysia";
import type { Server } from "elysia/universal";

/**
 * HSTS for a year on answers served over HTTPS. Not includeSubDomains: other hosts of the
 * operator's domain may not serve HTTPS; not preload: that is a promise for the whole
 * domain that only its owner can make, and hard to take back.
 */
const HSTS = "max-age=31536000";

/** What decides the headers: the inline scripts allowed by hash and the frames allowed. */
interface SecurityOptions {
  inlineScriptHashes: string[];
  frameSources: readonly string[];
}

/**
 * Headers every response carries. The CSP allows only this origin: the one inline
 * script (the theme setter that must run before first paint) is allowed by its hash.
 */
function headersOf({ inlineScriptHashes, frameSources }: SecurityOptions): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptHashes.map((h) => `'${h}'`).join(" ")}`.trim(),
    // React renders a few style attributes (progress bars); no external styles are allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // Offer videos may be direct files on another host.
    "media-src 'self' blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    // The only third parties, and only as frames (video players); embed offers are our own sandboxed page.
    `frame-src 'self' ${frameSources.join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
  };
}

/** The security headers as lists made once: over plain HTTP, and over HTTPS (with HSTS). */
export interface SecurityHeaderLists {
  plain: readonly [string, string][];
  secure: readonly [string, string][];
}

export function securityHeaderLists(options: SecurityOptions): SecurityHeaderLists {
  const plain = Object.entries(headersOf(options));
  return { plain, secure: [...plain, ["strict-transport-security", HSTS]] };
}

export function securityHeaders({
  lists,
  https,
}: {
  /** The headers, as securityHeaderLists made them (the cached pages carry the same lists). */
  lists: SecurityHeaderLists;
  /** Whether this request reached the site over HTTPS (then HSTS is sent; never over plain http). */
  https?: (request: Request, server: Server | null) => boolean;
}) {
  const headers = Object.fromEntries(lists.plain);
  return new Elysia({ name: "security-headers" }).onRequest(({ request, set, server }) => {
    Object.assign(set.headers, headers);
    if (https?.(request, server)) set.headers["strict-transport-security"] = HSTS;
  });
}

/**
 * Empties `set.headers` when the answer already carries each of them with the same value:
 * Elysia then sends the answer as it is, instead of copying it into a new one with the
 * headers set again (a third of the cost of serving a cached page).
 */
export function dropCarriedHeaders(
  set: { headers: Record<string, unknown> },
  response: Response,
  /** The answer's headers by name, when known without reading them back (a cached page's). */
  carried?: Readonly<Record<string, string>>,
): void {
  for (const name in set.headers) {
    const value = set.headers[name];
    if (typeof value !== "string" || (carried ? carried[name] : response.headers.get(name)) !== value) return;
  }
  for (const name of Object.keys(set.headers)) delete set.headers[name];
}

/** SHA-256 CSP source for an inline script body. */
export function cspHash(source: string): string {
  const digest = new Bun.CryptoHasher("sha256").update(source).digest("base64");
  return `sha256-${digest}`;
}
