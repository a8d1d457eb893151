import { Link, useLocation } from "wouter";
import type { PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

export const route: PageRoute = { status: 404 };

/** The main places a lost visitor may have been looking for. */
const DESTINATIONS = [
  { href: "/quiz", label: "Take the free quiz" },
  { href: "/learn", label: "Start the free course" },
  { href: "/blog", label: "Read the blog" },
];

export default function NotFoundPage() {
  const [, navigate] = useLocation();
  return (
    <section className="status-page">
      <PageMeta page="Page Not Found" description="This page does not exist." noindex />
      <h1>404 Page Not Found</h1>
      {/* A visitor's page: no hint meant for the site's developers. */}
      <p>If you followed a link here, the page may have moved or been removed.</p>
      <nav aria-label="Where to go from here">
        <ul className="not-found-links">
          {DESTINATIONS.map((d) => (
            <li key={d.href}>
              <Link href={d.href}>{d.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* A plain GET form: without scripts the browser sends it to the blog, which the server renders searched. */}
      <form
        method="get"
        action="/blog"
        role="search"
        className="not-found-search"
        onSubmit={(e) => {
          e.preventDefault();
          const q = String(new FormData(e.currentTarget).get("q") ?? "").trim();
          navigate(q ? `/blog?${new URLSearchParams({ q })}` : "/blog");
        }}
      >
        <input type="search" name="q" aria-label="Search the blog" placeholder="Search the blog..." />
        <button type="submit">Search</button>
      </form>
      <p>
        <Link href="/" role="button">
          Back to the home page
        </Link>
      </p>
    </section>
  );
}
