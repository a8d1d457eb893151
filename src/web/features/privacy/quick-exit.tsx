import { useEffect } from "react";
import { isPlainClick } from "#web/lib/clicks.ts";

/**
 * Where Quick exit goes: a neutral, public page that looks like ordinary browsing. An operator who
 * prefers another one changes it here (docs/product.md#quick-exit).
 */
export const QUICK_EXIT_URL = "https://www.bbc.com/weather";

/** Two presses of Escape within this many milliseconds leave the site. */
export const DOUBLE_ESCAPE_MS = 1000;

/**
 * Leaves at once: location.replace puts the neutral page in this tab's current history entry, so
 * Back does not return to the page the visitor was reading. Earlier entries of this site in the
 * same tab stay (no browser lets a page remove them).
 */
function quickExit(): void {
  // Blank the page first, so nothing of it shows while the neutral page loads.
  document.title = "";
  document.body.style.visibility = "hidden";
  window.location.replace(QUICK_EXIT_URL);
}

const NOT_TEXT = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);

/**
 * Where Escape belongs to something else: a text field, an open dialog, or an open
 * disclosure that closes on Escape and says so with `data-escape-closes` (the site menu).
 * Other open sections (the course contents' current module) take nothing.
 */
function escapeIsTaken(target: EventTarget | null): boolean {
  if (target instanceof HTMLElement) {
    if (target.isContentEditable || target.closest("textarea, select, [contenteditable]")) return true;
    if (target instanceof HTMLInputElement && !NOT_TEXT.has(target.type)) return true;
  }
  return Boolean(document.querySelector("dialog[open], details[open][data-escape-closes]"));
}

/**
 * A plain link to the neutral page, so it works without scripts (rel="noreferrer": the neutral
 * site does not learn where the visitor came from); with scripts it replaces this history entry.
 * Escape pressed twice in a row does the same, unless Escape is closing something first.
 */
export function QuickExit() {
  useEffect(() => {
    let last = 0;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape" || event.repeat) return;
      // Capture phase: this runs before a menu or dialog handles (and closes on) the same key.
      if (event.defaultPrevented || escapeIsTaken(event.target)) {
        last = 0;
        return;
      }
      const now = Date.now();
      if (last && now - last <= DOUBLE_ESCAPE_MS) {
        last = 0;
        quickExit();
        return;
      }
      last = now;
    }
    window.addEventListener("keydown", onKeyDown, true);
    return () => window.removeEventListener("keydown", onKeyDown, true);
  }, []);

  return (
    <a
      className="quick-exit"
      href={QUICK_EXIT_URL}
      rel="noreferrer"
      title="Leave this site now (or press Esc twice)"
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        quickExit();
      }}
    >
      Quick exit
    </a>
  );
}
