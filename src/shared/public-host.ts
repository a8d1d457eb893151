// Which hosts are on the public internet: the one rule for a link's destination (when it is
// saved, and at every hop of a check), for what a name resolves to, and for the site's public
// address. Pure TypeScript, no node:net: the admin's forms use it too.

/** An IPv4 range that is not public: its first address as a number, its prefix length, what it is. */
type Range4 = [base: number, bits: number, kind: string];

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;

const PRIVATE_NETWORK = "a private network address";
const RESERVED = "a reserved address";
const DOCUMENTATION = "an address reserved for documentation";
const LOOPBACK = "a loopback address (this computer itself)";
const LINK_LOCAL = "a link-local address";
const MULTICAST = "a multicast address";

/** The IANA special-purpose IPv4 blocks that no public web server uses (most specific first where they nest). */
const IPV4_RANGES: Range4[] = [
  [v4(255, 255, 255, 255), 32, "the broadcast address"],
  [v4(0, 0, 0, 0), 8, "an address of “this network” (0.x.x.x)"],
  [v4(10, 0, 0, 0), 8, PRIVATE_NETWORK],
  [v4(100, 64, 0, 0), 10, "a shared address of a carrier's network (carrier-grade NAT)"],
  [v4(127, 0, 0, 0), 8, LOOPBACK],
  [v4(169, 254, 0, 0), 16, LINK_LOCAL],
  [v4(172, 16, 0, 0), 12, PRIVATE_NETWORK],
  [v4(192, 0, 0, 0), 24, RESERVED],
  [v4(192, 0, 2, 0), 24, DOCUMENTATION],
  [v4(192, 88, 99, 0), 24, RESERVED],
  [v4(192, 168, 0, 0), 16, PRIVATE_NETWORK],
  [v4(198, 18, 0, 0), 15, "an address reserved for benchmarking"],
  [v4(198, 51, 100, 0), 24, DOCUMENTATION],
  [v4(203, 0, 113, 0), 24, DOCUMENTATION],
  [v4(224, 0, 0, 0), 4, MULTICAST],
  [v4(240, 0, 0, 0), 4, RESERVED],
];

/** The 32-bit value of a dotted-decimal IPv4 address (as a URL or a resolver writes it), or null. */
function ipv4Value(text: string): number | null {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!parts) return null;
  const bytes = parts.slice(1).map(Number);
  if (bytes.some((byte) => byte > 255)) return null;
  return v4(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
}

function ipv4Kind(value: number): string | null {
  for (const [base, bits, kind] of IPV4_RANGES) {
    const size = 2 ** (32 - bits);
    if (Math.floor(value / size) === Math.floor(base / size)) return kind;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (brackets, a zone and an IPv4 tail allowed), or null. */
function ipv6Groups(text: string): number[] | null {
  let rest = text.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const tail = /:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(rest);
  if (tail) {
    const value = ipv4Value(tail[1]!);
    if (value === null) return null;
    rest = `${rest.slice(0, -tail[1]!.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = rest.split("::");
  if (halves.length > 2) return null;
  const read = (part: string) => (part === "" ? [] : part.split(":"));
  const front = read(halves[0]!);
  const back = halves.length === 2 ? read(halves[1]!) : [];
  const missing = 8 - front.length - back.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...front, ...Array<string>(missing).fill("0"), ...back];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null;
  return groups.map((group) => Number.parseInt(group, 16));
}

const zeros = (groups: number[]) => groups.every((group) => group === 0);

function ipv6Kind(groups: number[]): string | null {
  const [a = 0, b = 0] = groups;
  const embedded = (groups[6]! * 0x10000 + groups[7]!) >>> 0;
  if (zeros(groups)) return "the unspecified address";
  if (zeros(groups.slice(0, 7)) && groups[7] === 1) return LOOPBACK;
  // IPv4 written as IPv6 (::ffff:a.b.c.d) and the NAT64 prefix 64:ff9b::/96 reach that IPv4 address.
  if (zeros(groups.slice(0, 5)) && groups[5] === 0xffff) return ipv4Kind(embedded);
  if (a === 0x64 && b === 0xff9b && zeros(groups.slice(2, 6))) return ipv4Kind(embedded);
  if ((a & 0xfe00) === 0xfc00) return "a unique-local address (a private network)";
  if ((a & 0xffc0) === 0xfe80) return LINK_LOCAL;
  if ((a & 0xffc0) === 0xfec0) return "a site-local address (a private network)";
  if ((a & 0xff00) === 0xff00) return MULTICAST;
  // Public unicast is 2000::/3, less the blocks inside it kept for other uses.
  if ((a & 0xe000) !== 0x2000) return RESERVED;
  if ((a === 0x2001 && b === 0x0db8) || (a & 0xfff0) === 0x3ff0) return DOCUMENTATION;
  if (a === 0x2001 && b < 0x0200) return RESERVED; // 2001::/23: Teredo, benchmarking, ORCHID
  if (a === 0x2002) return "a 6to4 address (a retired way to carry IPv4)";
  return null;
}

/**
 * One spelling for each address, so two spellings of the same one compare equal: IPv4 in
 * dotted decimal, IPv6 as eight lower-case groups without leading zeros (brackets and a zone
 * dropped), and an IPv6 form that carries an IPv4 address (`::ffff:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`) as that IPv4 address, since connecting to it reaches that address. Null
 * for anything that is not an address.
 */
export function addressKey(text: string): string | null {
  const dotted = (value: number) => [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
  const value = ipv4Value(text);
  if (value !== null) return dotted(value);
  const groups = ipv6Groups(text);
  if (!groups) return null;
  const mapped = zeros(groups.slice(0, 5)) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && zeros(groups.slice(2, 6));
  if (mapped || nat64) return dotted((groups[6]! * 0x10000 + groups[7]!) >>> 0);
  return groups.map((group) => group.toString(16)).join(":");
}

/** True when `text` is an IPv4 or IPv6 address (not a name). */
export function isIpAddress(text: string): boolean {
  return ipv4Value(text) !== null || ipv6Groups(text) !== null;
}

/**
 * What an IP address is when it is not a public internet address ("a loopback address (this
 * computer itself)", "a private network address"...), or null for a public one. Anything that
 * is not an address at all is not public either.
 */
export function nonPublicAddressKind(address: string): string | null {
  const value = ipv4Value(address);
  if (value !== null) return ipv4Kind(value);
  const groups = ipv6Groups(address);
  return groups ? ipv6Kind(groups) : "not an IP address";
}

/**
 * Names that never lead to a public website, by their last labels: resolved only on this
 * computer or a private network, reserved never to exist, or outside the public DNS.
 */
const SPECIAL_NAMES: [suffix: string, kind: string][] = [
  ["localhost", "a name for this computer itself"],
  ["local", "a name found only on the local network"],
  ["home.arpa", "a name used only inside home networks"],
  ["arpa", "a name of the internet's own infrastructure, not a website"],
  ["internal", "a name used only inside private networks"],
  ["localdomain", "a name used only inside private networks"],
  ["lan", "a name used only inside private networks"],
  ["intranet", "a name used only inside private networks"],
  ["home", "a name used only inside private networks"],
  ["corp", "a name used only inside private networks"],
  ["private", "a name used only inside private networks"],
  ["test", "a name reserved for testing that never exists on the internet"],
  ["invalid", "a name reserved never to exist"],
  ["onion", "a Tor name that browsers open only through Tor"],
  ["alt", "a name outside the internet's name system"],
];

/**
 * Why `hostname` (as the WHATWG URL parser gives it: lower case, an IDN in its ASCII form, an
 * IPv4 address in dotted decimal whichever way it was written, IPv6 in brackets) is not a host
 * on the public internet, as the end of a sentence ("is a loopback address (this computer
 * itself), not a public internet address: visitors cannot reach it"); null when it is one.
 * Addresses are judged by their range, names by their spelling only: what a name resolves to is
 * judged each time it is resolved.
 */
export function hostProblem(hostname: string): string | null {
  const host = hostname.toLowerCase();
  if (host === "") return "is empty";
  const unreachable = ": visitors cannot reach it";
  if (host.startsWith("[") || isIpAddress(host)) {
    const kind = nonPublicAddressKind(host);
    return kind ? `is ${kind}, not a public internet address${unreachable}` : null;
  }
  const name = host.replace(/\.+$/, "");
  for (const [suffix, kind] of SPECIAL_NAMES)
    if (name === suffix || name.endsWith(`.${suffix}`)) return `is ${kind} (.${suffix})${unreachable}`;
  if (!name.includes(".")) return `has no dot: such a name is found only inside a local network${unreachable}`;
  // A last label of digits alone is no name (the URL parser reads such hosts as IPv4 addresses).
  if (/\.\d+$/.test(name)) return "is not a valid host name";
  // A final dot makes a name skip the checks a program makes on its spelling ("localhost.").
  if (name !== host) return `ends with a dot: write it without the dot (${name})`;
  return null;
}
