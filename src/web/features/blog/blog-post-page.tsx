import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { longDate } from "#shared/features/blog/blog.ts";
import { blogCategoriesRead, blogMovedRead, blogPostRead, blogRelatedRead } from "#shared/features/blog/reads.ts";
import { IMAGE_SIZES } from "#shared/features/media/constants.ts";
import { useDisclosureWording } from "#web/features/disclosure/disclosure.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import { useOrigin } from "#web/lib/origin.ts";
import { useRead } from "#web/lib/reads.ts";
import { type PageProps, type PageRoute, required } from "#web/page-route.ts";
import { Loading } from "#web/ui/error-state.tsx";
import { FitImage } from "#web/ui/fit-image.tsx";
import { absoluteUrl, PageMeta } from "#web/ui/page-meta.tsx";
import { CategoryBadge } from "./category-badge.tsx";
import { FeedAlternate } from "./feed.tsx";
import { lastListAddress } from "./last-list.ts";
import { PostCard } from "./post-card.tsx";
import { labelManagedLinks } from "./post-links.ts";
import { postMeta } from "./post-meta.ts";
import { loadVideo, videoPlaceholders } from "./post-videos.ts";
import { RelativeTime } from "./relative-time.tsx";

/** Where a missing post sends the visitor: the footer's Platform Reviews link falls back to that category. */
const missingPostTarget = (slug: string) => (slug === "platform-reviews" ? "/blog?category=platform-reviews" : "/blog");

export const route: PageRoute = {
  cache: true,
  loader: async ({ params, read }) => {
    const slug = params.slug ?? "";
    if ((await read(blogPostRead, { slug })) === null) {
      // A post's old address forwards for good to its new one (a 301); an unknown or
      // unpublished post sends the visitor to the blog (a 302).
      const moved = await read(blogMovedRead, { kind: "post", slug });
      return moved ? { to: moved.to, permanent: true } : { to: missingPostTarget(slug) };
    }
    // The categories too: a badge shows its category's name as the admin wrote it.
    return [required(blogPostRead, { slug }), required(blogRelatedRead, { slug }), required(blogCategoriesRead)];
  },
};

const DEFAULT_KEYWORDS =
  "cam model tips, webcam model guide, best cam sites, how to become a cam model, cam model income";

/** /blog/{slug} (docs/product.md#blog-post-page). */
export default function BlogPostPage({ params }: PageProps) {
  const slug = params.slug ?? "";
  const { brandName } = useSettings();
  const origin = useOrigin();
  const [, navigate] = useLocation();
  const post = useRead(blogPostRead, { slug });
  const related = useRead(blogRelatedRead, { slug });
  const { affiliate } = useDisclosureWording();
  const content = useRef<HTMLDivElement>(null);
  // Back to the list as it was left (its category, search, page): known once in the browser,
  // so the first HTML and its hydration both say /blog.
  const [backTo, setBackTo] = useState("/blog");
  useEffect(() => setBackTo(lastListAddress()), []);
  // The post's HTML is the server's: its 'Load video' buttons are handled here, by delegation.
  useEffect(() => {
    const box = content.current;
    box?.addEventListener("click", loadVideo);
    return () => box?.removeEventListener("click", loadVideo);
  });

  // A missing post: its new address when it has moved, else back to the blog, with no message.
  const moved = useRead(blogMovedRead, post.isError ? { kind: "post", slug } : null);
  useEffect(() => {
    if (post.isError && !moved.isPending) navigate(moved.data?.to ?? missingPostTarget(slug), { replace: true });
  }, [post.isError, moved.isPending, moved.data, slug, navigate]);

  if (!post.data) return <Loading text="Loading article..." />;
  const p = post.data;
  const { title, description } = postMeta(p, brandName);
  // Structured data needs absolute URLs: without a known public address they are left out.
  const url = origin ? `${origin}/blog/${p.slug}` : null;
  const image = p.coverImage ? absoluteUrl(origin, p.coverImage) : null;
  const jsonLd = [
    {
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: p.title,
      description,
      ...(image ? { image } : {}),
      datePublished: p.date,
      dateModified: p.updatedAt,
      author: { "@type": "Organization", name: brandName },
      publisher: { "@type": "Organization", name: brandName },
      ...(url ? { mainEntityOfPage: url } : {}),
      keywords: p.metaKeywords ?? undefined,
    },
    ...(origin && url
      ? [
          {
            "@context": "https://schema.org",
            "@type": "BreadcrumbList",
            itemListElement: [
              { "@type": "ListItem", position: 1, name: "Home", item: `${origin}/` },
              { "@type": "ListItem", position: 2, name: "Blog", item: `${origin}/blog` },
              { "@type": "ListItem", position: 3, name: p.title, item: url },
            ],
          },
        ]
      : []),
  ];

  return (
    <article className="blog-post">
      <PageMeta
        title={title}
        description={description}
        keywords={p.metaKeywords || DEFAULT_KEYWORDS}
        image={p.coverImage}
        type="article"
      />
      <FeedAlternate brandName={brandName} />
      <script
        type="application/ld+json"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: a data block, not a script: the CSP does not apply, and < is escaped.
        dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, "\\u003c") }}
      />
      <p>
        <Link href={backTo} role="button" className="secondary outline back-button">
          ← Back to Blog
        </Link>
      </p>
      <header className="post-header">
        {p.category && <CategoryBadge slug={p.category} />}
        <h1>{p.title}</h1>
        <p className="post-meta">
          <time dateTime={p.date}>{longDate(p.date)}</time> · <RelativeTime iso={p.date} /> · {p.readingMinutes} min
          read
        </p>
      </header>
      {p.coverImage && (
        <FitImage
          className="post-cover large"
          src={p.coverImage}
          fit={p.coverFit}
          sizes={IMAGE_SIZES.article}
          alt=""
          width={1200}
          height={630}
        />
      )}
      <div
        ref={content}
        className="post-content"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server with an allow-list before it is stored and when it is served; the managed links' labels added here are escaped text.
        dangerouslySetInnerHTML={{ __html: videoPlaceholders(labelManagedLinks(p.content, p.slug, affiliate)) }}
      />

      <aside className="closing-banner" aria-labelledby="closing-heading">
        <h2 id="closing-heading">Ready to Start Your Cam Journey?</h2>
        <p>Discover your unique cam girl archetype and learn how much you could earn.</p>
        <Link href="/quiz" role="button">
          Take the Free Quiz
        </Link>
      </aside>

      {related.data && related.data.length > 0 && (
        <section aria-labelledby="related-heading">
          <h2 id="related-heading">Related articles</h2>
          <ul className="post-grid">
            {related.data.map((r) => (
              <li key={r.id}>
                <PostCard post={r} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
