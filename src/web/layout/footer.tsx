import { Fragment, useId } from "react";
import { Link } from "wouter";
import { placedHref } from "#shared/features/links/constants.ts";
import { AffiliateDisclosure, AffiliateLabel } from "#web/features/disclosure/disclosure.tsx";
import { ClearDataButton } from "#web/features/privacy/clear-data-button.tsx";
import { DiscreetToggle } from "#web/features/privacy/discreet-toggle.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import { scrollToTop } from "#web/lib/scroll.ts";

export function Footer() {
  const { brandName, platformA, platformB, footerPages } = useSettings();
  const year = new Date().getFullYear();
  const labelId = useId();

  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about">{brandName}</h2>
          <p>
            The ultimate resource for aspiring cam models: discover your style, calculate your earning potential and
            learn how to succeed.
          </p>
        </section>
        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links">Quick Links</h2>
          <ul>
            <li>
              <Link href="/quiz">Take the Quiz</Link>
            </li>
            <li>
              {/* Already on /learn: navigating is a no-op, so scroll to the top after 50 ms. */}
              <Link href="/learn" onClick={() => window.setTimeout(scrollToTop, 50)}>
                Free Course
              </Link>
            </li>
            <li>
              <Link href="/blog">Blog</Link>
            </li>
            <li>
              <Link href="/blog/platform-reviews">Platform Reviews</Link>
            </li>
          </ul>
        </nav>
        <div>
          <nav aria-labelledby="footer-platforms">
            <h2 id="footer-platforms">Popular Platforms</h2>
            <ul>
              {[platformA, platformB].map((p, i) => (
                <li key={p.url}>
                  <a
                    href={placedHref(p.url, "footer")}
                    target="_blank"
                    rel="sponsored noopener"
                    aria-describedby={`${labelId}-${i}`}
                  >
                    {p.name}
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </a>{" "}
                  <AffiliateLabel id={`${labelId}-${i}`} kind="affiliate" />
                </li>
              ))}
            </ul>
          </nav>
          <AffiliateDisclosure at="footer" />
        </div>
      </div>
      <div className="container footer-legal">
        <p>
          © <span suppressHydrationWarning>{year}</span> {brandName}. All rights reserved.
        </p>
        <p className="statement-2257">
          18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement: this site publishes no sexually explicit
          content and produces none. It offers educational information for adults only. All people shown in images were
          18 years of age or older when the images were made.
        </p>
        <p>
          <Link href="/terms">Terms of Service</Link> · <Link href="/privacy">Privacy Policy</Link>
          {footerPages.map((page) => (
            <Fragment key={page.slug}>
              {" · "}
              <Link href={`/${page.slug}`}>{page.title}</Link>
            </Fragment>
          ))}
        </p>
        <div className="footer-privacy">
          <DiscreetToggle />
          <ClearDataButton />
        </div>
        {/* What the controls above and Quick exit cannot do, said where they are offered. */}
        <p className="footer-privacy-note">
          Quick exit, discreet mode and clearing your data cannot erase your browser's history.{" "}
          <Link href="/privacy#using-this-site-on-a-shared-device">What stays on this device</Link>
        </p>
      </div>
    </footer>
  );
}
