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

/** Where the window must scroll for `element` to sit just below the sticky header. */
function topFor(element: HTMLElement): number {
  const top = element.getBoundingClientRect().top + window.scrollY - headerCover() - HEADING_GAP;
  const bottom = document.documentElement.scrollHeight - window.innerHeight;
  return Math.max(0, Math.min(top, bottom));
}

/** What a visitor does to scroll on their own: a reveal never undoes it. */
const OWN_SCROLL = ["wheel", "touchstart", "pointerdown", "keydown"] as const;

/** Stops the watch of the reveal still under way, if any. */
let stopWatch: () => void = () => {};

/**
 * Calls `settled` once the window has stopped scrolling (`scrollend`, or a quiet moment where
 * a browser lacks it), unless the visitor scrolls on their own first or a newer reveal starts.
 */
function whenSettled(settled: () => void): void {
  stopWatch();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hasScrollEnd = "onscrollend" in window;
  const finish = () => {
    stop();
    settled();
  };
  const quiet = () => {
    clearTimeout(timer);
    timer = setTimeout(finish, 150);
  };
  const stop = () => {
    clearTimeout(timer);
    window.removeEventListener(hasScrollEnd ? "scrollend" : "scroll", hasScrollEnd ? finish : quiet);
    for (const type of OWN_SCROLL) window.removeEventListener(type, stop, true);
    stopWatch = () => {};
  };
  window.addEventListener(hasScrollEnd ? "scrollend" : "scroll", hasScrollEnd ? finish : quiet, { passive: true });
  for (const type of OWN_SCROLL) window.addEventListener(type, stop, { capture: true, passive: true });
  if (!hasScrollEnd) quiet();
  stopWatch = stop;
}

/**
 * Brings what the visitor asked for into view: focus on the heading (which needs
 * tabIndex={-1}) and the window scrolled so it sits just below the sticky header. `from`,
 * when given, is what must show from its top instead (a form field's label above its
 * input, a question's count above its text). Something above that grows or goes while the
 * window scrolls (an offer that arrives late) would leave it elsewhere: once the scroll has
 * settled it is put back, unless the visitor has scrolled on their own since.
 */
export function revealHeading(heading: HTMLElement | null, from: HTMLElement | null = heading): void {
  if (!heading) return;
  routeScrollTaken = true;
  queueMicrotask(() => {
    routeScrollTaken = false;
  });
  heading.focus({ preventScroll: true });
  const shown = from ?? heading;
  const top = topFor(shown);
  if (Math.abs(window.scrollY - top) < 1) return;
  whenSettled(() => {
    if (!shown.isConnected) return;
    const now = topFor(shown);
    if (Math.abs(window.scrollY - now) >= 1) window.scrollTo({ top: now, left: 0, behavior: "instant" });
  });
  window.scrollTo({ top, left: 0, behavior: scrollBehavior() });
}

/** True once the first render in the browser has committed: later mounts follow a visitor's action. */
export function afterFirstRender(): boolean {
  return document.documentElement.dataset.hydrated === "true";
}

/** Scrolls the least needed to show the whole element (what appeared beside the focus). */
export function bringIntoView(element: HTMLElement | null): void {
  element?.scrollIntoView({ block: "nearest", behavior: scrollBehavior() });
}
