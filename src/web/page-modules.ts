import type { PageModule } from "./page-route.ts";
import type { PageDef } from "./routes.ts";

// Each page's module (its code chunk), loaded once and kept: a page's data comes from its
// route's loader (page-route.ts), its code from here.
//
// A promise React's use() can read synchronously once settled: React checks these
// status fields, so a page that is already loaded renders without suspending.
type TrackedPromise<T> = Promise<T> & { status?: "pending" | "fulfilled" | "rejected"; value?: T; reason?: unknown };

const cache = new Map<string, TrackedPromise<PageModule>>();

export function loadPage(page: PageDef): TrackedPromise<PageModule> {
  let promise = cache.get(page.id);
  if (!promise) {
    const tracked: TrackedPromise<PageModule> = page.load();
    tracked.status = "pending";
    tracked.then(
      (value) => {
        tracked.status = "fulfilled";
        tracked.value = value;
      },
      (reason) => {
        tracked.status = "rejected";
        tracked.reason = reason;
        // A failed chunk (offline, new deploy) may succeed on the next navigation.
        cache.delete(page.id);
      },
    );
    cache.set(page.id, tracked);
    promise = tracked;
  }
  return promise;
}

/** Whether a page's code is here: a page with nothing to load (a moved address), or its module loaded. */
export function pageReady(page: PageDef | { movedTo: string }): boolean {
  return "movedTo" in page || cache.get(page.id)?.status === "fulfilled";
}
