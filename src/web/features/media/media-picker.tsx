import { useId, useState } from "react";
import type { MediaItem } from "#shared/features/media/contract.ts";
import { closedNow, useModalDialog } from "#web/ui/modal-dialog.ts";
import { MediaThumb, UploadField } from "./admin-media.tsx";
import { matchesSearch, shownName, useMediaLibrary } from "./media-data.ts";
import { MediaSearch } from "./media-search.tsx";

/** What the picker hands back: the image's library id, address, alt text from the library and size. */
export interface PickedMedia {
  id: number;
  url: string;
  alt: string;
  width: number | null;
  height: number | null;
}

interface MediaPickerProps {
  open: boolean;
  /** Only images (the default) or videos too. */
  kind?: "image" | "any";
  onPick: (item: PickedMedia) => void;
  onClose: () => void;
}

/** A dialog to choose an upload from the media library (search, grid, or upload a new one). */
export function MediaPicker({ open, kind = "image", onPick, onClose }: MediaPickerProps) {
  const ref = useModalDialog(open);
  const [query, setQuery] = useState("");
  const titleId = useId();

  return (
    <dialog
      ref={ref}
      className="media-picker"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        // Events pass up React's tree, portal or not: the dialog this picker was opened from
        // (the editor's image dialog) must not take this Escape as its own.
        e.stopPropagation();
        onClose();
      }}
      onClose={(e) => {
        e.stopPropagation();
        if (open && closedNow(e)) onClose();
      }}
    >
      {open && (
        <article>
          <h2 id={titleId}>Choose from the media library</h2>
          <div className="toolbar media-toolbar">
            <UploadField
              label="Upload a new image"
              accept={kind === "image" ? "image/*" : "image/*,video/*"}
              onUploaded={(u) => onPick({ id: u.id, url: u.url, alt: u.alt, width: u.width, height: u.height })}
            />
            <MediaSearch value={query} onChange={setQuery} />
          </div>
          <PickerGrid kind={kind} query={query} onPick={onPick} />
          <footer className="dialog-actions">
            <button type="button" className="secondary outline" onClick={onClose}>
              Cancel
            </button>
          </footer>
        </article>
      )}
    </dialog>
  );
}

function PickerGrid({
  kind,
  query,
  onPick,
}: {
  kind: "image" | "any";
  query: string;
  onPick: (item: PickedMedia) => void;
}) {
  const library = useMediaLibrary();
  if (library.isPending) return <p aria-busy="true">Loading the media library...</p>;
  if (library.isError) return <p role="alert">Error loading the media library. Please try again.</p>;
  // A file gone from the folder cannot be shown anywhere: not offered.
  const items = library.data.filter(
    (item: MediaItem) => !item.missing && (kind === "any" || item.kind === "image") && matchesSearch(item, query),
  );
  if (items.length === 0)
    return <p className="empty-state">{query.trim() ? "Nothing matches the search." : "No images yet."}</p>;
  return (
    <ul className="media-grid media-picker-grid">
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            className="media-pick secondary outline"
            onClick={() =>
              onPick({ id: item.id, url: item.url, alt: item.alt, width: item.width, height: item.height })
            }
          >
            <MediaThumb item={item} />
            <span className="media-pick-label">
              <span className="visually-hidden">Choose </span>
              {item.alt || shownName(item)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
