import { useQuery } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useId, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { GO_PREFIX } from "#shared/features/links/constants.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminSend } from "#web/admin/admin-queries.ts";
import { useUpload } from "#web/features/media/media-data.ts";
import { serverReason } from "#web/lib/query-client.ts";

const MB = 1024 * 1024;

// A YouTube or Vimeo address. The renderer decides what becomes a player (the offers' video
// rules); this only catches an address from elsewhere before it is inserted. Kept local: the
// offers' module is on public pages, and importing it here would move it into their shared code.
const VIDEO_ADDRESS =
  /^https?:\/\/(?:www\.|m\.)?(?:youtube\.com|youtube-nocookie\.com|youtu\.be|vimeo\.com|player\.vimeo\.com)\/\S+$/i;

/** An image on this site with its description, as the image dialog inserts it. */
export interface ChosenImage {
  url: string;
  alt: string;
  /** Its media library item, when it came from the library (its description is saved there). */
  id?: number;
}

/**
 * A place for a "Choose from library" picker in the image dialog: it gets `choose`, to call with
 * the image picked (its address, alt text and library id); the dialog then inserts it like an
 * upload, after asking for a description when the library has none.
 */
export type LibraryPickerSlot = (choose: (image: ChosenImage) => void) => ReactNode;

/**
 * A modal form on the native <dialog>, shown while mounted: focus stays inside, Escape and Cancel
 * close it, and focus goes back where it was. It is put at the end of the body: the editor sits
 * inside the post's own form, and a form may not hold another.
 */
function InsertDialog({
  title,
  onClose,
  onSubmit,
  submit,
  busy = false,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  submit: string;
  busy?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useLayoutEffect(() => {
    const dialog = ref.current;
    dialog?.showModal?.();
    // Closed before it leaves the page, so the browser gives focus back to the button that opened it.
    return () => dialog?.close();
  }, []);
  const send = (event: FormEvent) => {
    event.preventDefault();
    // React passes events up its own tree, portal or not: the post's form must not see this one.
    event.stopPropagation();
    onSubmit();
  };
  return createPortal(
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
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
    </dialog>,
    document.body,
  );
}

/** Upload an image with its description (or pick one from the library), then insert it. */
export function ImageDialog({
  onClose,
  onInsert,
  libraryPicker,
}: {
  onClose: () => void;
  onInsert: (image: ChosenImage) => void;
  libraryPicker?: LibraryPickerSlot;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState("");
  /** An image from the library that has no description yet: inserted once one is given. */
  const [picked, setPicked] = useState<ChosenImage | null>(null);
  const [problem, setProblem] = useState<{ field: "file" | "alt"; message: string } | null>(null);
  const upload = useUpload();
  const send = useAdminSend();
  const [busy, setBusy] = useState(false);
  const fileId = useId();
  const altId = useId();
  const input = useRef<HTMLInputElement>(null);

  const reset = () => {
    setFile(null);
    setPicked(null);
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

  const describe = "Describe the image for people who cannot see it";
  /** A library image with a description goes in at once; one without waits for it here. */
  const choose = (image: ChosenImage) => {
    if (image.alt.trim()) return done(image);
    setPicked(image);
    setAlt("");
    setProblem(null);
    // Focus to the description, which is what is asked for now.
    requestAnimationFrame(() => document.getElementById(altId)?.focus());
  };

  /** The description is missing: said at its field, where the focus goes (also after a click on Insert). */
  const askForDescription = () => {
    setProblem({ field: "alt", message: describe });
    document.getElementById(altId)?.focus();
  };

  async function submit() {
    if (picked) {
      if (!alt.trim()) return askForDescription();
      setBusy(true);
      // Saved in the library too, so the image is described wherever it is chosen next.
      if (picked.id !== undefined)
        await send(at(adminApi.media, { id: picked.id }).put({ alt: alt.trim() })).catch(() => {});
      setBusy(false);
      return done({ url: picked.url, alt: alt.trim() });
    }
    if (!file) return setProblem({ field: "file", message: "Choose an image file to upload" });
    if (!file.type.startsWith("image/"))
      return setProblem({ field: "file", message: "Choose an image file (JPEG, PNG, WebP...)" });
    if (file.size > 5 * MB) return setProblem({ field: "file", message: "The image must be less than 5 MB" });
    if (!alt.trim()) return askForDescription();
    setBusy(true);
    setProblem(null);
    try {
      const stored = await upload(file);
      // The description is the library's too, offered again whenever the image is chosen.
      await send(at(adminApi.media, { id: stored.id }).put({ alt: alt.trim() })).catch(() => {});
      done({ url: stored.url, alt: alt.trim() });
    } catch (error) {
      setProblem({ field: "file", message: serverReason(error, "The upload failed. Please try again.") });
    } finally {
      setBusy(false);
    }
  }

  const invalid = (field: "file" | "alt", id: string) =>
    problem?.field === field ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
  return (
    <InsertDialog
      title="Insert an image"
      onClose={close}
      onSubmit={() => void submit()}
      submit={picked ? "Insert" : "Upload and insert"}
      busy={busy}
    >
      {picked ? (
        <p className="picked-image">
          <img src={picked.url} alt="" width={96} height={64} />
          <span>This image from the library has no description yet: add one to insert it.</span>
        </p>
      ) : (
        <>
          {libraryPicker?.(choose)}
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
        </>
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
export function VideoDialog({ onClose, onInsert }: { onClose: () => void; onInsert: (url: string) => void }) {
  const [url, setUrl] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const close = () => {
    setUrl("");
    setProblem(null);
    onClose();
  };
  const submit = () => {
    if (!VIDEO_ADDRESS.test(url.trim())) {
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
    <InsertDialog title="Insert a video" onClose={close} onSubmit={submit} submit="Insert video">
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

/**
 * Picks one of the site's managed links (/go/<slug>) and inserts it as [text](/go/<slug>): the
 * page then shows it as an affiliate link (new tab, sponsored, labelled, counted with the post).
 */
export function ManagedLinkDialog({
  selected,
  onClose,
  onInsert,
}: {
  selected: string;
  onClose: () => void;
  onInsert: (markdown: string) => void;
}) {
  const links = useQuery({ ...adminQuery(adminApi.links), staleTime: 10_000 });
  const [slug, setSlug] = useState("");
  const [text, setText] = useState(selected);
  const [problem, setProblem] = useState<{ field: "slug" | "text"; message: string } | null>(null);
  const slugId = useId();
  const textId = useId();
  const submit = () => {
    if (!slug) return setProblem({ field: "slug", message: "Choose a link" });
    const words = text.trim().replace(/[[\]]/g, "");
    if (!words) return setProblem({ field: "text", message: "Write the words readers click" });
    onInsert(`[${words}](${GO_PREFIX}${slug})`);
  };
  const invalid = (field: "slug" | "text", id: string) =>
    problem?.field === field ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
  const error = (field: "slug" | "text", id: string) =>
    problem?.field === field && (
      <small id={`${id}-error`} className="field-error">
        {problem.message}
      </small>
    );
  return (
    <InsertDialog title="Insert a managed link" onClose={onClose} onSubmit={submit} submit="Insert link">
      <label htmlFor={slugId}>Managed link</label>
      <select
        id={slugId}
        value={slug}
        onChange={(e) => setSlug(e.target.value)}
        aria-busy={links.isPending}
        {...invalid("slug", slugId)}
      >
        <option value="">{links.isPending ? "Loading links..." : "Choose a link"}</option>
        {(links.data ?? []).map((link) => (
          <option key={link.slug} value={link.slug}>
            {GO_PREFIX}
            {link.slug} → {link.destination}
          </option>
        ))}
      </select>
      {error("slug", slugId) || (
        <small className="muted">
          {links.isError
            ? "The links could not be loaded. Close this and try again."
            : "The post shows it as an affiliate link: a new tab, the affiliate label, and its clicks counted with this post."}
        </small>
      )}
      <label htmlFor={textId}>Link text</label>
      <input id={textId} value={text} onChange={(e) => setText(e.target.value)} {...invalid("text", textId)} />
      {error("text", textId)}
    </InsertDialog>
  );
}
