import { FormatRegistry } from "@sinclair/typebox";
import { firstInvisible } from "#shared/invisible.ts";

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
 * Prose a visitor reads with no character a reader cannot see (src/shared/invisible.ts): no
 * control, direction or zero-width character, no filler drawn blank; emoji keep their selectors
 * and joiners.
 */
export const SHOWN_TEXT_FORMAT = "shown-text";

function isShownText(value: string): boolean {
  return firstInvisible(value, { prose: true }) === null;
}

/**
 * Shown text (above) a visitor can read: empty or blank (the caller's default applies), or at
 * least two letters or digits of any script. Refuses parts that render blank and ones of marks
 * alone, such as "--".
 */
export const READABLE_TEXT_FORMAT = "readable-text";

function isReadableText(value: string): boolean {
  return isShownText(value) && (value.trim() === "" || (value.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2);
}

if (!FormatRegistry.Has(SHOWN_TEXT_FORMAT)) FormatRegistry.Set(SHOWN_TEXT_FORMAT, isShownText);
if (!FormatRegistry.Has(READABLE_TEXT_FORMAT)) FormatRegistry.Set(READABLE_TEXT_FORMAT, isReadableText);
