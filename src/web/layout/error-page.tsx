import type { PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

export const route: PageRoute = { status: 500 };

export default function ErrorPage() {
  return (
    <section className="status-page">
      <PageMeta page="Something went wrong" description="An unexpected error occurred." noindex />
      <h1>Something went wrong</h1>
      <p>An unexpected error stopped this page from loading. Please try again in a moment.</p>
      <p>
        {/* A full reload: the client state may be what failed. */}
        <a href="/" role="button">
          Back to the home page
        </a>
      </p>
    </section>
  );
}
