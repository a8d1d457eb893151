import type { MouseEvent as ReactMouseEvent } from "react";

/**
 * A plain left click, which the page may handle itself; a click with a modifier key (a new
 * tab or window, a download) is left to the browser.
 */
export function isPlainClick(event: MouseEvent | ReactMouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
