import { Link } from "wouter";
import { type Marked, markWords, passageParts } from "#shared/features/blog/blog.ts";
import type { FoundPost } from "#shared/features/blog/contract.ts";
import { type CoverFit, IMAGE_SIZES } from "#shared/features/media/constants.ts";
import { FitImage } from "#web/ui/fit-image.tsx";
import { CategoryBadge } from "./category-badge.tsx";
import { RelativeTime } from "./relative-time.tsx";

/** Text with the words a search found marked. */
function Marks({ parts }: { parts: Marked }) {
  return parts.map((part, i) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order, never reordered
    part.mark ? <mark key={i}>{part.text}</mark> : part.text,
  );
}

/**
 * A post card: cover or placeholder, badge, relative time, title, clamped excerpt, Read More.
 * In a search's results, the words found are marked, and a passage of the text shows where
 * they are when the title and the excerpt do not hold them. The `first` cards' covers are on
 * the first screen: fetched at once, not once the browser has laid the page out.
 */
export function PostCard({
  post,
  search = "",
  first = false,
}: {
  post: FoundPost & CoverFit;
  search?: string;
  first?: boolean;
}) {
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
            loading={first ? "eager" : "lazy"}
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
          <Link href={`/blog/${post.slug}`}>
            <Marks parts={markWords(post.title, search)} />
          </Link>
        </h2>
        {post.excerpt && (
          <p className="post-excerpt">
            <Marks parts={markWords(post.excerpt, search)} />
          </p>
        )}
        {search && post.passage && (
          <p className="post-passage">
            <Marks parts={passageParts(post.passage)} />
          </p>
        )}
        <Link href={`/blog/${post.slug}`} className="read-more">
          Read More<span className="visually-hidden">: {post.title}</span>
        </Link>
      </div>
    </article>
  );
}
