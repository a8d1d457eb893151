import { useQuery } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import { pageTitle } from "#shared/features/settings/brand.ts";
import { API } from "#shared/paths.ts";
import type { SitePage } from "#shared/features/site-pages/contract.ts";

/** /terms and /privacy: operator-editable text pages (DECISIONS P8). */
export default function SitePageView() {
  const [location] = useLocation();
  const slug = location.replace(/^\//, "");
  const { brandName } = useSettings();
  const { data, isError } = useQuery<SitePage>({ queryKey: [API.sitePage(slug)] });

  if (!data) {
    return <p aria-busy={!isError}>{isError ? "This page could not be loaded. Please try again." : "Loading…"}</p>;
  }
  return (
    <article className="prose">
      <PageMeta title={pageTitle(data.title, brandName)} description={data.description} />
      <h1>{data.title}</h1>
      <p className="muted">Last updated {data.updatedAt.slice(0, 10)}</p>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: trusted HTML, written in content/ or by the site's admin, never by visitors. */}
      <div dangerouslySetInnerHTML={{ __html: data.body }} />
    </article>
  );
}
