import { useLocation } from "wouter";
import { pageTitle } from "#shared/features/settings/brand.ts";
import { useTabTitle } from "#web/features/privacy/discreet-mode.ts";
import { useSettings } from "#web/features/settings/queries.ts";
import { useOrigin } from "#web/lib/origin.ts";

type PageMetaProps = (
  | {
      /** A page of the site, named by itself: its title becomes "{page} | {brand}" (product.md's page titles). */
      page: string;
      title?: never;
    }
  | {
      /** The whole title, for a page titled otherwise (the admin's, a post's own). */
      title: string;
      page?: never;
    }
) & {
  description: string;
  /** Admin and error pages ask search engines to stay away. */
  noindex?: boolean;
  /** The canonical path when it is not the current path (for example with a query). */
  canonicalPath?: string;
  keywords?: string;
  /** A site-relative or absolute image for social cards. */
  image?: string | null;
  type?: "website" | "article";
};

/** The social card image of a page that names none. */
export const DEFAULT_IMAGE = "/seed/social-card.jpg";

/** A path on this site made absolute with the public address; null when that is unknown. */
export function absoluteUrl(origin: string | null, pathOrUrl: string): string | null {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return origin && pathOrUrl.startsWith("/") ? origin + pathOrUrl : null;
}

/**
 * Title, description, canonical link and social cards. React 19 hoists these into
 * <head>, in the first HTML and on client navigation alike.
 */
export function PageMeta({
  page,
  title: wholeTitle,
  description,
  noindex,
  canonicalPath,
  keywords,
  image,
  type = "website",
}: PageMetaProps) {
  const { brandName } = useSettings();
  const title = wholeTitle ?? pageTitle(page, brandName);
  const origin = useOrigin();
  const [path] = useLocation();
  // Without a known public address the canonical link is relative (valid HTML, resolved by
  // the crawler against the page it fetched), and the social tags that need an absolute
  // URL are left out.
  // One leading slash only: "//host/…" would name another site.
  const canonical = (origin ?? "") + (canonicalPath ?? path).replace(/^[/\\]+/, "/");
  const url = origin ? canonical : null;
  const imageUrl = absoluteUrl(origin, image ?? DEFAULT_IMAGE);
  // Discreet mode shows a plain tab title; the social cards keep the real one for crawlers.
  const tabTitle = useTabTitle(title);
  return (
    <>
      <title>{tabTitle}</title>
      <meta name="description" content={description} />
      {keywords && <meta name="keywords" content={keywords} />}
      {noindex ? (
        <meta name="robots" content="noindex" />
      ) : (
        <>
          <link rel="canonical" href={canonical} />
          <meta property="og:type" content={type} />
          <meta property="og:title" content={title} />
          <meta property="og:description" content={description} />
          {url && <meta property="og:url" content={url} />}
          {imageUrl && <meta property="og:image" content={imageUrl} />}
          <meta name="twitter:card" content="summary_large_image" />
          <meta name="twitter:title" content={title} />
          <meta name="twitter:description" content={description} />
          {imageUrl && <meta name="twitter:image" content={imageUrl} />}
        </>
      )}
    </>
  );
}
