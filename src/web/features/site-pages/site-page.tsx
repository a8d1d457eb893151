import { Link, useLocation } from "wouter";
import { DISCLOSURE_ANCHOR } from "#shared/features/disclosure/constants.ts";
import { withHeadingIds } from "#shared/features/site-pages/heading-ids.ts";
import { sitePageRead } from "#shared/features/site-pages/reads.ts";
import { ClearDataButton } from "#web/features/privacy/clear-data-button.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import { useRead } from "#web/lib/reads.ts";
import { type PageRoute, required } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

const slugOf = (pathname: string) => pathname.replace(/^\//, "");

export const route: PageRoute = {
  cache: true,
  loader: ({ pathname }) => [required(sitePageRead, { slug: slugOf(pathname) })],
};

/** /terms and /privacy: operator-editable text pages (docs/product.md#terms-and-privacy-pages). */
export default function SitePageView() {
  const [location] = useLocation();
  const { data, isError } = useRead(sitePageRead, { slug: slugOf(location) });

  if (!data) {
    return <p aria-busy={!isError}>{isError ? "This page could not be loaded. Please try again." : "Loading…"}</p>;
  }
  // Each section heading gets an id, so links such as /terms#affiliate-disclosure land on it.
  const body = withHeadingIds(data.body);
  return (
    <article className="prose">
      <PageMeta page={data.title} description={data.description} />
      <h1>{data.title}</h1>
      <p className="muted">Last updated {data.updatedAt.slice(0, 10)}</p>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: trusted HTML, written in content/ or by the site's admin, never by visitors. */}
      <div dangerouslySetInnerHTML={{ __html: body }} />
      {data.slug === "terms" && !body.includes(`id="${DISCLOSURE_ANCHOR}"`) ? <AffiliateDisclosureSection /> : null}
      {data.slug === "privacy" ? (
        <section id="clear-data" className="privacy-controls" aria-labelledby="clear-data-title">
          <h2 id="clear-data-title">Clear your data on this device</h2>
          <p>
            One step removes everything this site keeps in this browser. You see what will be removed before it happens.
          </p>
          <ClearDataButton />
        </section>
      ) : null}
      {data.slug === "privacy" ? (
        <section id="resume" aria-labelledby="resume-title">
          <h2 id="resume-title">Continue on another device</h2>
          <p>
            A resume code carries your results and course progress to another device, without our server storing or
            seeing it. <Link href="/resume">Make or use a resume code</Link>.
          </p>
        </section>
      ) : null}
    </article>
  );
}

/**
 * The terms page's affiliate disclosure when the operator's text has no "Affiliate disclosure"
 * section: every page's note links here, so the section is always there to land on.
 */
function AffiliateDisclosureSection() {
  const { brandName } = useSettings();
  return (
    <section aria-labelledby={DISCLOSURE_ANCHOR}>
      <h2 id={DISCLOSURE_ANCHOR}>Affiliate disclosure</h2>
      <p>
        {brandName} is supported by affiliate links. Links marked Affiliate link or Sponsored lead to webcam platforms
        or retailers; if you sign up or buy through one, the operator may earn a commission. This does not change the
        price you pay, and it does not decide what we recommend.
      </p>
    </section>
  );
}
