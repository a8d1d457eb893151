import type { Server } from "elysia/universal";
import type { UntrustedProxy } from "#shared/features/home/contract.ts";

/** Who sent a request, as far as this server can tell. */
interface ClientInfo {
  /** The client's IP address (canonical text); behind a trusted proxy, the one it forwarded. */
  address: string;
  /** Whether the client reached the site over HTTPS (directly or through a trusted proxy). */
  https: boolean;
  /** `https` comes from a trusted proxy's X-Forwarded-Proto, not from the connection itself. */
  schemeForwarded: boolean;
  /** The connection comes from a trusted proxy, which keeps its own connections for many clients. */
  viaProxy: boolean;
}

export type ClientOf = (request: Request, server: Server | null | undefined) => ClientInfo;

/** An IP address as bytes: 4 for IPv4, 16 for IPv6. IPv4-mapped IPv6 (::ffff:a.b.c.d) is IPv4. */
type Ip = Uint8Array;

const IPV4_PART = /^(0|[1-9]\d{0,2})$/;

function parseIpv4(text: string): Ip | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    // No leading zeros: "010" is octal to some parsers and decimal to others.
    if (!IPV4_PART.test(parts[i]!)) return null;
    const n = Number(parts[i]);
    if (n > 255) return null;
    bytes[i] = n;
  }
  return bytes;
}

function parseIpv6(text: string): Ip | null {
  if (text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const words: number[] = [];
  // An IPv4 tail (::ffff:1.2.3.4) stands for the last two groups.
  const last = [...head, ...tail].at(-1);
  let v4: Ip | null = null;
  if (last?.includes(".")) {
    // Only as the very last group.
    if (halves.length === 2 && tail.length === 0) return null;
    v4 = parseIpv4(last);
    if (!v4) return null;
    (tail.length ? tail : head).pop();
  }
  for (const group of [...head, ...tail]) if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
  const given = head.length + tail.length + (v4 ? 2 : 0);
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  words.push(...head.map((g) => Number.parseInt(g, 16)));
  for (let i = given; i < 8; i++) words.push(0);
  words.push(...tail.map((g) => Number.parseInt(g, 16)));
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[i * 2] = w >> 8;
    bytes[i * 2 + 1] = w & 0xff;
  });
  if (v4) bytes.set(v4, 12);
  return bytes;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const isMapped = (ip: Ip) => ip.length === 16 && MAPPED_PREFIX.every((b, i) => ip[i] === b);

/** An IPv4 or IPv6 address (no port, no zone), or null. IPv4-mapped IPv6 comes back as IPv4. */
export function parseIp(text: string): Ip | null {
  const ip = text.includes(":") ? parseIpv6(text) : parseIpv4(text);
  return ip && isMapped(ip) ? ip.slice(12) : ip;
}

/** The canonical text of an address: dotted IPv4, or compressed lowercase IPv6 (RFC 5952). */
export function formatIp(ip: Ip): string {
  if (ip.length === 4) return ip.join(".");
  const words = Array.from({ length: 8 }, (_, i) => (ip[i * 2]! << 8) | ip[i * 2 + 1]!);
  // The longest run of two or more zero groups becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = (list: number[]) => list.map((w) => w.toString(16)).join(":");
  if (bestStart < 0) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLength))}`;
}

/** An address with a prefix length: 10.0.0.0/8, fd00::/8, or a single address. */
export interface IpRange {
  bytes: Ip;
  bits: number;
}

/**
 * One TRUSTED_PROXIES entry: an IPv4 or IPv6 address, or a CIDR range of either. Bits past
 * the prefix are ignored (10.1.2.3/8 is 10.0.0.0/8). An IPv4-mapped IPv6 range with a
 * prefix of 96 or more is the IPv4 range it maps, since addresses are compared as IPv4.
 */
export function parseRange(text: string): IpRange | null {
  const [addressText = "", bitsText, extra] = text.trim().split("/");
  if (extra !== undefined) return null;
  const raw = addressText.includes(":") ? parseIpv6(addressText) : parseIpv4(addressText);
  if (!raw) return null;
  const max = raw.length * 8;
  if (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) return null;
  let bits = bitsText === undefined ? max : Number(bitsText);
  if (bits > max) return null;
  let bytes = raw;
  if (isMapped(raw) && bits >= 96) {
    bytes = raw.slice(12);
    bits -= 96;
  }
  return { bytes: masked(bytes, bits), bits };
}

function masked(ip: Ip, bits: number): Ip {
  const out = new Uint8Array(ip.length);
  for (let i = 0; i < ip.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    out[i] = ip[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return out;
}

function inRange(ip: Ip, range: IpRange): boolean {
  if (ip.length !== range.bytes.length) return false;
  const m = masked(ip, range.bits);
  return m.every((b, i) => b === range.bytes[i]);
}

/**
 * The key that counts as one client for every limit: an IPv4 address, or an IPv6 /64
 * network (one subscriber usually holds a whole /64, so counting single IPv6 addresses would
 * give one attacker billions of fresh budgets), a zone (`%eth0`) left out. Anything that is
 * not an address is its first 64 characters, so a key's size stays bounded.
 */
export function clientKey(address: string): string {
  const ip = parseIp(address.split("%")[0]!);
  if (!ip) return address.slice(0, 64);
  return ip.length === 4 ? formatIp(ip) : `${formatIp(masked(ip, 64))}/64`;
}

/**
 * The provider blocks an IPv6 client's /64 lies in, its /56 and its /48 (a home or a small
 * site is usually given one of these, so their /64s are one allocation): the keys a limit
 * shares out under pressure. An IPv4 address, or anything that is not an address, has none.
 */
export function clientBlocks(address: string): string[] {
  const ip = parseIp(address);
  if (!ip || ip.length === 4) return [];
  return [56, 48].map((bits) => `${formatIp(masked(ip, bits))}/${bits}`);
}

/**
 * One X-Forwarded-For entry: an address, optionally with a port (1.2.3.4:80, [::1]:80), as
 * some proxies write it. Anything else is malformed.
 */
function forwardedAddress(entry: string): Ip | null {
  const text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return parseIpv6(bracketed[1]!) && parseIp(bracketed[1]!);
  const v4WithPort = /^([\d.]+):\d{1,5}$/.exec(text);
  if (v4WithPort) return parseIpv4(v4WithPort[1]!);
  return parseIp(text);
}

const peers = new WeakMap<Request, { server: Server; peer: ReturnType<Server["requestIP"]> }>();

/**
 * The request's socket peer (address and port), or null once its connection is gone. Bun's
 * requestIP is a native call each time; the connection limit and the client's address both
 * need it on every request, so it is asked once per request.
 */
export function peerOf(request: Request, server: Server | null | undefined): ReturnType<Server["requestIP"]> {
  if (!server) return null;
  const known = peers.get(request);
  if (known?.server === server) return known.peer;
  const peer = server.requestIP(request) ?? null;
  peers.set(request, { server, peer });
  return peer;
}

/** The socket's address; Bun may add a zone to link-local IPv6 (fe80::1%eth0). */
function socketAddress(request: Request, server: Server | null | undefined): Ip | null {
  const address = peerOf(request, server)?.address;
  return address ? parseIp(address.replace(/%.*$/, "")) : null;
}

// Each header may be long; nothing useful is longer than this, and walking it costs.
const MAX_FORWARDED_LENGTH = 2048;

export interface ClientResolverOptions {
  /**
   * Told once, the first time a request from an untrusted peer carries X-Forwarded-For:
   * the sign that the server runs behind a proxy nobody named in TRUSTED_PROXIES.
   */
  warn?: (message: string, peer: string) => void;
}

/**
 * Remembers the first request that came through a proxy TRUSTED_PROXIES does not name (see
 * `warn` above): the log says so once, and the admin reads `seen()` for as long as the server
 * runs, since setting TRUSTED_PROXIES means a restart anyway.
 */
export function untrustedProxyWatch(log: (message: string) => void, now: () => Date = () => new Date()) {
  let seen: UntrustedProxy | null = null;
  return {
    warn(message: string, peer: string) {
      log(message);
      seen ??= { peer, seenAt: now().toISOString() };
    },
    seen: (): UntrustedProxy | null => seen,
  };
}

/**
 * The one place that decides which request headers about the client are believed.
 *
 * Forwarded headers (X-Forwarded-For, X-Forwarded-Proto) count only when the socket's
 * address is one of `trustedProxies` (addresses or CIDR ranges, already validated);
 * otherwise the socket is the client and those headers are ignored. From a trusted
 * proxy, the client is the right-most X-Forwarded-For address that is not itself a
 * trusted proxy (each proxy appends the address it saw, so everything to the left of
 * that one may have been written by the client); a malformed entry on that walk means
 * the chain cannot be read, and the socket's address stands. X-Forwarded-Proto is read
 * the same way: its right-most value, "http" or "https", from a trusted proxy only. The
 * standard `Forwarded` header is not read at all.
 */
export function clientResolver(trustedProxies: readonly string[] = [], { warn }: ClientResolverOptions = {}): ClientOf {
  const ranges = trustedProxies.map((entry) => {
    const range = parseRange(entry);
    if (!range) throw new Error(`Not an IP address or CIDR range: "${entry}"`);
    return range;
  });
  const trusted = (ip: Ip) => ranges.some((range) => inRange(ip, range));
  // Only a peer on a loopback or private network is likely to be a proxy; advice to trust
  // a public address that sends the header would be advice to trust an attacker.
  const local = ["127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "::1", "fc00::/7"].map(
    (range) => parseRange(range)!,
  );
  let warned = !warn;
  const warnOnce = (peer: string) => {
    warned = true;
    warn?.(
      `Requests from ${peer} carry X-Forwarded-For, but ${peer} is not in TRUSTED_PROXIES: the header is ignored, so every visitor behind that proxy counts as ${peer} for sign-in throttling and HTTPS is not detected. If ${peer} is your reverse proxy, set TRUSTED_PROXIES=${peer}.`,
      peer,
    );
  };

  // Several parts of the app ask about the same request (connections, headers, limits,
  // counting); Bun's requestIP is a native call each time, so the answer is kept per request.
  const answered = new WeakMap<Request, { server: Server | null | undefined; info: ClientInfo }>();
  const resolve: ClientOf = (request, server) => {
    const known = answered.get(request);
    if (known && known.server === server) return known.info;
    const info = resolveOnce(request, server);
    answered.set(request, { server, info });
    return info;
  };
  const resolveOnce: ClientOf = (request, server) => {
    // The common case, no proxy trusted: nothing to parse (this runs for every request).
    if (ranges.length === 0 && (warned || !request.headers.has("x-forwarded-for"))) {
      const peer = peerOf(request, server)?.address;
      return {
        address: peer ? peer.replace(/%.*$/, "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "") : "local",
        https: request.url.startsWith("https:"),
        schemeForwarded: false,
        viaProxy: false,
      };
    }
    const socket = socketAddress(request, server);
    const direct: ClientInfo = {
      address: socket ? formatIp(socket) : "local",
      https: request.url.startsWith("https:"),
      schemeForwarded: false,
      viaProxy: false,
    };
    if (!socket || !trusted(socket)) {
      if (socket && !warned && request.headers.has("x-forwarded-for") && local.some((r) => inRange(socket, r))) {
        warnOnce(direct.address);
      }
      return direct;
    }
    const https = forwardedHttps(request);
    return {
      address: forwardedClient(request, socket, trusted),
      https: https ?? direct.https,
      schemeForwarded: https !== null,
      viaProxy: true,
    };
  };
  return resolve;
}

function forwardedClient(request: Request, socket: Ip, trusted: (ip: Ip) => boolean): string {
  const header = request.headers.get("x-forwarded-for");
  if (!header || header.length > MAX_FORWARDED_LENGTH) return formatIp(socket);
  const entries = header.split(",");
  let nearest = socket;
  for (let i = entries.length - 1; i >= 0; i--) {
    const ip = forwardedAddress(entries[i]!);
    if (!ip) return formatIp(socket);
    if (!trusted(ip)) return formatIp(ip);
    nearest = ip;
  }
  // Every hop is a trusted proxy: the left-most one is as close to the client as we know.
  return formatIp(nearest);
}

function forwardedHttps(request: Request): boolean | null {
  const header = request.headers.get("x-forwarded-proto");
  if (!header || header.length > MAX_FORWARDED_LENGTH) return null;
  const last = header.split(",").at(-1)!.trim().toLowerCase();
  return last === "https" ? true : last === "http" ? false : null;
}
