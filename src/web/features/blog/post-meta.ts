import { pageTitle } from "#shared/features/settings/brand.ts";
import { DEFAULT_IMAGE } from "#web/ui/page-meta.tsx";

/** What a post's page says to search engines when the post has no meta description nor excerpt. */
const DEFAULT_POST_DESCRIPTION =
  "Practical, honest guides for new webcam models: safety, setup, engagement and income.";

/** About how many characters a search result shows of a title and of a description. */
export const TITLE_HINT = 60;
export const DESCRIPTION_HINT = 160;

/**
 * The title, description and image a post's page gives search engines and social cards, with
 * the page's own fallbacks: the post page and the editor's preview both use this.
 */
export function postMeta(
  post: { title: string; metaDescription: string | null; excerpt: string | null; coverImage: string | null },
  brandName: string,
) {
  return {
    title: pageTitle(post.title, brandName),
    description: post.metaDescription || post.excerpt || DEFAULT_POST_DESCRIPTION,
    image: post.coverImage || DEFAULT_IMAGE,
  };
}
