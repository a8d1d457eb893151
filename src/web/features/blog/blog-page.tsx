import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import {
  type BlogListState,
  blogListAddress,
  blogListQuery,
  blogListState,
  pageNumbers,
  searchWords,
} from "#shared/features/blog/blog.ts";
import { searchesByPrefix } from "#shared/features/blog/constants.ts";
import { blogCategoriesRead, blogMovedRead, blogPostsRead } from "#shared/features/blog/reads.ts";
import { useSettings } from "#web/features/settings/queries.ts";
import { isPlainClick } from "#web/lib/clicks.ts";
import { ApiError } from "#web/lib/query-client.ts";
import { useQueryRead, useRead } from "#web/lib/reads.ts";
import { optional, type PageRoute, required } from "#web/page-route.ts";
import { Loading } from "#web/ui/error-state.tsx";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { useCategoryName } from "./category-badge.tsx";
import { FeedAlternate, FeedLink } from "./feed.tsx";
import { rememberList } from "./last-list.ts";
import { PostCard } from "./post-card.tsx";

export const route: PageRoute = {
  cache: true,
  loader: async ({ search, read }) => {
    // A renamed category's old address forwards for good to its new one, a deleted one's to
    // the whole blog, keeping the search.
    const category = search.get("category");
    if (category && !(await read(blogCategoriesRead))?.some((c) => c.slug === category)) {
      const moved = await read(blogMovedRead, { kind: "category", slug: category });
      if (moved) {
        const to = new URL(moved.to, "http://site");
        const q = search.get("q");
        if (q) to.searchParams.set("q", q);
        return { to: to.pathname + to.search, permanent: true };
      }
    }
    // One page of the list, from the index: a page after the last answers 404 with its own state.
    return [optional(blogPostsRead, {}, blogListQuery(blogListState(search))), required(blogCategoriesRead)];
  },
};

/** Whether a state of the list narrows it: a category, or a search. */
const filtered = ({ category, search }: BlogListState) => Boolean(category) || search.trim() !== "";

/** How long typing may pause before the list follows the search (each pause is one request). */
const SEARCH_PAUSE_MS = 200;

/** /blog with optional ?category=, ?q= and ?page= (docs/product.md#blog-list). */
export default function BlogPage() {
  const { brandName } = useSettings();
  const [, navigate] = useLocation();
  // The address holds the whole state, so a reload, Back and a shared link keep it.
  const state = blogListState(new URLSearchParams(useSearch()));
  const { category, search, page } = state;
  const posts = useQueryRead(blogPostsRead, blogListQuery(state));
  const categories = useRead(blogCategoriesRead);
  // The state the list on screen answers: while the next answer loads, the last one stays, and
  // what is said about it (its count, its search, "keep typing") stays that answer's too.
  const address = blogListAddress(state);
  const [answered, setAnswered] = useState({ state, address });
  if (posts.data !== undefined && !posts.isPlaceholderData && answered.address !== address)
    setAnswered({ state, address });
  const shown = posts.isPlaceholderData ? answered.state : state;
  const categoryName = useCategoryName(shown.category);

  // What the box shows as it is typed; the address (and the list) follow after a pause.
  const [typed, setTyped] = useState(search);
  const pause = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    // The address changed by other means (Back, a category, Clear): the box shows its search.
    clearTimeout(pause.current);
    setTyped(search);
  }, [search]);
  useEffect(() => () => clearTimeout(pause.current), []);
  useEffect(() => rememberList(address), [address]);

  const go = (next: Partial<BlogListState>, replace = true) =>
    navigate(blogListAddress({ ...state, page: 1, ...next }), { replace });
  const setSearch = (text: string) => {
    setTyped(text);
    clearTimeout(pause.current);
    // The first search is a step of its own (Back returns to the list it searched); the keys
    // typed after it replace it.
    pause.current = setTimeout(() => go({ search: text }, search.trim() !== ""), SEARCH_PAUSE_MS);
  };
  const clear = () => navigate("/blog", { replace: true });

  const filtersActive = filtered(state);
  const shownFiltered = filtered(shown);
  // A search still being typed: no word of three letters yet, so nothing is looked for by the
  // start of a word (one or two letters find only that word, such as "tv"; one letter and the
  // commonest words are not looked for at all).
  const tooShort = shown.search.trim() !== "" && !searchWords(shown.search).some(searchesByPrefix);
  const data = posts.data;
  // A page after the last: null from the server's first HTML, a 404 when fetched here.
  const missing = data === null || (posts.error instanceof ApiError && posts.error.status === 404);
  const found = data?.total ?? 0;
  // "Clear filters" beside the chips rests (its place kept) while no filter is on, and while the
  // empty state below offers its own.
  const clearIdle = !filtersActive || (!missing && Boolean(data) && found === 0 && !tooShort && shownFiltered);
  // A page after the last: the list's first page says how many there are, so the way back can
  // offer the last one too (in the browser; without scripts, the first page only).
  const first = useQueryRead(blogPostsRead, blogListQuery({ ...state, page: 1 }), { enabled: missing });
  const lastPage = missing && !first.isPlaceholderData ? (first.data?.pages ?? null) : null;
  // Where a new page of the list starts: the line that says what it shows, above the posts.
  const status = useRef<HTMLParagraphElement>(null);
  const turned = useRef(false);
  const shownPage = posts.isPlaceholderData ? null : (posts.data?.page ?? null);
  useEffect(() => {
    // Once the page asked for has arrived, its start is brought into view again (it replaced the
    // last page's posts, which may have moved the view).
    if (!turned.current || shownPage === null) return;
    turned.current = false;
    status.current?.scrollIntoView({ block: "start", behavior: "instant" });
  }, [shownPage]);
  // On a phone the chips scroll sideways: the chosen one is brought into their view (not the
  // page's), say when the page opens at a category from a link.
  const chips = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const row = chips.current;
    const chosen = row?.querySelector<HTMLElement>('[aria-pressed="true"]');
    if (!row || !chosen || row.scrollWidth <= row.clientWidth) return;
    const start = chosen.offsetLeft - row.offsetLeft;
    if (start < row.scrollLeft || start + chosen.offsetWidth > row.scrollLeft + row.clientWidth)
      row.scrollLeft = start - (row.clientWidth - chosen.offsetWidth) / 2;
  }, [category, categories.data]);
  const pageLink = (to: number, label: ReactNode, rel?: "prev" | "next") => (
    <Link
      href={blogListAddress({ ...state, page: to })}
      rel={rel}
      className="blog-page-link"
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        // The next page is read from its start: the focus and the view move to the list's top
        // (the posts change in place when they arrive), not to the page's top or its end.
        turned.current = true;
        status.current?.focus({ preventScroll: true });
        status.current?.scrollIntoView({ block: "start", behavior: "instant" });
      }}
    >
      {label}
    </Link>
  );

  return (
    <>
      <PageMeta
        page={page > 1 ? `Webcam Model Blog, page ${page}` : "Webcam Model Blog"}
        description="Expert advice, platform reviews, and income strategies to help you succeed as a webcam model."
        canonicalPath={blogListAddress({ category, search: "", page })}
      />
      <FeedAlternate brandName={brandName} />
      <header className="page-intro">
        <h1>Cam Model Resources &amp; Guides</h1>
        <p>Expert advice, platform reviews, and income strategies to help you succeed as a webcam model.</p>
      </header>

      <div className="blog-filters">
        {/* Without scripts, Enter sends the search to the server, which renders the list it finds. */}
        <form
          id="blog-search"
          method="get"
          action="/blog"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            clearTimeout(pause.current);
            go({ search: typed });
          }}
        >
          <input
            type="search"
            name="q"
            placeholder="Search articles..."
            aria-label="Search articles"
            maxLength={200}
            value={typed}
            onChange={(e) => setSearch(e.target.value)}
          />
        </form>
        {/* Sent with the search, but outside the form: pico rounds its first and last field's corners. */}
        {category && <input type="hidden" name="category" value={category} form="blog-search" />}
        <div className="category-filter" role="group" aria-labelledby="filter-label">
          <span id="filter-label">Filter by:</span>
          <div className="category-chips" ref={chips}>
            {(categories.data ?? []).map((c) => {
              const next = category === c.slug ? null : c.slug;
              // A link to the list filtered (or unfiltered again), so it works without scripts too.
              return (
                <a
                  key={c.slug}
                  href={blogListAddress({ category: next, search, page: 1 })}
                  role="button"
                  className={category === c.slug ? "chip active" : "chip outline secondary"}
                  aria-pressed={category === c.slug}
                  // Chromium leaves a chip reached by Tab where it is, even out of the row's view.
                  onFocus={(event) => event.currentTarget.scrollIntoView({ block: "nearest", inline: "nearest" })}
                  onClick={(event) => {
                    if (!isPlainClick(event)) return;
                    event.preventDefault();
                    go({ category: next });
                  }}
                >
                  {c.name}
                </a>
              );
            })}
          </div>
          {/* Resting, it keeps its place (hidden), so the chips do not move when a search starts. */}
          {clearIdle ? (
            <span className="clear-link idle" aria-hidden="true">
              Clear filters
            </span>
          ) : (
            <a
              href="/blog"
              className="clear-link"
              onClick={(e) => {
                e.preventDefault();
                clear();
              }}
            >
              Clear filters
            </a>
          )}
        </div>
      </div>

      {missing ? (
        <section className="empty-state" aria-live="polite">
          <h2>No page {page} here</h2>
          <p>{filtersActive ? "These filters find fewer articles." : "The blog has fewer articles than that."}</p>
          <p>
            <Link href={blogListAddress({ ...state, page: 1 })}>Go to the first page</Link>
            {lastPage !== null && lastPage > 1 && (
              <>
                {" or "}
                <Link href={blogListAddress({ ...state, page: lastPage })}>the last, page {lastPage}</Link>
              </>
            )}
          </p>
        </section>
      ) : posts.isError && !data ? (
        <section className="empty-state" role="alert">
          <h2>The articles did not load</h2>
          <p>Check your connection, then try again.</p>
          <button type="button" onClick={() => void posts.refetch()}>
            Try again
          </button>
        </section>
      ) : !data ? (
        <Loading text="Loading articles..." />
      ) : found === 0 && tooShort ? (
        // Nothing found while typing the first letters: not yet "not found".
        <section className="empty-state" aria-live="polite">
          <h2>Keep typing to search</h2>
          <p>
            Three letters or more find every word that starts with them. Shorter searches find only a whole word, such
            as “tv”, and the commonest words, such as “the”, are not searched.
          </p>
        </section>
      ) : found === 0 ? (
        <section className="empty-state" aria-live="polite">
          <h2>No articles found</h2>
          <p>{shownFiltered ? "Try changing your filters or search term." : "Check back soon for new content!"}</p>
          {shownFiltered && (
            // A link that looks like a button, so it clears the filters without JavaScript too.
            <a
              href="/blog"
              role="button"
              onClick={(event) => {
                event.preventDefault();
                clear();
              }}
            >
              Clear filters
            </a>
          )}
        </section>
      ) : (
        <>
          <p className="blog-status" aria-live="polite" tabIndex={-1} ref={status}>
            {found.toLocaleString("en-US")} {found === 1 ? "article" : "articles"}
            {shown.category ? ` in ${categoryName}` : ""}
            {shown.search.trim() ? ` found for “${shown.search.trim()}”` : ""}
            {data.pages > 1 ? ` · page ${data.page} of ${data.pages}` : ""}
          </p>
          <ul className="post-grid" aria-busy={posts.isPlaceholderData}>
            {data.posts.map((post, i) => (
              <li key={post.id}>
                <PostCard post={post} search={shown.search} first={i < 2} />
              </li>
            ))}
          </ul>
          {data.pages > 1 && (
            <nav className="blog-pages" aria-label="Blog pages">
              {data.page > 1 ? (
                pageLink(
                  data.page - 1,
                  <>
                    ← Previous<span className="visually-hidden"> page</span>
                  </>,
                  "prev",
                )
              ) : (
                <span />
              )}
              <ol className="blog-page-numbers">
                {pageNumbers(data.page, data.pages).map((n, i) =>
                  n === "gap" ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a gap is known by its place only
                    <li key={`gap-${i}`} aria-hidden="true">
                      …
                    </li>
                  ) : n === data.page ? (
                    <li key={n}>
                      <span className="blog-page-current" aria-current="page">
                        <span className="visually-hidden">Page </span>
                        {n.toLocaleString("en-US")}
                        <span className="visually-hidden"> of {data.pages.toLocaleString("en-US")}</span>
                      </span>
                    </li>
                  ) : (
                    <li key={n}>
                      {pageLink(
                        n,
                        <>
                          <span className="visually-hidden">Page </span>
                          {n.toLocaleString("en-US")}
                        </>,
                      )}
                    </li>
                  ),
                )}
              </ol>
              {data.page < data.pages ? (
                pageLink(
                  data.page + 1,
                  <>
                    Next<span className="visually-hidden"> page</span> →
                  </>,
                  "next",
                )
              ) : (
                <span />
              )}
            </nav>
          )}
        </>
      )}
      <p className="feed-link">
        <FeedLink />
        <Link href="/quiz">Take the free quiz</Link>
      </p>
    </>
  );
}
