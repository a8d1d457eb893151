import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chooseEncoding, notAcceptable, storedCodings } from "#server/lib/accept-encoding.ts";
// Pages that are the same for every visitor are rendered once and then served from
// memory until the admin changes something (docs/product.md#speed-and-durability). Keyed by
// the page and the values of its address it reads (src/web/routes.ts, pageAddress).

export interface CachedPage {
  body: Uint8Array<ArrayBuffer>;
  /** Compressed once when the page is cached. */
  gzip?: Uint8Array<ArrayBuffer>;
  brotli?: Uint8Array<ArrayBuffer>;
  status: number;
  headers: [string, string][];
  etag: string;
}

/**
 * Where a page is kept: "shared" holds the site's own pages (a fixed set of addresses);
 * "visitor" holds pages at an address a visitor made (a saved result's id, an odd
 * spelling), in a smaller cache of their own so a flood of them cannot push the site's
 * pages out.
 */
export type CacheShelf = "shared" | "visitor";

/** A bounded map that forgets the least recently used entry first. */
class Lru {
  private entries = new Map<string, CachedPage>();
  constructor(private readonly maxEntries: number) {}

  get(key: string): CachedPage | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, page: CachedPage): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, page);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

export class PageCache {
  private readonly shelves: Record<CacheShelf, Lru>;
  private cleared = 0;

  constructor({ shared = 500, visitor = 100 }: { shared?: number; visitor?: number } = {}) {
    this.shelves = { shared: new Lru(shared), visitor: new Lru(visitor) };
  }

  /**
   * Changes at every clear(). A render notes it before reading anything, and its page is
   * kept only if no clear() happened meanwhile: a page rendered from data older than the
   * last admin change is never served as a hit.
   */
  get generation(): number {
    return this.cleared;
  }

  get(shelf: CacheShelf, key: string): CachedPage | undefined {
    return this.shelves[shelf].get(key);
  }

  /** Keeps a page rendered at `generation`; false (and nothing kept) when the cache was cleared since. */
  set(shelf: CacheShelf, key: string, page: CachedPage, generation: number): boolean {
    if (generation !== this.cleared) return false;
    this.shelves[shelf].set(key, page);
    return true;
  }

  /** Everything goes: any admin change may show on any page (brand, offers, posts). */
  clear(): void {
    this.cleared++;
    this.shelves.shared.clear();
    this.shelves.visitor.clear();
  }

  /** How many pages each shelf holds (for tests and the benchmark, never served). */
  get sizes(): Record<CacheShelf, number> {
    return { shared: this.shelves.shared.size, visitor: this.shelves.visitor.size };
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
