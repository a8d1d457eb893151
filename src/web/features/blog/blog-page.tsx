import { Link, useLocation, useSearch } from "wouter";
import { filterPosts } from "#shared/features/blog/blog.ts";
import { categoryLabel } from "#shared/features/blog/categories.ts";
import { blogCategoriesRead, blogMovedRead, blogPostsRead } from "#shared/features/blog/reads.ts";
import { useSettings } from "#web/features/settings/queries.ts";
import { isPlainClick } from "#web/lib/clicks.ts";
import { useRead } from "#web/lib/reads.ts";
import { type PageRoute, required } from "#web/page-route.ts";
import { Loading } from "#web/ui/error-state.tsx";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { FeedAlternate, FeedLink } from "./feed.tsx";
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
    return [required(blogPostsRead), required(blogCategoriesRead)];
  },
};

/** The list's address: the category and the search as typed, each only when set. */
function blogAddress(category: string | null, search: string): string {
  const query = new URLSearchParams();
  if (category) query.set("category", category);
  if (search.trim() !== "") query.set("q", search);
  const encoded = query.toString();
  return encoded ? `/blog?${encoded}` : "/blog";
}

/** /blog with optional ?category= and ?q= (docs/product.md#blog-list). */
export default function BlogPage() {
  const { brandName } = useSettings();
  const [, navigate] = useLocation();
  const query = new URLSearchParams(useSearch());
  const category = query.get("category");
  // The address holds the search, so a reload, Back and a shared link keep it.
  const search = query.get("q") ?? "";
  const posts = useRead(blogPostsRead);
  const categories = useRead(blogCategoriesRead);

  const filtersActive = Boolean(category) || search.trim() !== "";
  const visible = filterPosts(posts.data ?? [], { category, search });
  const setCategory = (slug: string | null) => navigate(blogAddress(slug, search), { replace: true });
  const setSearch = (text: string) => navigate(blogAddress(category, text), { replace: true });
  const clear = () => navigate("/blog", { replace: true });

  return (
    <>
      <PageMeta
        page="Webcam Model Blog"
        description="Expert advice, platform reviews, and income strategies to help you succeed as a webcam model."
        canonicalPath={category ? `/blog?category=${encodeURIComponent(category)}` : "/blog"}
      />
      <FeedAlternate brandName={brandName} />
      <header className="page-intro">
        <h1>Cam Model Resources &amp; Guides</h1>
        <p>Expert advice, platform reviews, and income strategies to help you succeed as a webcam model.</p>
      </header>

      <div className="blog-filters">
        {/* Without scripts, Enter sends the search to the server, which renders the filtered list. */}
        <form method="get" action="/blog" role="search" onSubmit={(e) => e.preventDefault()}>
          {category && <input type="hidden" name="category" value={category} />}
          <input
            type="search"
            name="q"
            placeholder="Search articles..."
            aria-label="Search articles"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </form>
        <div className="category-filter" role="group" aria-labelledby="filter-label">
          <span id="filter-label">Filter by:</span>
          {(categories.data ?? []).map((c) => {
            const next = category === c.slug ? null : c.slug;
            // A link to the list filtered (or unfiltered again), so it works without scripts too.
            return (
              <a
                key={c.slug}
                href={blogAddress(next, search)}
                role="button"
                className={category === c.slug ? "chip active" : "chip outline secondary"}
                aria-pressed={category === c.slug}
                onClick={(event) => {
                  if (!isPlainClick(event)) return;
                  event.preventDefault();
                  setCategory(next);
                }}
              >
                {c.name}
              </a>
            );
          })}
          {filtersActive && (
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

      {posts.isPending ? (
        <Loading text="Loading articles..." />
      ) : visible.length === 0 ? (
        <section className="empty-state" aria-live="polite">
          <h2>No articles found</h2>
          <p>{filtersActive ? "Try changing your filters or search term." : "Check back soon for new content!"}</p>
          {filtersActive && (
            <button type="button" onClick={clear}>
              Clear Filters
            </button>
          )}
        </section>
      ) : (
        <>
          <p className="visually-hidden" aria-live="polite">
            {visible.length} {visible.length === 1 ? "article" : "articles"}
            {category ? ` in ${categoryLabel(category)}` : ""}
          </p>
          <ul className="post-grid">
            {visible.map((post) => (
              <li key={post.id}>
                <PostCard post={post} />
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="feed-link">
        <FeedLink />
        <Link href="/quiz">Take the free quiz</Link>
      </p>
    </>
  );
}
