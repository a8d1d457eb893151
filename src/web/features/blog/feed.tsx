import { useOrigin } from "#web/lib/origin.ts";

/** Where the blog's RSS feed is served; it answers only once the site's public address is known. */
const FEED_PATH = "/blog/rss.xml";

/**
 * The feed announced in the page's head, for feed readers. Left out while the site's public
 * address is unknown: the feed needs absolute links and answers 404 until then.
 */
export function FeedAlternate({ brandName }: { brandName: string }) {
  if (!useOrigin()) return null;
  return <link rel="alternate" type="application/rss+xml" title={`${brandName} Blog`} href={FEED_PATH} />;
}

/** The visible "RSS feed" link, followed by a separator, or nothing while the feed cannot answer. */
export function FeedLink() {
  if (!useOrigin()) return null;
  return (
    <>
      <a href={FEED_PATH}>RSS feed</a> ·{" "}
    </>
  );
}
