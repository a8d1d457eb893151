import { useId } from "react";
import { PREVIEW_PATH } from "#shared/features/blog/constants.ts";
import type { BlogPost } from "#shared/features/blog/contract.ts";
import { adminDateTime } from "#web/admin/date-time.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO instant as a datetime-local value in this browser's time zone ("2031-03-01T11:05"). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (this browser's time) as the UTC instant the API takes; empty is null. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The post form's publish date, beside "Publish post": in the admin's local time, sent as UTC. */
export function PublishDate({
  value,
  published,
  onChange,
  error,
}: {
  /** Absent (a form that never set it) is no date. */
  value?: string | null;
  published: boolean;
  onChange: (iso: string | null) => void;
  error?: string;
}) {
  const id = useId();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const future = value != null && new Date(value).getTime() > Date.now();
  return (
    <div className="field publish-date">
      <label htmlFor={id}>Publish date</label>
      <input
        id={id}
        name="Publish date"
        type="datetime-local"
        value={toLocalInput(value ?? null)}
        onChange={(e) => onChange(fromLocalInput(e.target.value))}
        aria-describedby={`${id}-help${error ? ` ${id}-error` : ""}`}
        {...(error ? { "aria-invalid": true as const } : {})}
      />
      <small id={`${id}-help`}>
        {future && published
          ? `Scheduled: visitors see the post from ${adminDateTime(value)}, without anything else to do.`
          : future
            ? "Tick “Publish post” too, or the post stays a draft after this date."
            : "Empty: the post is public as soon as it is published. A date in the future keeps it hidden until then."}{" "}
        Your time zone: {zone}.
      </small>
      {value !== null && (
        <button type="button" className="secondary outline small-button" onClick={() => onChange(null)}>
          Clear the date
        </button>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** Whether visitors see the post now. */
export function isPublicNow(post: Pick<BlogPost, "published" | "publishAt">, now = Date.now()): boolean {
  return post.published && (post.publishAt === null || new Date(post.publishAt).getTime() <= now);
}

/** The posts list's Status cell: Published, Scheduled (with its date) or Draft, and a preview for the last two. */
export function PostStatus({ post }: { post: Pick<BlogPost, "id" | "title" | "published" | "publishAt"> }) {
  if (isPublicNow(post)) return <>Published</>;
  return (
    <>
      {post.published && post.publishAt ? `Scheduled for ${adminDateTime(post.publishAt)}` : "Draft"}{" "}
      <a href={`${PREVIEW_PATH}/${post.id}`} target="_blank" rel="noopener" className="small-button">
        Preview<span className="visually-hidden"> {post.title} (opens in a new tab)</span>
      </a>
    </>
  );
}
