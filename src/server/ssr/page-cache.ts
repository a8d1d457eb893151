import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { type ChangeFeed, RESULT_TABLES } from "#server/db/changes.ts";
import { chooseEncoding, notAcceptable, storedCodings } from "#server/lib/accept-encoding.ts";
import { Lru } from "#server/lib/lru.ts";
// Pages that are the same for every visitor are rendered once and then served from
// memory until the admin changes something (docs/product.md#speed-and-durability). Keyed by
// the page and the values of its address it reads (src/web/routes.ts, pageCacheKey).

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
 * The cache's two partitions, each a bounded LRU of its own: the shared cache holds the
 * site's own pages (a fixed set of addresses); the visitor cache holds pages at an address
 * a visitor made (a saved result's id, an odd spelling) and is smaller, so a flood of them
 * cannot push the site's pages out.
 */
export type CachePartition = "shared" | "visitor";

/** The cache key of a page of content (pageCacheKey: the page's id first): a post or an added page. */
const CONTENT_PAGE_KEY = /^(blog-post|added-page) /;

/** When what the pages show changes by itself: the next scheduled post's date. */
export interface PageExpiry {
  now: () => Date;
  /** The next time after `now` at which the pages change, or null when nothing is due. */
  next: (now: Date) => Promise<Date | null>;
}

/** How often, at most, a cache hit reads the change feed's version (a missed notification's longest effect). */
const RECHECK_MS = 3000;

/** The change feed this cache follows, and the version it last saw. */
interface Following {
  feed: ChangeFeed;
  seen: number;
  checkedAt: number;
  reading: Promise<void> | null;
}

export class PageCache {
  private readonly partitions: Record<CachePartition, Lru<string, CachedPage>>;
  /**
   * The shared partition's pages of content (a post, an added page), kept apart from the
   * site's fixed pages: a crawl of thousands of posts pushes out other posts, never the home
   * page or the blog's list. Counted with the shared partition.
   */
  private readonly content: Lru<string, CachedPage>;
  private following: Following | null = null;
  private cleared = 0;
  private expiry: PageExpiry | null = null;
  /** The next due time (ms) since the last clear(); null: nothing due; undefined: not looked up yet. */
  private due: number | null | undefined;

  constructor({ shared = 500, visitor = 100 }: { shared?: number; visitor?: number } = {}) {
    this.partitions = { shared: new Lru(shared), visitor: new Lru(visitor) };
    this.content = new Lru(shared);
  }

  private lru(partition: CachePartition, key: string): Lru<string, CachedPage> {
    return partition === "shared" && CONTENT_PAGE_KEY.test(key) ? this.content : this.partitions[partition];
  }

  /**
   * Changes at every clear(). A render notes it before reading anything, and its page is
   * kept only if no clear() happened meanwhile: a page rendered from data older than the
   * last admin change is never served as a hit.
   */
  get generation(): number {
    return this.cleared;
  }

  /** Pages change at the times `expiry` names (a scheduled post appears), not only at admin writes. */
  expireAt(expiry: PageExpiry): void {
    this.expiry = expiry;
    this.due = undefined;
  }

  /**
   * Empties the cache when a due time has come since it was filled, so no page rendered
   * before a scheduled post's date is served after it. Called before every lookup; looks the
   * next time up once per clear(), and works with an injected clock (no timer).
   */
  async expire(): Promise<void> {
    if (this.expireNow() || !this.expiry) return;
    const generation = this.cleared;
    const next = await this.expiry.next(this.expiry.now());
    // A clear() meanwhile asks again next time.
    if (generation !== this.cleared) return;
    this.due = next ? next.getTime() : null;
    if (this.due !== null && this.expiry.now().getTime() >= this.due) this.clear();
  }

  /**
   * expire() without waiting, for a lookup on the hot path: false when the next due time has
   * to be looked up first (then `await expire()` before a lookup).
   */
  expireNow(): boolean {
    // In the background: a hit never waits for the database (nor fails when it is away); the
    // read empties the cache for the lookups after it when a change was missed.
    if (this.following && Date.now() - this.following.checkedAt >= RECHECK_MS)
      void this.catchUp(this.following).catch(() => {});
    if (!this.expiry) return true;
    if (this.due === undefined) return false;
    if (this.due !== null && this.expiry.now().getTime() >= this.due) this.clear();
    return true;
  }

  /**
   * Follows the site's changes made anywhere (another instance, a command, the database's own
   * tools): each one empties what it may touch, and a version read after a reconnection and at
   * most every RECHECK_MS before a lookup catches any notification lost. Answers how to stop.
   */
  async follow(feed: ChangeFeed): Promise<() => Promise<void>> {
    const following: Following = { feed, seen: await feed.version(), checkedAt: Date.now(), reading: null };
    this.following = following;
    const stop = await feed.listen(
      ({ table, version }) => {
        following.seen = Math.max(following.seen, version);
        if (RESULT_TABLES.has(table)) this.forgetVisitorPages();
        else this.clear();
      },
      () => void this.catchUp(following).catch(() => {}),
    );
    return async () => {
      this.following = null;
      await stop();
    };
  }

  /** Reads the version once (lookups meanwhile share the read); a newer one empties the cache. */
  private catchUp(following: Following): Promise<void> {
    following.reading ??= (async () => {
      try {
        const version = await following.feed.version();
        following.checkedAt = Date.now();
        if (version !== following.seen) {
          following.seen = version;
          this.clear();
        }
      } finally {
        following.reading = null;
      }
    })();
    return following.reading;
  }

  get(partition: CachePartition, key: string): CachedPage | undefined {
    return this.lru(partition, key).get(key);
  }

  /** Keeps a page rendered at `generation`; false (and nothing kept) when the cache was cleared since. */
  set(partition: CachePartition, key: string, page: CachedPage, generation: number): boolean {
    if (generation !== this.cleared) return false;
    this.lru(partition, key).set(key, page);
    return true;
  }

  /** Everything goes: any admin change may show on any page (brand, offers, posts). */
  clear(): void {
    this.cleared++;
    this.due = undefined;
    this.partitions.shared.clear();
    this.content.clear();
    this.partitions.visitor.clear();
  }

  /**
   * Drops the pages at addresses visitors made (saved results) and keeps the site's own: after
   * expired results are deleted, no page of one is served from memory. A render under way is
   * not kept either (the same generation rule as clear()).
   */
  forgetVisitorPages(): void {
    this.cleared++;
    this.due = undefined;
    this.partitions.visitor.clear();
  }

  /** How many pages each partition holds (for tests and the benchmark, never served). */
  get sizes(): Record<CachePartition, number> {
    return { shared: this.partitions.shared.size + this.content.size, visitor: this.partitions.visitor.size };
  }
}

/** Headers a cached answer adds to its page's own (the security headers), as one list made once. */
export type AddedHeaders = readonly (readonly [string, string])[];
const NO_HEADERS: AddedHeaders = [];

/**
 * Each cached page's answer headers, per list of added headers (by identity: there are only
 * a few) and content coding, made on its first hit.
 */
const answerHeaders = new WeakMap<CachedPage, Map<AddedHeaders, Record<string, AnswerHeaders>>>();

/** One answer's headers: as a list, as the Headers a Response copies fastest, and by name. */
interface AnswerHeaders {
  list: [string, string][];
  headers: Headers;
  values: Readonly<Record<string, string>>;
}

const answer = (list: [string, string][]): AnswerHeaders => ({
  list,
  headers: new Headers(list),
  values: Object.fromEntries(list),
});

/** The headers of each answer served from the cache, by name: read without asking the answer. */
const sentHeaders = new WeakMap<Response, Readonly<Record<string, string>>>();

/** The headers a cached answer was made with (undefined for any other answer). */
export function cachedAnswerHeaders(response: Response): Readonly<Record<string, string>> | undefined {
  return sentHeaders.get(response);
}

function headersFor(page: CachedPage, coding: string, added: AddedHeaders): AnswerHeaders {
  let byAdded = answerHeaders.get(page);
  if (!byAdded) {
    byAdded = new Map();
    answerHeaders.set(page, byAdded);
  }
  let made = byAdded.get(added);
  if (!made) {
    const base: [string, string][] = [
      // Its length is the body's, set by Bun for the coding sent.
      ...page.headers.filter(
        ([name]) => !["etag", "x-cache", "vary", "content-encoding", "content-length"].includes(name),
      ),
      ...added
        .filter(([name]) => !page.headers.some(([own]) => own === name))
        .map(([n, v]): [string, string] => [n, v]),
      ["x-cache", "hit"],
      ["vary", "accept-encoding"],
    ];
    made = {
      identity: answer([...base, ["etag", tagFor(page, "identity")]]),
      gzip: answer([...base, ["etag", tagFor(page, "gzip")], ["content-encoding", "gzip"]]),
      br: answer([...base, ["etag", tagFor(page, "br")], ["content-encoding", "br"]]),
    };
    byAdded.set(added, made);
  }
  return made[coding] ?? made.identity!;
}

/**
 * The ETag of a cached page in one coding: each coding is a representation of its own (its
 * bytes differ), so each has its own tag, as a cache that stores them apart expects.
 */
function tagFor(page: CachedPage, coding: string): string {
  return coding === "identity" ? page.etag : `${page.etag.slice(0, -1)}-${coding}"`;
}

/** Whether an If-None-Match names `tag`: `*`, or a list of tags compared weakly (W/ ignored). */
function holdsTag(header: string | null, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((one) => one.trim().replace(/^W\//, "") === tag);
}

/**
 * Serves a cached page, answering a matching If-None-Match with 304. Its headers (with
 * `added`, the ones every answer carries) are made once per page and coding, not copied and
 * set again on every hit.
 */
export function cachedResponse(page: CachedPage, request: Request, added: AddedHeaders = NO_HEADERS): Response {
  const encoded = chooseEncoding(request.headers.get("accept-encoding"), storedCodings(page));
  if (encoded === null) return notAcceptable();
  const { list, headers, values } = headersFor(page, encoded, added);
  if (holdsTag(request.headers.get("if-none-match"), tagFor(page, encoded)))
    return new Response(null, { status: 304, headers: list.filter(([name]) => name !== "content-encoding") });
  const response = new Response(encoded === "br" ? page.brotli : encoded === "gzip" ? page.gzip : page.body, {
    status: page.status,
    headers,
  });
  sentHeaders.set(response, values);
  return response;
}

/** A page just put in the cache, answered to the request that made it: marked as a miss. */
export function missResponse(page: CachedPage, request: Request, added: AddedHeaders = NO_HEADERS): Response {
  const fresh = cachedResponse(page, request, added);
  fresh.headers.set("x-cache", "miss");
  sentHeaders.delete(fresh);
  return fresh;
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
