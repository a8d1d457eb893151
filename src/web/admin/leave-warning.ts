import { useEffect, useId } from "react";

export const LEAVE_QUESTION = "You have unsaved changes. Leave without saving?";

/** The forms on the page that hold changes not saved yet; one set of listeners serves them all. */
const unsaved = new Set<string>();
/** Set while the address is put back after a declined Back, so that move is not asked about again. */
let restoring = false;

/** Asks before leaving when a form holds unsaved changes: true when there are none or the owner agrees. */
export function mayLeave(): boolean {
  return unsaved.size === 0 || window.confirm(LEAVE_QUESTION);
}

function onBeforeUnload(event: BeforeUnloadEvent) {
  event.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  event.returnValue = "";
}

/** A click that would make the app (or the browser) open another page of this site. */
function leavingLink(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download")) return null;
  if (link.target && link.target !== "_self") return null;
  const to = new URL(link.href, window.location.href);
  if (to.origin !== window.location.origin) return null;
  const here = window.location;
  if (to.pathname === here.pathname && to.search === here.search && to.hash) return null;
  return link;
}

function onClick(event: MouseEvent) {
  if (!leavingLink(event) || mayLeave()) return;
  // Declined: neither the browser nor the router (whose handler is below the document) follows the link.
  event.preventDefault();
  event.stopPropagation();
}

/**
 * Back and Forward inside the app: heard in the capture phase, before the router's own listener,
 * so a declined move is hidden from the router and undone. Which way the browser moved is not
 * known, so the move undone is a step forward (the common case: Back).
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

function listen(on: boolean) {
  const method = on ? "addEventListener" : "removeEventListener";
  window[method]("beforeunload", onBeforeUnload);
  window[method]("popstate", onPopState as EventListener, { capture: true });
  document[method]("click", onClick as EventListener, { capture: true });
}

/** While `dirty`, leaving the page (reload, closing, typing an address, a link, Back) asks first. */
export function useLeaveWarning(dirty: boolean): void {
  const id = useId();
  useEffect(() => {
    if (!dirty) return;
    if (unsaved.size === 0) listen(true);
    unsaved.add(id);
    return () => {
      unsaved.delete(id);
      if (unsaved.size === 0) listen(false);
    };
  }, [dirty, id]);
}
