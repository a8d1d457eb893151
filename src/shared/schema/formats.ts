import { FormatRegistry } from "@sinclair/typebox";

// TypeBox knows no string formats until they are registered.
if (!FormatRegistry.Has("date-time")) {
  FormatRegistry.Set(
    "date-time",
    (value) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
      !Number.isNaN(Date.parse(value)),
  );
}

/**
 * Text a visitor can read: empty or blank (the caller's default applies), or at least two
 * letters or digits of any script. Refuses parts that render blank, such as a blank Braille
 * pattern or a combining grapheme joiner, and ones of marks alone, such as "--".
 */
export const READABLE_TEXT_FORMAT = "readable-text";

export function isReadableText(value: string): boolean {
  return value.trim() === "" || (value.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2;
}

if (!FormatRegistry.Has(READABLE_TEXT_FORMAT)) FormatRegistry.Set(READABLE_TEXT_FORMAT, isReadableText);
