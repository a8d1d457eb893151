import type TurndownService from "turndown";

// A post saved before the editor wrote Markdown has only its HTML. The editor opens it
// converted to Markdown; what Markdown cannot say (frames, tables, figures, underline, an
// image with a set size...) stays as raw HTML in the text, which the renderer passes through
// the same sanitiser, so saving it again loses nothing.
let made: TurndownService | undefined;

/**
 * The converter, made on first use: turndown builds an HTML parser as it loads, a tenth of a
 * second that every start (and every command) would otherwise pay for a page few ever open.
 */
function converter(): TurndownService {
  if (made) return made;
  const turndown: TurndownService = new (require("turndown") as typeof TurndownService)({
    headingStyle: "atx",
    hr: "---",
    bulletListMarker: "-",
    codeBlockStyle: "fenced",
    emDelimiter: "_",
    strongDelimiter: "**",
  });
  turndown.keep(["iframe", "table", "figure", "u", "sub", "sup", "mark", "small", "s"]);
  // List items as people type them: "- item" and "1. item" (nested lines indented to match).
  turndown.addRule("list-item", {
    filter: "li",
    replacement: (content, node, options) => {
      const parent = node.parentNode as HTMLElement | null;
      let prefix = `${options.bulletListMarker} `;
      if (parent?.nodeName === "OL") {
        const start = Number(parent.getAttribute("start") ?? 1);
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const indent = " ".repeat(prefix.length);
      const text = content
        .replace(/^\n+/, "")
        .replace(/\n+$/, "\n")
        .replace(/\n(?=.)/g, `\n${indent}`);
      return prefix + text + (node.nextSibling && !text.endsWith("\n") ? "\n" : "");
    },
  });
  turndown.addRule("sized-image", {
    filter: (node) =>
      node.nodeName === "IMG" && [...node.attributes].some((a) => !["src", "alt", "title", "loading"].includes(a.name)),
    replacement: (_content, node) => (node as HTMLElement).outerHTML,
  });
  made = turndown;
  return turndown;
}

/** The Markdown an older post's HTML opens as in the editor. */
export function htmlToMarkdown(html: string): string {
  return converter().turndown(html);
}
