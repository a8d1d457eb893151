import { useEffect, useId, useState } from "react";
import { Link } from "wouter";
import type { MediaItem } from "#shared/features/media/contract.ts";
import { formatSize } from "#shared/format.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { useAdminRefresh, useAdminSend } from "#web/admin/admin-queries.ts";
import { ApiError, serverReason } from "#web/lib/query-client.ts";
import { toast, toastError } from "#web/stores/toast.ts";
import { closedNow, useModalDialog } from "#web/ui/modal-dialog.ts";
import {
  formatDay,
  matchesSearch,
  shownName,
  type Uploaded,
  usageLabel,
  useMediaLibrary,
  useUploadInput,
} from "./media-data.ts";
import { MediaSearch } from "./media-search.tsx";

/** /admin/media: the media library. Every upload, where it is used, its alt text, upload and delete. */
export function MediaTab() {
  const library = useMediaLibrary();
  const [query, setQuery] = useState("");
  const [deleting, setDeleting] = useState<MediaItem | null>(null);
  const items = library.data ?? [];
  const shown = items.filter((item) => matchesSearch(item, query));

  return (
    <>
      <h2>Media</h2>
      <p className="muted">
        Every image and video uploaded to the site. Images are shown to visitors at a size fit for their screen.
      </p>
      <div className="toolbar media-toolbar">
        <UploadField label="Upload a file" />
        <MediaSearch value={query} onChange={setQuery} />
      </div>
      {library.isPending ? (
        <p aria-busy="true">Loading the media library...</p>
      ) : library.isError ? (
        <p role="alert">Error loading the media library. Please try again.</p>
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {query.trim()
              ? `${shown.length} of ${items.length} files match “${query.trim()}”.`
              : `${items.length} file${items.length === 1 ? "" : "s"}.`}
          </p>
          {items.length === 0 ? (
            <p className="empty-state">No uploads yet. Upload an image or a video to get started.</p>
          ) : (
            <ul className="media-grid">
              {shown.map((item) => (
                <li key={item.id}>
                  <MediaCard item={item} onDelete={() => setDeleting(item)} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <DeleteMediaDialog item={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

/** A file field that uploads what is chosen into the library. */
export function UploadField({
  label,
  accept = "image/*,video/*",
  onUploaded,
}: {
  label: string;
  accept?: string;
  onUploaded?: (uploaded: Uploaded) => void;
}) {
  const { busy, input, send } = useUploadInput("There was a problem uploading the file. Please try again.");
  const id = useId();

  async function pick(file: File | undefined) {
    if (!file) return;
    const uploaded = await send(file);
    if (!uploaded) return;
    toast(
      uploaded.existing
        ? {
            title: "Already in the library",
            description: `${file.name} is a file the media library has: nothing new was stored.`,
          }
        : { title: "Uploaded", description: `${file.name} is in the media library.` },
    );
    onUploaded?.(uploaded);
  }

  return (
    <div className="media-upload">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        disabled={busy}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      {busy && <p aria-live="polite">Uploading...</p>}
    </div>
  );
}

/** The thumbnail: the smallest copy of an image, an icon for a video, a sign for a missing file. */
export function MediaThumb({ item }: { item: MediaItem }) {
  if (item.missing)
    return (
      <div className="media-thumb media-thumb-missing" aria-hidden="true">
        File missing
      </div>
    );
  if (!item.thumbUrl)
    return (
      <div className="media-thumb media-thumb-video" aria-hidden="true">
        🎞️
      </div>
    );
  const small = item.variants[0];
  return (
    <div className="media-thumb">
      <img
        src={item.thumbUrl}
        alt=""
        loading="lazy"
        width={small?.width ?? item.width ?? undefined}
        height={small?.height ?? item.height ?? undefined}
      />
    </div>
  );
}

function MediaCard({ item, onDelete }: { item: MediaItem; onDelete: () => void }) {
  const nameId = useId();
  return (
    <article className="media-card" aria-labelledby={nameId}>
      <MediaThumb item={item} />
      <h3 id={nameId} className="media-name">
        {shownName(item)}
      </h3>
      <p className="muted media-facts">
        {item.kind === "video" ? "Video" : "Image"} · {formatSize(item.size)}
        {item.width && item.height ? ` · ${item.width} × ${item.height}` : ""} · {formatDay(item.createdAt)}
      </p>
      {item.missing && (
        <p className="media-missing">
          The file is missing from the uploads folder, so visitors get an error where it is shown. Put it back from a
          backup, or delete this entry.
        </p>
      )}
      {item.usage.length === 0 ? (
        <p className="muted">Not used anywhere.</p>
      ) : (
        <div>
          <p className="media-used">Used in:</p>
          <UsageLinks item={item} />
        </div>
      )}
      {item.kind === "image" && <AltForm item={item} />}
      <p className="actions">
        <a href={item.url} target="_blank" rel="noopener" className="small-button view-link">
          Open<span className="visually-hidden"> {shownName(item)} (opens in a new tab)</span>
        </a>
        <button type="button" className="danger outline small-button" onClick={onDelete}>
          Delete<span className="visually-hidden"> {shownName(item)}</span>
        </button>
      </p>
    </article>
  );
}

function UsageLinks({ item, onFollow }: { item: MediaItem; onFollow?: () => void }) {
  return (
    <ul className="media-usage">
      {item.usage.map((usage) => (
        <li key={`${usage.href} ${usage.field}`}>
          <Link href={usage.href} onClick={onFollow}>
            {usageLabel(usage)}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The image's description for screen readers; used as the alt text when it is put in a post. */
function AltForm({ item }: { item: MediaItem }) {
  const send = useAdminSend();
  const [alt, setAlt] = useState(item.alt);
  const [busy, setBusy] = useState(false);
  const id = useId();
  useEffect(() => setAlt(item.alt), [item.alt]);

  async function save() {
    setBusy(true);
    try {
      await send(at(adminApi.media, { id: item.id }).put({ alt }));
      toast({ title: "Alt text saved" });
    } catch (error) {
      toastError(serverReason(error, "The alt text was not saved."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="media-alt"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label htmlFor={id}>
        Alt text <span className="visually-hidden">for {shownName(item)}</span>
      </label>
      <div className="media-alt-row">
        <input id={id} value={alt} maxLength={300} onChange={(e) => setAlt(e.target.value)} />
        <button type="submit" className="secondary small-button" disabled={busy || alt === item.alt} aria-busy={busy}>
          Save<span className="visually-hidden"> alt text for {shownName(item)}</span>
        </button>
      </div>
    </form>
  );
}

/**
 * Asks before deleting. An upload used somewhere is a warning that lists where (with links to
 * those editors); only "Delete anyway" sends the confirmed delete the server otherwise refuses.
 */
function DeleteMediaDialog({ item, onClose }: { item: MediaItem | null; onClose: () => void }) {
  const ref = useModalDialog(item !== null);
  const send = useAdminSend();
  const refresh = useAdminRefresh();
  const [busy, setBusy] = useState(false);
  // The server's refusal when the upload came into use after the list was loaded.
  const [refusal, setRefusal] = useState<string | null>(null);
  // A refusal belongs to the upload it was about.
  useEffect(() => setRefusal(null), [item]);

  const used = item !== null && (item.usage.length > 0 || refusal !== null);

  async function remove() {
    if (!item) return;
    setBusy(true);
    try {
      // Confirmed by the admin when they were told where it is used.
      await send(at(adminApi.media, { id: item.id }).delete(undefined, { query: used ? { force: "1" } : {} }));
      toast({ title: "Upload deleted", description: `${shownName(item)} was deleted.` });
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setRefusal(error.error);
        void refresh(adminApi.media);
      } else toastError(serverReason(error, "The upload was not deleted."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby="media-delete-title"
      onCancel={onClose}
      onClose={(event) => item && closedNow(event) && onClose()}
    >
      {item && (
        <article>
          <h2 id="media-delete-title">{used ? "This file is in use" : "Delete this upload?"}</h2>
          {used ? (
            <>
              <p role={refusal ? "alert" : undefined}>
                {refusal ??
                  `${shownName(item)} is used in the places below. Deleting it leaves a broken image or video there.`}
              </p>
              {item.usage.length > 0 && <UsageLinks item={item} onFollow={onClose} />}
            </>
          ) : item.missing ? (
            <p>
              {shownName(item)} is not used anywhere and its file is already missing. Its entry is removed from the
              library.
            </p>
          ) : (
            <p>{shownName(item)} is not used anywhere. The file and its smaller copies are deleted for good.</p>
          )}
          <footer className="dialog-actions">
            <button type="button" className="secondary outline" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="danger" onClick={() => void remove()} disabled={busy} aria-busy={busy}>
              {used ? "Delete anyway" : "Delete"}
            </button>
          </footer>
        </article>
      )}
    </dialog>
  );
}
