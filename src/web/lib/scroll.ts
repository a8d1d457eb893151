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

/** Where the window was on each address of this visit (path and query), for Back and Forward. */
const positions = new Map<string, number>();
/** Set by Back or Forward until the page shown for it has had its position back. */
let traversed = false;
const here = () => location.pathname + location.search;

/**
 * Remembers the window's position on each address as the visitor scrolls, and notes Back and
 * Forward, whose scroll the browser's own restoration cannot do for a page this script draws
 * after the address changed (it would still show the page being left).
 */
export function rememberScroll(): void {
  window.addEventListener(
    "scroll",
    () => {
      // Between Back and the page drawn for it, a scroll belongs to neither.
      if (!traversed) positions.set(here(), window.scrollY);
    },
    { passive: true },
  );
  window.addEventListener("popstate", () => {
    traversed = true;
  });
}

/**
 * After Back or Forward (once per traversal): scrolls to where the visitor was on this address
 * and answers true; false for any other change of page, or an address not seen this visit.
 * The page may still be growing (images without sizes, a list arriving): tried again for a
 * second of frames until there is room, unless the visitor scrolls first.
 */
export function restoreTraversal(): boolean {
  if (!traversed) return false;
  traversed = false;
  const top = positions.get(here());
  if (top === undefined) return false;
  routeScrollTaken = false;
  // A heading the page brought into view on arrival gives way.
  stopWatch();
  let frames = 0;
  let still = 0;
  let own = false;
  const mine = () => {
    own = true;
  };
  for (const type of OWN_SCROLL) window.addEventListener(type, mine, { capture: true, passive: true, once: true });
  // Held for a few quiet frames: what settles above it (a line filled in, the browser keeping
  // other content in place) would otherwise leave it a few pixels off.
  const go = () => {
    if (own) return;
    const room = Math.max(0, document.documentElement.scrollHeight - window.innerHeight);
    const target = Math.min(top, room);
    if (Math.abs(window.scrollY - target) >= 1) {
      still = 0;
      window.scrollTo({ top: target, left: 0, behavior: "instant" });
    } else if (room >= top) still++;
    if (still < 5 && frames++ < 60) requestAnimationFrame(go);
    else for (const type of OWN_SCROLL) window.removeEventListener(type, mine, true);
  };
  go();
  return true;
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
