import { pageTitle } from "#shared/features/settings/brand.ts";
import { useSettings } from "#web/features/settings/queries.ts";
import type { PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

export const route: PageRoute = { status: 500 };

export default function ErrorPage() {
  const { brandName } = useSettings();
  return (
    <section className="status-page">
      <PageMeta
        title={pageTitle("Something went wrong", brandName)}
        description="An unexpected error occurred."
        noindex
      />
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
