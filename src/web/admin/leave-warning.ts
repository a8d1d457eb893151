import { useEffect, useId } from "react";
import { isPlainClick } from "#web/lib/clicks.ts";
import { mayLeave, unsaved } from "#web/lib/leave-guard.ts";

export { LEAVE_QUESTION } from "#web/lib/leave-guard.ts";

function onBeforeUnload(event: BeforeUnloadEvent) {
  event.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  event.returnValue = "";
}

/** A click that would make the app (or the browser) open another page of this site. */
function leavingLink(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || !isPlainClick(event)) return null;
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

function listen(on: boolean) {
  const method = on ? "addEventListener" : "removeEventListener";
  window[method]("beforeunload", onBeforeUnload);
  document[method]("click", onClick as EventListener, { capture: true });
}

/**
 * While `dirty`, leaving the page (reload, closing, typing an address, a link, Back) asks
 * first. Back and Forward are heard by the guard installed before hydration (lib/leave-guard.ts).
 */
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
