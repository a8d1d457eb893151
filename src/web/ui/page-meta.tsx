import { useLocation } from "wouter";
import { useOrigin } from "#web/lib/origin.ts";

interface PageMetaProps {
  title: string;
  description: string;
  /** Admin and error pages ask search engines to stay away. */
  noindex?: boolean;
  /** The canonical path when it is not the current path (for example with a query). */
  canonicalPath?: string;
  keywords?: string;
  /** A site-relative or absolute image for social cards. */
  image?: string | null;
  type?: "website" | "article";
}

const DEFAULT_IMAGE = "/seed/social-card.jpg";

/**
 * Title, description, canonical link and social cards. React 19 hoists these into
 * <head>, in the first HTML and on client navigation alike.
 */
export function PageMeta({
  title,
  description,
  noindex,
  canonicalPath,
  keywords,
  image,
  type = "website",
}: PageMetaProps) {
  const origin = useOrigin();
  const [path] = useLocation();
  const url = origin + (canonicalPath ?? path);
  const imageUrl = (image ?? DEFAULT_IMAGE).startsWith("/")
    ? origin + (image ?? DEFAULT_IMAGE)
    : (image ?? DEFAULT_IMAGE);
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      {keywords && <meta name="keywords" content={keywords} />}
      {noindex ? (
        <meta name="robots" content="noindex" />
      ) : (
        <>
          <link rel="canonical" href={url} />
          <meta property="og:type" content={type} />
          <meta property="og:title" content={title} />
          <meta property="og:description" content={description} />
          <meta property="og:url" content={url} />
          <meta property="og:image" content={imageUrl} />
          <meta name="twitter:card" content="summary_large_image" />
          <meta name="twitter:title" content={title} />
          <meta name="twitter:description" content={description} />
          <meta name="twitter:image" content={imageUrl} />
        </>
      )}
    </>
  );
}
