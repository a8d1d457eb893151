// An HTML attribute's value as written in markup, and back: the one pair the server's Markdown
// renderer and the post page's video placeholders both use on sanitised HTML.

/** A value to write between double quotes. */
export const escapeAttribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A value read from between double quotes (the entities sanitised HTML uses). */
export const decodeAttribute = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
