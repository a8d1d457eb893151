import { Elysia } from "elysia";

// A host name (DNS labels, an IPv4 address) or a bracketed IPv6 address, then an optional port.
const HOST =
  /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

/**
 * True when a request names one well-formed host: exactly one Host header (several arrive
 * joined with commas), a host name or address of at most 255 characters, a port from 1 to
 * 65535, and a request URL that parses. The host is used for nothing shared (absolute
 * links come from the public address); this check only keeps malformed requests from
 * reaching code that reads the URL.
 */
function validHost(request: Request): boolean {
  if (!URL.canParse(request.url)) return false;
  // A request made in process (tests, the benchmark) has a URL and no Host header; Bun
  // gives a request that came without one a URL that does not parse.
  const host = request.headers.get("host") ?? new URL(request.url).host;
  if (!host || host.length > 261) return false;
  const match = HOST.exec(host);
  if (!match || host.length - (match[1] ? match[1].length + 1 : 0) > 255) return false;
  return match[1] === undefined || (Number(match[1]) >= 1 && Number(match[1]) <= 65535);
}

const BAD_HOST_MESSAGE = "Bad request: the Host header is missing or malformed.\n";

/**
 * True when Elysia's router reads the path the URL carries. It looks for the path from the
 * 12th character of the URL on, as if every host were at least four characters long
 * ("http://a.bc"); for a shorter one ("http://x/zz/api/admin/links") it would route by a piece
 * of the path ("/api/admin/links") while every check, the admin guard's included, reads the
 * real one. A valid host and port of four characters or more is always read right.
 */
export function routedAsWritten(url: string): boolean {
  return url.indexOf("/", 11) === url.indexOf("/", url.indexOf("://") + 3);
}

export const SHORT_HOST_MESSAGE =
  "Bad request: this server does not answer a Host of fewer than four characters (its port included); use its full name or its address.\n";

/**
 * Checked once, before anything else reads the request: a missing or malformed Host, or one
 * too short to be routed as written, is a 400 with a short plain message on every route
 * (pages, API, static files, /healthz).
 */
export function hostCheck() {
  return new Elysia({ name: "host-check" }).onRequest(({ request }) => {
    const valid = validHost(request);
    if (valid && routedAsWritten(request.url)) return;
    return new Response(valid ? SHORT_HOST_MESSAGE : BAD_HOST_MESSAGE, {
      status: 400,
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        connection: "close",
      },
    });
  });
}
