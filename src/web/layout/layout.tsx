import { type ReactNode, useEffect, useRef } from "react";
import { useLocation, useSearch } from "wouter";
import { AffiliateDisclosure, DisclosureSpotContext, disclosureSpot } from "#web/features/disclosure/disclosure.tsx";
import { restoreTraversal, scrollToTop, takeRouteScroll } from "#web/lib/scroll.ts";
import { Toaster } from "#web/ui/toaster.tsx";
import { isAdminAddress } from "./admin-header.tsx";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";
import { PromoBanner } from "./promo-banner.tsx";

export function Layout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const search = useSearch();
  const first = useRef(true);
  const shownPath = useRef(location);
  useEffect(() => {
    // Every route change scrolls smoothly to the top; the first render keeps the
    // browser's own position (reload, back/forward restoration), Back and Forward within the
    // site go back to where the visitor was on that page, and a page that brought its own
    // heading into view on arrival keeps it there. A new query on the same page (a search,
    // a page of the list) is the page's own business.
    const pathChanged = shownPath.current !== location;
    shownPath.current = location;
    if (first.current) {
      first.current = false;
      return;
    }
    if (restoreTraversal() || !pathChanged || takeRouteScroll()) return;
    scrollToTop();
  }, [location, search]);

  // The admin's pages bring their own plain header and main (admin-header.tsx): no public
  // header, banner or footer.
  if (isAdminAddress(location))
    return (
      <>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
        <Toaster />
      </>
    );
  // Where this page's affiliate disclosure note goes (docs/product.md#affiliate-disclosure).
  const spot = disclosureSpot(location);
  return (
    <DisclosureSpotContext value={spot}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <PromoBanner />
      {/* Outside the banner, so discreet mode (which hides the banner) keeps the note. */}
      {spot === "top" ? (
        <aside className="page-disclosure" aria-label="Affiliate disclosure">
          <AffiliateDisclosure at="top" />
        </aside>
      ) : null}
      <main id="main" className="container" tabIndex={-1}>
        {children}
      </main>
      <Footer />
      <Toaster />
    </DisclosureSpotContext>
  );
}
