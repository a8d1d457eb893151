// Server-rendered pages as a browser would parse them, queried the way a visitor finds
// things: by role and accessible name (Testing Library), not by markup strings.

import { configure, prettyDOM, within } from "@testing-library/dom";
import { Window } from "happy-dom";

// A failed query shows a short, uncoloured excerpt of the page, not all of it.
configure({
  getElementError(message, container) {
    const error = new Error(`${message}\n\n${prettyDOM(container, 1500, { highlight: false })}`);
    error.name = "TestingLibraryElementError";
    return error;
  },
});

// One inert window for the whole test process: it parses, it never runs or fetches anything.
let window: Window | undefined;

function parser() {
  window ??= new Window({
    url: "http://localhost/",
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      handleDisabledFileLoadingAsSuccess: true,
    },
  });
  return new window.DOMParser();
}

/** Parses a whole HTML document. */
export function parseHtml(html: string): Document {
  return parser().parseFromString(html, "text/html") as unknown as Document;
}

/** Parses an XML document (a feed, the sitemap's index or one of its parts) and fails on a parse error. */
export function parseXml(xml: string): Document {
  const doc = parser().parseFromString(xml, "application/xml") as unknown as Document;
  const errors = doc.getElementsByTagName("parsererror");
  if (errors.length > 0) throw new Error(`not well-formed XML: ${errors[0]!.textContent}`);
  return doc;
}

/** A parsed page: the document, Testing Library queries on its body and readers for its head. */
export function pageOf(html: string) {
  const document = parseHtml(html);
  const head = document.head;
  return {
    document,
    /** getByRole, getByText, queryByRole… scoped to the body. */
    screen: within(document.body as HTMLElement),
    /** The <main> element's queries: the page's own content, not the header and footer. */
    main: () => within(document.querySelector("main") as HTMLElement),
    title: document.title,
    /** The content of <meta name=…> or <meta property=…>, or null. */
    meta: (name: string) =>
      head.querySelector(`meta[name="${name}"], meta[property="${name}"]`)?.getAttribute("content") ?? null,
    /** The href of the first <link rel=…>, or null. */
    link: (rel: string) => head.querySelector(`link[rel="${rel}"]`)?.getAttribute("href") ?? null,
    /** The visible text of the body, whitespace collapsed. */
    text: (document.body.textContent ?? "").replace(/\s+/g, " "),
  };
}

/** GETs a path from the app and parses the answer. */
export async function renderPage(
  request: (path: string, init?: RequestInit) => Promise<Response>,
  path: string,
  init?: RequestInit,
) {
  const res = await request(path, init);
  const html = await res.text();
  return { status: res.status, headers: res.headers, html, ...pageOf(html) };
}
