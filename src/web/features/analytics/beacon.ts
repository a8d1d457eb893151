import { useCallback, useEffect, useRef } from "react";
import { type BEACON_METRICS, BEACON_PATH } from "#shared/features/analytics/constants.ts";

// What only the browser sees, reported to this site alone (docs/product.md#analytics): no
// cookie, no storage, nothing at all when the visitor asks not to be tracked.

type BeaconMetric = (typeof BEACON_METRICS)[number];

function optedOut(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.globalPrivacyControl === true || nav.doNotTrack === "1";
}

/** Reports one event; never fails and never waits (it outlives a page being left). */
export function report(metric: BeaconMetric, key = ""): void {
  if (typeof window === "undefined" || optedOut()) return;
  fetch(BEACON_PATH, {
    method: "POST",
    keepalive: true,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ events: [{ metric, key }] }),
  }).catch(() => {});
}

/**
 * A navigation inside the page to another page (`page`: its id and path): the first page
 * was counted by the server that sent it, so only later ones are reported, and never the
 * admin's pages or the "not found" page (the server counts neither).
 */
export function useNavigationCount(pageId: string, pathname: string, address: string): void {
  const page = `${pageId} ${pathname}`;
  const last = useRef(page);
  useEffect(() => {
    if (last.current === page) return;
    last.current = page;
    if (pageId !== "not-found" && !pageId.startsWith("admin")) report("pageview", address);
  }, [page, pageId, address]);
}

/** A ref for an offer card: its offer counts as seen once at least half of it is on screen (once per offer). */
export function useOfferSeen(id: number | undefined) {
  const seen = useRef(new Set<number>());
  return useCallback(
    (element: HTMLElement | null) => {
      if (!element || id === undefined || seen.current.has(id) || typeof IntersectionObserver !== "function") return;
      const observer = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting) || seen.current.has(id)) return;
          seen.current.add(id);
          observer.disconnect();
          report("offer_view", String(id));
        },
        { threshold: 0.5 },
      );
      observer.observe(element);
      return () => observer.disconnect();
    },
    [id],
  );
}
