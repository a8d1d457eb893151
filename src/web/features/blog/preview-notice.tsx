import { longDate } from "#shared/features/blog/blog.ts";

export type PreviewState = "draft" | "scheduled" | "published" | "unsaved";

const DETAIL: Record<PreviewState, string> = {
  draft: "This post is a draft: visitors cannot see it.",
  scheduled: "This post is scheduled: visitors see it from",
  published: "This post is published: visitors see it at",
  unsaved: "These are the editor's unsaved changes: nothing has been saved or published.",
};

/**
 * The notice of a post preview (the admin only): what the preview shows and the way
 * back to the editor. Rendered on the server after the page (kept in view at the bottom), with a robots meta tag that
 * React moves into the head.
 */
export function PreviewNotice({
  editor,
  state,
  publishAt,
  address,
}: {
  editor: string;
  state: PreviewState;
  publishAt: string | null;
  address: string;
}) {
  return (
    <aside className="preview-notice" aria-label="Preview">
      <meta name="robots" content="noindex, nofollow" />
      <p>
        <strong>{state === "published" ? "Preview" : "Preview — not published"}</strong>{" "}
        {state === "scheduled" && publishAt ? (
          <>
            {DETAIL.scheduled}{" "}
            <time dateTime={publishAt}>{`${longDate(publishAt)}, ${publishAt.slice(11, 16)} UTC`}</time>.
          </>
        ) : state === "published" ? (
          <>
            {DETAIL.published} <a href={address}>{address}</a>.
          </>
        ) : (
          DETAIL[state]
        )}{" "}
        <a href={editor}>Back to the editor</a>
      </p>
    </aside>
  );
}
