export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function scrollBehavior(): ScrollBehavior {
  return prefersReducedMotion() ? "instant" : "smooth";
}

export function scrollToTop(): void {
  window.scrollTo({ top: 0, left: 0, behavior: scrollBehavior() });
}

/** Room left between the sticky header and a revealed heading, in pixels. */
const HEADING_GAP = 12;

/** How much of the top of the window the site header covers while the page scrolls. */
function headerCover(): number {
  const header = document.querySelector<HTMLElement>(".site-header");
  if (!header) return 0;
  const { position } = getComputedStyle(header);
  return position === "sticky" || position === "fixed" ? header.getBoundingClientRect().height : 0;
}

let routeScrollTaken = false;

/**
 * The layout's scroll to the top on a change of page gives way once to a reveal made while
 * the same change was committed (a child's effect runs before the layout's).
 */
export function takeRouteScroll(): boolean {
  const taken = routeScrollTaken;
  routeScrollTaken = false;
  return taken;
}

/**
 * Brings what the visitor asked for into view: focus on the heading (which needs
 * tabIndex={-1}) and the window scrolled so it sits just below the sticky header. `from`,
 * when given, is what must show from its top instead (a form field's label above its
 * input, a question's count above its text).
 */
export function revealHeading(heading: HTMLElement | null, from: HTMLElement | null = heading): void {
  if (!heading) return;
  routeScrollTaken = true;
  queueMicrotask(() => {
    routeScrollTaken = false;
  });
  heading.focus({ preventScroll: true });
  const top = (from ?? heading).getBoundingClientRect().top + window.scrollY - headerCover() - HEADING_GAP;
  window.scrollTo({ top: Math.max(0, top), left: 0, behavior: scrollBehavior() });
}

/** True once the first render in the browser has committed: later mounts follow a visitor's action. */
export function afterFirstRender(): boolean {
  return document.documentElement.dataset.hydrated === "true";
}

/** Scrolls the least needed to show the whole element (what appeared beside the focus). */
export function bringIntoView(element: HTMLElement | null): void {
  element?.scrollIntoView({ block: "nearest", behavior: scrollBehavior() });
}
