// Characters that stored text must not carry: most C0 control characters, U+FFFE/U+FFFF
// and unpaired surrogates. XML 1.0 cannot hold them even escaped (one of them in a stored
// title would make the whole feed unreadable), and nobody types them on purpose. Admin
// input refuses them (plugins/json-body.ts); XML output drops any that got in another way.

// Matched by UTF-16 code unit (no "u" flag), so an unpaired surrogate is found on its own.
const UNSHOWABLE = new RegExp(
  [
    "[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]",
    "[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])",
    "(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]",
  ].join("|"),
);
const UNSHOWABLE_ALL = new RegExp(UNSHOWABLE.source, "g");

/** The first character of `value` that stored text must not carry, as "U+0007", or null. */
export function firstUnshowable(value: string): string | null {
  const found = UNSHOWABLE.exec(value)?.[0];
  return found === undefined ? null : `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Text for an XML element or a quoted attribute: those characters dropped, markup escaped. */
export function xmlText(value: string): string {
  return value
    .replace(UNSHOWABLE_ALL, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
