import {
  type DetailedHTMLProps,
  type HTMLAttributes,
  type KeyboardEvent,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { createPortal } from "react-dom";
import { answer, backgroundApi } from "#web/admin/admin-client.ts";
import { MediaPicker } from "#web/features/media/media-picker.tsx";
import { serverReason } from "#web/lib/query-client.ts";
import {
  type ChosenImage,
  ImageDialog,
  type LibraryPickerSlot,
  ManagedLinkDialog,
  VideoDialog,
} from "./editor-dialogs.tsx";

// The admin's writing editor: Markdown in a textarea, GitHub's <markdown-toolbar> over it,
// paste-markdown on it (a URL pasted over selected text makes a link, pasted rich text becomes
// Markdown) and a live preview rendered by the server's own renderer
// (docs/decisions/043-writing-editor.md). Admin pages only: public pages never import it.

type CustomElement = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement>;
declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "markdown-toolbar": CustomElement & { for: string };
      "md-header": CustomElement & { level?: string };
      "md-bold": CustomElement;
      "md-italic": CustomElement;
      "md-quote": CustomElement;
      "md-link": CustomElement;
      "md-unordered-list": CustomElement;
      "md-ordered-list": CustomElement;
    }
  }
}

/** How long the text rests before the preview is asked for. */
const PREVIEW_DELAY_MS = 400;

/** full: posts and pages; basic: bold, italic, link and list (offer descriptions). */
type Tools = "full" | "basic";

export interface MarkdownEditorProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  rows?: number;
  tools?: Tools;
  /** A short note under the text box (what the text is for). */
  hint?: string;
  /**
   * Where the media library's "Choose from library" picker plugs into the image dialog: a
   * function of `choose(image)` answering the picker's element. Without it the dialog uploads only.
   */
  libraryPicker?: LibraryPickerSlot;
}

/** The toolbar's tools: GitHub's buttons render as custom elements the library makes keyboard buttons. */
function Tools({
  id,
  label,
  tools,
  onImage,
  onVideo,
  onManagedLink,
}: {
  id: string;
  label: string;
  tools: Tools;
  onImage: () => void;
  onVideo: () => void;
  onManagedLink: () => void;
}) {
  const tool = (name: string) => ({
    className: "md-tool",
    role: "button",
    tabIndex: -1,
    "aria-label": name,
    title: name,
  });
  return (
    <markdown-toolbar for={id} className="md-toolbar" aria-label={`${label}: formatting`} aria-controls={id}>
      {tools === "full" && (
        <md-header level="2" {...tool("Heading")}>
          Heading
        </md-header>
      )}
      <md-bold {...tool("Bold")}>
        <b>Bold</b>
      </md-bold>
      <md-italic {...tool("Italic")}>
        <i>Italic</i>
      </md-italic>
      <md-unordered-list {...tool("Bulleted list")}>Bulleted list</md-unordered-list>
      {tools === "full" && <md-ordered-list {...tool("Numbered list")}>Numbered list</md-ordered-list>}
      {tools === "full" && <md-quote {...tool("Quote")}>Quote</md-quote>}
      <md-link {...tool("Link")}>Link</md-link>
      {tools === "full" && (
        <>
          <button type="button" data-md-button="" className="md-tool" tabIndex={-1} onClick={onManagedLink}>
            Managed link
          </button>
          <button type="button" data-md-button="" className="md-tool" tabIndex={-1} onClick={onImage}>
            Image
          </button>
          <button type="button" data-md-button="" className="md-tool" tabIndex={-1} onClick={onVideo}>
            Video
          </button>
        </>
      )}
    </markdown-toolbar>
  );
}

/** The server's rendering of the text, asked for once the typing rests; stale answers are dropped. */
function usePreview(markdown: string) {
  const [state, setState] = useState<{ html: string; error: string | null; busy: boolean }>({
    html: "",
    error: null,
    busy: true,
  });
  const asked = useRef(0);
  useEffect(() => {
    const turn = ++asked.current;
    setState((s) => ({ ...s, busy: true }));
    const timer = setTimeout(() => {
      answer(backgroundApi.editor.preview.post({ markdown })).then(
        ({ html }) => turn === asked.current && setState({ html, error: null, busy: false }),
        (error: unknown) =>
          turn === asked.current &&
          setState((s) => ({
            ...s,
            busy: false,
            error: serverReason(error, "The preview could not be loaded."),
          })),
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [markdown]);
  return state;
}

/**
 * A Markdown text box with a formatting toolbar and a live preview: beside the text on wide
 * screens, behind a Write/Preview switch on phones. The preview uses the blog post's typography.
 */
export function MarkdownEditor({
  label,
  value,
  onChange,
  error,
  rows = 14,
  tools = "full",
  hint,
  libraryPicker = chooseFromLibrary,
}: MarkdownEditorProps) {
  const id = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [view, setView] = useState<"write" | "preview">("write");
  const [dialog, setDialog] = useState<"image" | "video" | "link" | null>(null);
  const preview = usePreview(value);
  const latest = useRef(onChange);
  latest.current = onChange;

  // The toolbar and paste behaviour are browser-only modules (they define custom elements).
  useEffect(() => {
    const box = textarea.current;
    if (!box) return;
    let unsubscribe = () => {};
    let gone = false;
    void import("@github/markdown-toolbar-element");
    void import("@github/paste-markdown").then(({ subscribe }) => {
      if (!gone) unsubscribe = subscribe(box).unsubscribe;
    });
    // The libraries change the text themselves: follow every input, whoever made it.
    const follow = () => latest.current(box.value);
    box.addEventListener("input", follow);
    return () => {
      gone = true;
      unsubscribe();
      box.removeEventListener("input", follow);
    };
  }, []);

  /** Puts a block (an image, a video address) on lines of its own at the caret, then the caret after it. */
  const insertBlock = (block: string) => {
    const box = textarea.current;
    const start = box?.selectionStart ?? value.length;
    const end = box?.selectionEnd ?? value.length;
    const before = value.slice(0, start);
    const after = value.slice(end);
    const lead = before === "" ? "" : before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
    const tail = after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
    const next = `${before}${lead}${block}${tail}${after}`;
    onChange(next);
    setDialog(null);
    const caret = before.length + lead.length + block.length + tail.length;
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(caret, caret);
    });
  };
  /** The text selected in the box (a managed link's default words). */
  const selectedText = () => {
    const box = textarea.current;
    return box ? value.slice(box.selectionStart, box.selectionEnd) : "";
  };
  /** Replaces the selection with `text` (a link), then the caret after it. */
  const insertInline = (text: string) => {
    const box = textarea.current;
    const start = box?.selectionStart ?? value.length;
    const end = box?.selectionEnd ?? value.length;
    onChange(`${value.slice(0, start)}${text}${value.slice(end)}`);
    setDialog(null);
    const caret = start + text.length;
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(caret, caret);
    });
  };
  const insertImage = ({ url, alt }: ChosenImage) => insertBlock(`![${alt.replace(/[[\]]/g, "")}](${url})`);

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  // With a problem, the problem alone describes the box (as in every other field).
  const describedBy = error ? errorId : [hint ? hintId : null, `${id}-syntax`].filter(Boolean).join(" ");
  return (
    <div className="field markdown-editor" data-view={view}>
      <div className="md-head">
        <label htmlFor={id}>{label}</label>
        <fieldset className="md-switch" aria-label={`${label}: show`}>
          <button type="button" className="md-tool" aria-pressed={view === "write"} onClick={() => setView("write")}>
            Write
          </button>
          <button
            type="button"
            className="md-tool"
            aria-pressed={view === "preview"}
            onClick={() => setView("preview")}
          >
            Preview
          </button>
        </fieldset>
      </div>
      <div className="md-panes">
        <div className="md-write">
          <Tools
            id={id}
            label={label}
            tools={tools}
            onImage={() => setDialog("image")}
            onVideo={() => setDialog("video")}
            onManagedLink={() => setDialog("link")}
          />
          <textarea
            ref={textarea}
            id={id}
            name={label}
            rows={rows}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            onKeyDown={continueList}
            aria-describedby={describedBy}
            {...(error ? { "aria-invalid": true as const } : {})}
          />
          <small id={`${id}-syntax`} className="muted">
            Markdown: **bold**, _italic_, a line starting with "- " or "1. " for lists, [text](address) for a link.
            {tools === "full" && " A line holding only a YouTube or Vimeo address shows its player."}
          </small>
        </div>
        <section className="md-preview" aria-label={`${label}: preview`} aria-busy={preview.busy}>
          {preview.error ? (
            <p role="alert" className="field-error">
              {preview.error}
            </p>
          ) : preview.html ? (
            <div className="blog-post">
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server's sanitiser cleaned it, as for the saved page. */}
              <div className="post-content" dangerouslySetInnerHTML={{ __html: preview.html }} />
            </div>
          ) : (
            <p className="muted">{preview.busy ? "Preparing the preview..." : "Nothing to preview yet."}</p>
          )}
        </section>
      </div>
      {hint && (
        <small id={hintId} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={errorId} className="field-error">
          {error}
        </small>
      )}
      {dialog === "image" && (
        <ImageDialog onClose={() => setDialog(null)} onInsert={insertImage} libraryPicker={libraryPicker} />
      )}
      {dialog === "video" && <VideoDialog onClose={() => setDialog(null)} onInsert={insertBlock} />}
      {dialog === "link" && (
        <ManagedLinkDialog selected={selectedText()} onClose={() => setDialog(null)} onInsert={insertInline} />
      )}
    </div>
  );
}

/** "Choose from library" in the image dialog: the media library's picker, its alt text as the default. */
function LibraryButton({ choose }: { choose: (image: ChosenImage) => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // The picker leaves the page when it closes, so the browser cannot give focus back: given here.
  const cancel = () => {
    setOpen(false);
    requestAnimationFrame(() => button.current?.focus());
  };
  return (
    <>
      <button ref={button} type="button" className="secondary outline" onClick={() => setOpen(true)}>
        Choose from library
      </button>
      {/* Outside the dialog's form: the picker has a form of its own (its upload). */}
      {open &&
        createPortal(
          <MediaPicker
            open={open}
            onPick={(item) => {
              setOpen(false);
              choose({ url: item.url, alt: item.alt, id: item.id });
            }}
            onClose={cancel}
          />,
          document.body,
        )}
    </>
  );
}

const chooseFromLibrary: LibraryPickerSlot = (choose) => <LibraryButton choose={choose} />;

const LIST_ITEM = /^(\s*)(?:(\d{1,9})([.)])|([-*+]))(\s+)(.*)$/;

/**
 * Enter in a list item starts the next item ("2. " after "1. ", "- " after "- "), as a word
 * processor does; Enter in an empty item ends the list (what is typed next is a paragraph). Shift+Enter is a plain new line.
 */
function continueList(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key !== "Enter" || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.nativeEvent.isComposing) return;
  const area = event.currentTarget;
  const { selectionStart: start, selectionEnd: end, value } = area;
  if (start !== end) return;
  const lineStart = value.lastIndexOf("\n", start - 1) + 1;
  const lineEnd = value.indexOf("\n", start) === -1 ? value.length : value.indexOf("\n", start);
  const match = LIST_ITEM.exec(value.slice(lineStart, start));
  if (!match) return;
  const [, indent = "", number, delimiter, bullet, space = " ", text = ""] = match;
  event.preventDefault();
  if (text.trim() === "" && value.slice(start, lineEnd).trim() === "") {
    // An empty item: the list ends here. The marker goes and a blank line follows the list,
    // since Markdown reads a line right under an item as more of that item.
    area.setRangeText("\n", lineStart, start, "end");
  } else {
    const marker = bullet ?? `${Number(number) + 1}${delimiter}`;
    area.setRangeText(`\n${indent}${marker}${space}`, start, end, "end");
  }
  // React reads the change from the input event, like typing.
  area.dispatchEvent(new Event("input", { bubbles: true }));
}
