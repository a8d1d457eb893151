import { useSettings } from "#web/features/settings/queries.ts";
import { useOrigin } from "#web/lib/origin.ts";
import { DESCRIPTION_HINT, postMeta, TITLE_HINT } from "./post-meta.ts";

function LengthHint({ what, length, max }: { what: string; length: number; max: number }) {
  const over = length > max;
  return (
    <p className={over ? "length-hint over" : "length-hint"}>
      {what}: {length} characters
      {over ? ` — search engines show about ${max}, the rest may be cut.` : ` (about ${max} are shown).`}
    </p>
  );
}

/** How a search result cuts a text: at about `max` characters, with an ellipsis. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/**
 * How the post will look as a search result and as a shared card, live from the form, with the
 * same fallbacks the post's page uses for its meta tags (the title with the site's name, the
 * meta description or else the excerpt or else the blog's description, the cover or else the
 * site's card image).
 */
export function SocialPreview({
  title,
  slug,
  metaDescription,
  excerpt,
  coverImage,
}: {
  title: string;
  slug: string;
  metaDescription: string;
  excerpt: string;
  coverImage: string | null;
}) {
  const { brandName } = useSettings();
  const origin = useOrigin() ?? (typeof window === "undefined" ? "" : window.location.origin);
  const meta = postMeta(
    {
      title: title.trim() || "Untitled post",
      metaDescription: metaDescription.trim() || null,
      excerpt: excerpt.trim() || null,
      coverImage,
    },
    brandName,
  );
  const address = `${origin}/blog/${slug || "…"}`;
  const host = origin.replace(/^https?:\/\//, "") || "this site";
  return (
    <section className="social-preview" aria-labelledby="social-preview-heading">
      <h2 id="social-preview-heading" className="visually-hidden">
        Search and social preview
      </h2>
      <div>
        <h3>In search results</h3>
        <div className="search-result" data-testid="search-result">
          <p className="result-address">{address}</p>
          <p className="result-title">{cut(meta.title, TITLE_HINT)}</p>
          <p>{cut(meta.description, DESCRIPTION_HINT)}</p>
        </div>
        <LengthHint what="Title" length={meta.title.length} max={TITLE_HINT} />
        <LengthHint what="Description" length={meta.description.length} max={DESCRIPTION_HINT} />
      </div>
      <div>
        <h3>When shared</h3>
        <div className="share-card" data-testid="share-card">
          <img src={meta.image} alt="" width={1200} height={630} />
          <div className="card-text">
            <p className="card-site">
              {brandName} · {host}
            </p>
            <p>
              <strong>{meta.title}</strong>
            </p>
            <p>{meta.description}</p>
          </div>
        </div>
      </div>
    </section>
  );
}
