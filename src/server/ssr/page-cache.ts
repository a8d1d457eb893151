import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chooseEncoding, notAcceptable, storedCodings } from "#server/lib/accept-encoding.ts";
// Pages that are the same for every visitor are rendered once and then served from
// memory until the admin changes something (docs/product.md#speed-and-durability). Keyed by path and query.

export interface CachedPage {
  body: Uint8Array<ArrayBuffer>;
  /** Compressed once when the page is cached. */
  gzip?: Uint8Array<ArrayBuffer>;
  brotli?: Uint8Array<ArrayBuffer>;
  status: number;
  headers: [string, string][];
  etag: string;
}

export class PageCache {
  private pages = new Map<string, CachedPage>();
  constructor(private readonly maxEntries = 500) {}

  get(key: string): CachedPage | undefined {
    const hit = this.pages.get(key);
    if (hit) {
      // Least recently used goes first when the cache is full.
      this.pages.delete(key);
      this.pages.set(key, hit);
    }
    return hit;
  }

  set(key: string, page: CachedPage): void {
    if (this.pages.size >= this.maxEntries) this.pages.delete(this.pages.keys().next().value!);
    this.pages.set(key, page);
  }

  /** Everything goes: any admin change may show on any page (brand, offers, posts). */
  clear(): void {
    this.pages.clear();
  }

  get size(): number {
    return this.pages.size;
  }
}

/** Serves a cached page, answering a matching If-None-Match with 304. */
export function cachedResponse(page: CachedPage, request: Request): Response {
  const headers = new Headers(page.headers);
  headers.set("etag", page.etag);
  headers.set("x-cache", "hit");
  headers.set("vary", "accept-encoding");
  if (request.headers.get("if-none-match") === page.etag) return new Response(null, { status: 304, headers });
  const encoded = chooseEncoding(request.headers.get("accept-encoding"), storedCodings(page));
  if (encoded === null) return notAcceptable();
  if (encoded !== "identity") headers.set("content-encoding", encoded);
  return new Response(encoded === "br" ? page.brotli : encoded === "gzip" ? page.gzip : page.body, {
    status: page.status,
    headers,
  });
}

export async function toCachedPage(response: Response): Promise<CachedPage> {
  const body = new Uint8Array(await response.arrayBuffer());
  return {
    body,
    gzip: new Uint8Array(gzipSync(body, { level: 6 })),
    // A middle quality: the page is compressed once per change, on a visitor's request.
    brotli: new Uint8Array(brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } })),
    status: response.status,
    headers: [...response.headers.entries()],
    etag: `"${Bun.hash(body).toString(36)}"`,
  };
}
