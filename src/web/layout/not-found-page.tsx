import { Link } from "wouter";
import { pageTitle } from "#shared/features/settings/brand.ts";
import { useSettings } from "#web/features/settings/queries.ts";
import type { PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

export const route: PageRoute = { status: 404 };

export default function NotFoundPage() {
  const { brandName } = useSettings();
  return (
    <section className="status-page">
      <PageMeta title={pageTitle("Page Not Found", brandName)} description="This page does not exist." noindex />
      <h1>404 Page Not Found</h1>
      <p>Did you forget to add the page to the router? If you followed a link here, the page may have moved.</p>
      <p>
        <Link href="/" role="button">
          Back to the home page
        </Link>
      </p>
    </section>
  );
}
