export const LEAVE_QUESTION = "You have unsaved changes. Leave without saving?";

/** The forms on the page that hold changes not saved yet (see admin/leave-warning.ts). */
export const unsaved = new Set<string>();
/** The address the page shows and its history state, as last reached with the owner's consent. */
let here: { url: string; state: unknown } | null = null;

function remember() {
  here = { url: window.location.href, state: window.history.state };
}

/** Asks before leaving when a form holds unsaved changes: true when there are none or the owner agrees. */
export function mayLeave(): boolean {
  return unsaved.size === 0 || window.confirm(LEAVE_QUESTION);
}

/**
 * Back and Forward inside the app. At the window, listeners run in the order they were added
 * (capture or not), and the router re-renders the page at once: this one is added before the
 * app hydrates, so a declined move is hidden from the router. The address is put back at once,
 * in the same event (a new entry for the page left, in place of the one moved from): the router
 * reads the address whenever it renders, so it must never read the declined one, even for the
 * moment an asynchronous `history.go` would take. Forward entries are dropped by this; the page
 * and its unsaved text stay, which is what the owner asked for.
 */
function onPopState(event: PopStateEvent) {
  if (mayLeave()) {
    remember();
    return;
  }
  event.stopImmediatePropagation();
  if (here) window.history.pushState(here.state, "", here.url);
}

/** Called once, before hydration: it costs nothing while no form holds changes. */
export function installLeaveGuard(): void {
  remember();
  window.addEventListener("popstate", onPopState);
  // The router announces its own moves with these events (wouter patches pushState and replaceState).
  window.addEventListener("pushState", remember);
  window.addEventListener("replaceState", remember);
}
