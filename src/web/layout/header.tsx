import { useEffect, useRef } from "react";
import { Link, useLocation } from "wouter";
import { DiscreetToggle } from "#web/features/privacy/discreet-toggle.tsx";
import { QuickExit } from "#web/features/privacy/quick-exit.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import { isActivePath } from "./nav-paths.ts";
import { ThemeToggle } from "./theme-toggle.tsx";

const NAV_LINKS = [
  { href: "/quiz", label: "Quiz" },
  { href: "/learn", label: "Learn" },
  { href: "/blog", label: "Blog" },
];

function NavLinks({ onFollow }: { onFollow?: () => void }) {
  const [location] = useLocation();
  return NAV_LINKS.map((link) => {
    const active = isActivePath(location, link.href);
    return (
      <li key={link.href}>
        <Link
          href={link.href}
          className={active ? "active" : undefined}
          aria-current={active ? "page" : undefined}
          onClick={onFollow}
        >
          {link.label}
        </Link>
      </li>
    );
  });
}

function closeMenu(menu: HTMLDetailsElement | null) {
  if (menu?.open) menu.open = false;
}

export function Header() {
  const { brandName } = useSettings();
  const [location] = useLocation();
  // The phone menu is a native disclosure: it opens without scripts, and its open state belongs
  // to the browser (the attribute is never rendered, so a menu opened before hydration stays open).
  const menuRef = useRef<HTMLDetailsElement>(null);
  const close = () => closeMenu(menuRef.current);

  // A new address (a link followed, Back) closes the menu; the first render's address is no change.
  const shownLocation = useRef(location);
  useEffect(() => {
    if (shownLocation.current === location) return;
    shownLocation.current = location;
    closeMenu(menuRef.current);
  }, [location]);

  // While the menu is open, Esc closes it (focus back on its toggle) and so does a tap elsewhere.
  // The listeners ask the menu itself whether it is open, so a key pressed right after it opened
  // (before any state of ours could follow) still closes it.
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape" || !menuRef.current?.open) return;
      closeMenu(menuRef.current);
      menuRef.current.querySelector("summary")?.focus();
    }
    function onPointerDown(event: PointerEvent) {
      if (event.target instanceof Node && menuRef.current?.contains(event.target)) return;
      closeMenu(menuRef.current);
    }
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, []);

  return (
    <header className="site-header">
      <nav className="container site-nav" aria-label="Main">
        <ul className="brand">
          <li>
            <Link href="/" className="logo" title={brandName} onClick={close}>
              <span aria-hidden="true">💋</span> <strong>{brandName}</strong>
            </Link>
          </li>
        </ul>
        {/* Wide screens: the links inline. Phones: the same links in the disclosure below. */}
        <ul className="site-links">
          <NavLinks />
        </ul>
        <ul className="nav-actions">
          <li>
            <QuickExit />
          </li>
          <li>
            <ThemeToggle />
          </li>
          <li className="menu-item">
            <details ref={menuRef} className="site-menu" data-escape-closes="">
              <summary className="menu-toggle">
                <span className="icon-when-closed" aria-hidden="true">
                  ☰
                </span>
                <span className="icon-when-open" aria-hidden="true">
                  ✕
                </span>
                <span className="visually-hidden">Menu</span>
              </summary>
              <ul className="site-menu-links">
                <NavLinks onFollow={close} />
                <li className="menu-discreet">
                  <DiscreetToggle />
                </li>
              </ul>
            </details>
          </li>
        </ul>
      </nav>
    </header>
  );
}
