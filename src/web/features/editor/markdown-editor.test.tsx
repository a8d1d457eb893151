import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { renderToString } from "react-dom/server";
import { adminApp } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import type { ChosenImage } from "./editor-dialogs.tsx";
import { MarkdownEditor, type MarkdownEditorProps } from "./markdown-editor.tsx";

afterEach(cleanup);

// The toolbar finds its text box through `getRootNode() instanceof Document`; the test DOM's
// global Document is another class than its document's, so it is lined up for these tests.
const globalDocument = globalThis.Document;
beforeAll(() => {
  globalThis.Document = document.constructor as typeof Document;
});
afterAll(() => {
  globalThis.Document = globalDocument;
});

let current = "";
function Editor({ initial, ...props }: { initial: string } & Partial<MarkdownEditorProps>) {
  const [value, setValue] = useState(initial);
  current = value;
  return <MarkdownEditor label="Content" value={value} onChange={setValue} {...props} />;
}

async function renderEditor(initial: string, props: Partial<MarkdownEditorProps> = {}) {
  const { asAdmin } = await adminApp();
  routeFetchTo(asAdmin);
  renderAt("/admin/posts/new", <Editor initial={initial} {...props} />);
  // The toolbar's module defines its elements once loaded in the browser.
  await waitFor(() => expect(customElements.get("md-bold")).toBeDefined());
  const box = screen.getByLabelText("Content") as HTMLTextAreaElement;
  return { box };
}

function select(box: HTMLTextAreaElement, text: string) {
  const start = box.value.indexOf(text);
  box.focus();
  box.setSelectionRange(start, start + text.length);
}

describe("the toolbar formats the selection as Markdown", () => {
  test("Bold wraps the selected words", async () => {
    const { box } = await renderEditor("Say hello world");
    select(box, "hello world");
    act(() => screen.getByRole("button", { name: "Bold" }).click());
    await waitFor(() => expect(current).toBe("Say **hello world**"));
    expect(box.value).toBe("Say **hello world**");
  });

  test("Numbered list numbers each selected line", async () => {
    const { box } = await renderEditor("Pick a name\nBuy a light");
    select(box, "Pick a name\nBuy a light");
    act(() => screen.getByRole("button", { name: "Numbered list" }).click());
    await waitFor(() => expect(current).toBe("1. Pick a name\n2. Buy a light"));
  });

  test("Enter in a list item starts the next one; Enter in an empty item ends the list", async () => {
    const { box } = await renderEditor("1. First step");
    const enter = () => {
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
      fireEvent.keyDown(box, { key: "Enter" });
    };
    enter();
    await waitFor(() => expect(current).toBe("1. First step\n2. "));
    enter();
    // A blank line after the list: a sentence typed next is a paragraph, not more of the last item.
    await waitFor(() => expect(current).toBe("1. First step\n\n"));
    fireEvent.change(box, { target: { value: "- milk" } });
    enter();
    await waitFor(() => expect(current).toBe("- milk\n- "));
    // Shift+Enter is the browser's own new line: nothing added.
    box.setSelectionRange(box.value.length, box.value.length);
    expect(fireEvent.keyDown(box, { key: "Enter", shiftKey: true })).toBe(true);
    expect(current).toBe("- milk\n- ");
  });

  test("Link makes the selection a link, its address selected to type over", async () => {
    const { box } = await renderEditor("Read the guide first");
    select(box, "the guide");
    act(() => screen.getByRole("button", { name: "Link" }).click());
    await waitFor(() => expect(current).toBe("Read [the guide](url) first"));
    expect(box.value.slice(box.selectionStart, box.selectionEnd)).toBe("url");
  });

  test("every tool is a labelled button in one labelled toolbar; offer descriptions get the smaller set", async () => {
    await renderEditor("");
    const toolbar = screen.getByRole("toolbar", { name: "Content: formatting" });
    const names = within(toolbar)
      .getAllByRole("button")
      .map((b) => b.getAttribute("aria-label") ?? b.textContent);
    expect(names).toEqual([
      "Heading",
      "Bold",
      "Italic",
      "Bulleted list",
      "Numbered list",
      "Quote",
      "Link",
      "Managed link",
      "Image",
      "Video",
    ]);
    cleanup();
    renderAt("/admin/offers/new", <Editor initial="" tools="basic" />);
    const basic = within(screen.getByRole("toolbar")).getAllByRole("button");
    expect(basic.map((b) => b.getAttribute("aria-label"))).toEqual(["Bold", "Italic", "Bulleted list", "Link"]);
  });

  test("renders on the server without the browser-only modules", () => {
    const html = renderToString(<MarkdownEditor label="Content" value="**x**" onChange={() => {}} />);
    expect(html).toContain("<markdown-toolbar");
    expect(html).toContain("<textarea");
  });
});

describe("the live preview", () => {
  test("shows the server's rendering; on a phone the Write/Preview switch shows one or the other", async () => {
    await renderEditor("Some **bold** words\n\n1. one\n2. two");
    const editor = document.querySelector(".markdown-editor")!;
    expect(editor.getAttribute("data-view")).toBe("write");
    const previewButton = screen.getByRole("button", { name: "Preview" });
    expect(previewButton.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(previewButton);
    expect(editor.getAttribute("data-view")).toBe("preview");
    expect(previewButton.getAttribute("aria-pressed")).toBe("true");
    const preview = screen.getByRole("region", { name: "Content: preview" });
    await waitFor(() => expect(preview.querySelector(".post-content strong")?.textContent).toBe("bold"));
    expect(preview.querySelector(".post-content ol")?.children.length).toBe(2);
    fireEvent.click(screen.getByRole("button", { name: "Write" }));
    expect(editor.getAttribute("data-view")).toBe("write");

    // The preview follows the text once typing rests.
    fireEvent.change(screen.getByLabelText("Content"), { target: { value: "## A heading" } });
    await waitFor(() => expect(preview.querySelector(".post-content h2")?.textContent).toBe("A heading"));
  });
});

/** A library slot whose button chooses `picked` at once (the real picker is tried below). */
const libraryChoosing =
  (picked: ChosenImage): MarkdownEditorProps["libraryPicker"] =>
  (choose) => (
    <button type="button" onClick={() => choose(picked)}>
      Choose from library
    </button>
  );

describe("image and video", () => {
  test("Image opens a dialog; a picture from the library slot is inserted on its own line with its alt text", async () => {
    const picked: ChosenImage = { url: "/uploads/ring.png", alt: "A ring light" };
    const { box } = await renderEditor("First paragraph.", {
      libraryPicker: libraryChoosing(picked),
    });
    box.setSelectionRange(box.value.length, box.value.length);
    fireEvent.click(screen.getByRole("button", { name: "Image" }));
    // Without a file the dialog says what is missing.
    fireEvent.click(screen.getByRole("button", { name: "Upload and insert" }));
    expect(screen.getByText("Choose an image file to upload")).toBeDefined();
    fireEvent.click(screen.getByRole("button", { name: "Choose from library" }));
    expect(current).toBe("First paragraph.\n\n![A ring light](/uploads/ring.png)\n\n");
  });

  test("a library image without a description is not inserted until one is given", async () => {
    const picked: ChosenImage = { url: "/uploads/desk.png", alt: "" };
    const { box } = await renderEditor("Intro", {
      libraryPicker: libraryChoosing(picked),
    });
    box.setSelectionRange(5, 5);
    fireEvent.click(screen.getByRole("button", { name: "Image" }));
    fireEvent.click(screen.getByRole("button", { name: "Choose from library" }));
    expect(current).toBe("Intro");
    expect(screen.getByText(/has no description yet/)).toBeDefined();
    fireEvent.click(screen.getByRole("button", { name: "Insert" }));
    const description = screen.getByLabelText("Description (alt text)");
    expect(description.getAttribute("aria-invalid")).toBe("true");
    expect(current).toBe("Intro");
    fireEvent.change(description, { target: { value: "A tidy desk by a window" } });
    fireEvent.click(screen.getByRole("button", { name: "Insert" }));
    await waitFor(() => expect(current).toBe("Intro\n\n![A tidy desk by a window](/uploads/desk.png)\n\n"));
  });

  test("Escape in the library's picker closes the picker only, and focus goes back to its button", async () => {
    await renderEditor("Intro");
    fireEvent.click(screen.getByRole("button", { name: "Image" }));
    const chooser = screen.getByRole("button", { name: "Choose from library" });
    fireEvent.click(chooser);
    const picker = await screen.findByRole("heading", { name: "Choose from the media library" });
    fireEvent(picker.closest("dialog")!, new Event("cancel", { cancelable: true }));
    await waitFor(() => expect(screen.queryByRole("heading", { name: "Choose from the media library" })).toBeNull());
    expect(screen.getByRole("heading", { name: "Insert an image" })).toBeDefined();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole("button", { name: "Choose from library" })),
    );
  });

  test("Video asks for a YouTube or Vimeo address and inserts it on its own line", async () => {
    const { box } = await renderEditor("Intro");
    box.setSelectionRange(5, 5);
    fireEvent.click(screen.getByRole("button", { name: "Video" }));
    const address = screen.getByLabelText("YouTube or Vimeo address");
    fireEvent.change(address, { target: { value: "https://example.com/clip" } });
    fireEvent.click(screen.getByRole("button", { name: "Insert video" }));
    expect(address.getAttribute("aria-invalid")).toBe("true");
    expect(current).toBe("Intro");
    fireEvent.change(address, { target: { value: "https://youtu.be/dQw4w9WgXcQ" } });
    fireEvent.click(screen.getByRole("button", { name: "Insert video" }));
    expect(current).toBe("Intro\n\nhttps://youtu.be/dQw4w9WgXcQ\n\n");
  });
});
