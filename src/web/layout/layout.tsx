import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "wouter";
import { Header } from "./header.tsx";
import { Footer } from "./footer.tsx";
import { PromoBanner } from "./promo-banner.tsx";
import { Toaster } from "#web/ui/toaster.tsx";
import { scrollToTop } from "#web/lib/scroll.ts";

export function Layout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    // Every route change scrolls smoothly to the top; the first render keeps the
    // browser's own position (reload, back/forward restoration).
    if (first.current) {
      first.current = false;
      return;
    }
    scrollToTop();
  }, [location]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <PromoBanner />
      <main id="main" className="container" tabIndex={-1}>
        {children}
      </main>
      <Footer />
      <Toaster />
    </>
  );
}
