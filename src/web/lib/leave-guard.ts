export const LEAVE_QUESTION = "You have unsaved changes. Leave without saving?";

/** The forms on the page that hold changes not saved yet (see admin/leave-warning.ts). */
export const unsaved = new Set<string>();
/** Set while the address is put back after a declined Back, so that move is not asked about again. */
let restoring = false;

/** Asks before leaving when a form holds unsaved changes: true when there are none or the owner agrees. */
export function mayLeave(): boolean {
  return unsaved.size === 0 || window.confirm(LEAVE_QUESTION);
}

/**
 * Back and Forward inside the app. At the window, listeners run in the order they were added
 * (capture or not), and the router's re-renders the page at once: this one is added before
 * the app hydrates, so a declined move is hidden from the router and undone. Which way the
 * browser moved is not known, so the move undone is a step forward (the common case: Back).
 */
function onPopState(event: PopStateEvent) {
  if (restoring) {
    restoring = false;
    event.stopImmediatePropagation();
    return;
  }
  if (mayLeave()) return;
  event.stopImmediatePropagation();
  restoring = true;
  window.history.go(1);
}

/** Called once, before hydration: it costs nothing while no form holds changes. */
export function installLeaveGuard(): void {
  window.addEventListener("popstate", onPopState);
}
