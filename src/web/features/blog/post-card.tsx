import { Link } from "wouter";
import type { BlogPostSummary } from "#shared/features/blog/contract.ts";
import { type CoverFit, IMAGE_SIZES } from "#shared/features/media/constants.ts";
import { FitImage } from "#web/ui/fit-image.tsx";
import { CategoryBadge } from "./category-badge.tsx";
import { RelativeTime } from "./relative-time.tsx";

/** A post card: cover or placeholder, badge, relative time, title, clamped excerpt, Read More. */
export function PostCard({ post }: { post: BlogPostSummary & CoverFit }) {
  return (
    <article className="post-card">
      <Link href={`/blog/${post.slug}`} className="post-cover-link" tabIndex={-1} aria-hidden="true">
        {post.coverImage ? (
          <FitImage
            className="post-cover"
            src={post.coverImage}
            fit={post.coverFit}
            sizes={IMAGE_SIZES.card}
            alt=""
            loading="lazy"
            width={1200}
            height={630}
          />
        ) : (
          <div className="post-cover placeholder">📝</div>
        )}
      </Link>
      <div className="post-card-body">
        <p className="post-meta">
          {post.category && <CategoryBadge slug={post.category} />} <RelativeTime iso={post.date} />
        </p>
        <h2 className="post-card-title">
          <Link href={`/blog/${post.slug}`}>{post.title}</Link>
        </h2>
        {post.excerpt && <p className="post-excerpt">{post.excerpt}</p>}
        <Link href={`/blog/${post.slug}`} className="read-more">
          Read More<span className="visually-hidden">: {post.title}</span>
        </Link>
      </div>
    </article>
  );
}
