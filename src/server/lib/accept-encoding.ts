// THE reading of Accept-Encoding, for every answer the server compresses (built assets,
// cached pages): coding names in any case, q-values (q=0 refuses), "*" for any coding
// not named, and identity (no coding), acceptable unless refused.

/** The codings a stored answer may be held in. */
export type Coding = "br" | "gzip";

/** The codings a stored answer holds, brotli first (smaller on a tie). */
export function storedCodings(stored: { brotli?: unknown; gzip?: unknown }): Coding[] {
  return [...(stored.brotli ? (["br"] as const) : []), ...(stored.gzip ? (["gzip"] as const) : [])];
}

const ALIASES: Record<string, string> = { "x-gzip": "gzip" };

function qualities(header: string): Map<string, number> {
  const q = new Map<string, number>();
  for (const element of header.split(",")) {
    const [name = "", ...params] = element.split(";").map((part) => part.trim());
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) continue;
    let quality = 1;
    for (const param of params) {
      const m = /^q\s*=\s*(.*)$/i.exec(param);
      if (!m) continue;
      // A q-value is 0 to 1 with at most three decimals; anything else ignores the element.
      quality = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(m[1]!) ? Number(m[1]) : Number.NaN;
    }
    if (Number.isNaN(quality)) continue;
    const coding = name.toLowerCase();
    q.set(ALIASES[coding] ?? coding, quality);
  }
  return q;
}

/**
 * The coding to send, among `available` (in order of preference) and identity: the one
 * the client rates highest, compressed first on a tie. "identity" without the header;
 * null when the client refuses every one of them (answer 406).
 */
export function chooseEncoding(header: string | null, available: readonly Coding[]): Coding | "identity" | null {
  if (header === null) return "identity";
  const q = qualities(header);
  const star = q.get("*");
  // Identity that is not named (nor refused by "*;q=0") stays acceptable, after any coding the client names.
  const rate = (coding: string) => q.get(coding) ?? star ?? (coding === "identity" ? Number.MIN_VALUE : 0);
  let best: Coding | "identity" | null = null;
  let bestQ = 0;
  for (const coding of [...available, "identity" as const]) {
    const quality = rate(coding);
    if (quality > bestQ) {
      best = coding;
      bestQ = quality;
    }
  }
  return best;
}

/** The answer when no coding the client accepts can be sent. */
export function notAcceptable(): Response {
  return new Response(
    "None of the content codings this request accepts (Accept-Encoding) is available: br, gzip or none.\n",
    {
      status: 406,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", vary: "accept-encoding" },
    },
  );
}
