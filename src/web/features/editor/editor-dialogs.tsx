import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { toVideoSource } from "#shared/features/offers/video-url.ts";
import { reason, upload } from "#web/features/uploads/uploaders.tsx";

const MB = 1024 * 1024;

/** An image on this site with its description, as the image dialog inserts it. */
export interface ChosenImage {
  url: string;
  alt: string;
}

/**
 * A place for a "Choose from library" picker in the image dialog: it gets `choose`, to call with
 * the image picked (its address and alt text); the dialog then inserts it like an upload.
 */
export type LibraryPickerSlot = (choose: (image: ChosenImage) => void) => ReactNode;

/** A modal form on the native <dialog>: focus stays inside, Escape and Cancel close it. */
function InsertDialog({
  open,
  title,
  onClose,
  onSubmit,
  submit,
  busy = false,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  submit: string;
  busy?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const send = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={onClose} onClose={() => open && onClose()}>
      <article>
        <form onSubmit={send} noValidate>
          <h2 id={titleId}>{title}</h2>
          {children}
          <footer className="dialog-actions">
            <button type="button" className="secondary outline" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" disabled={busy} aria-busy={busy}>
              {submit}
            </button>
          </footer>
        </form>
      </article>
    </dialog>
  );
}

/** Upload an image with its description (or pick one from the library), then insert it. */
export function ImageDialog({
  open,
  onClose,
  onInsert,
  libraryPicker,
}: {
  open: boolean;
  onClose: () => void;
  onInsert: (image: ChosenImage) => void;
  libraryPicker?: LibraryPickerSlot;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState("");
  const [problem, setProblem] = useState<{ field: "file" | "alt"; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const fileId = useId();
  const altId = useId();
  const input = useRef<HTMLInputElement>(null);

  const reset = () => {
    setFile(null);
    setAlt("");
    setProblem(null);
    if (input.current) input.current.value = "";
  };
  const close = () => {
    reset();
    onClose();
  };
  const done = (image: ChosenImage) => {
    reset();
    onInsert(image);
  };

  async function submit() {
    if (!file) return setProblem({ field: "file", message: "Choose an image file to upload" });
    if (!file.type.startsWith("image/"))
      return setProblem({ field: "file", message: "Choose an image file (JPEG, PNG, WebP...)" });
    if (file.size > 5 * MB) return setProblem({ field: "file", message: "The image must be less than 5 MB" });
    if (!alt.trim()) {
      return setProblem({ field: "alt", message: "Describe the image for people who cannot see it" });
    }
    setBusy(true);
    setProblem(null);
    try {
      done({ url: await upload(file), alt: alt.trim() });
    } catch (error) {
      setProblem({ field: "file", message: reason(error, "The upload failed. Please try again.") });
    } finally {
      setBusy(false);
    }
  }

  const invalid = (field: "file" | "alt", id: string) =>
    problem?.field === field ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
  return (
    <InsertDialog
      open={open}
      title="Insert an image"
      onClose={close}
      onSubmit={() => void submit()}
      submit="Upload and insert"
      busy={busy}
    >
      {libraryPicker?.((image) => done(image))}
      <label htmlFor={fileId}>Image file</label>
      <input
        ref={input}
        id={fileId}
        type="file"
        accept="image/*"
        disabled={busy}
        {...invalid("file", fileId)}
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
      />
      {problem?.field === "file" && (
        <small id={`${fileId}-error`} className="field-error">
          {problem.message}
        </small>
      )}
      <label htmlFor={altId}>Description (alt text)</label>
      <input
        id={altId}
        value={alt}
        disabled={busy}
        {...invalid("alt", altId)}
        onChange={(e) => setAlt(e.target.value)}
      />
      {problem?.field === "alt" ? (
        <small id={`${altId}-error`} className="field-error">
          {problem.message}
        </small>
      ) : (
        <small className="muted">What the image shows, read aloud to people who cannot see it.</small>
      )}
      {busy && <p aria-live="polite">Uploading...</p>}
    </InsertDialog>
  );
}

/** Asks for a YouTube or Vimeo address and inserts it on its own line (the page shows its player). */
export function VideoDialog({
  open,
  onClose,
  onInsert,
}: {
  open: boolean;
  onClose: () => void;
  onInsert: (url: string) => void;
}) {
  const [url, setUrl] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const close = () => {
    setUrl("");
    setProblem(null);
    onClose();
  };
  const submit = () => {
    const video = toVideoSource(url);
    if (video?.kind !== "youtube" && video?.kind !== "vimeo") {
      setProblem(
        "Paste the address of a YouTube or Vimeo video (https://www.youtube.com/watch?v=… or https://vimeo.com/…)",
      );
      return;
    }
    setUrl("");
    setProblem(null);
    onInsert(url.trim());
  };
  return (
    <InsertDialog open={open} title="Insert a video" onClose={close} onSubmit={submit} submit="Insert video">
      <label htmlFor={id}>YouTube or Vimeo address</label>
      <input
        id={id}
        type="url"
        inputMode="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        {...(problem ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {})}
      />
      {problem ? (
        <small id={`${id}-error`} className="field-error">
          {problem}
        </small>
      ) : (
        <small className="muted">The post shows the video's player (YouTube's privacy-enhanced one).</small>
      )}
    </InsertDialog>
  );
}
