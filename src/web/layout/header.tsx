import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { useSettings } from "#web/features/settings/queries.ts";
import { isActivePath } from "./nav-paths.ts";
import { ThemeToggle } from "./theme-toggle.tsx";

const NAV_LINKS = [
  { href: "/quiz", label: "Quiz" },
  { href: "/learn", label: "Learn" },
  { href: "/blog", label: "Blog" },
];

export function Header() {
  const { brandName } = useSettings();
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  const navRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  // While the phone menu is open, Esc closes it (focus back on its button) and so does a tap elsewhere.
  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggleRef.current?.focus();
    }
    function onPointerDown(event: PointerEvent) {
      if (event.target instanceof Node && navRef.current?.contains(event.target)) return;
      setOpen(false);
    }
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open]);

  return (
    <header className="site-header">
      <nav ref={navRef} className="container site-nav" aria-label="Main">
        <ul className="brand">
          <li>
            <Link href="/" className="logo" title={brandName} onClick={() => setOpen(false)}>
              <span aria-hidden="true">💋</span> <strong>{brandName}</strong>
            </Link>
          </li>
        </ul>
        <ul className="nav-actions">
          <li>
            <ThemeToggle />
          </li>
          <li className="menu-toggle-item">
            <button
              ref={toggleRef}
              type="button"
              className="menu-toggle outline secondary"
              aria-expanded={open}
              aria-controls="site-menu"
              aria-label={open ? "Close menu" : "Open menu"}
              onClick={() => setOpen((o) => !o)}
            >
              <span aria-hidden="true">{open ? "✕" : "☰"}</span>
            </button>
          </li>
        </ul>
        <ul id="site-menu" className={open ? "site-menu open" : "site-menu"}>
          {NAV_LINKS.map((link) => {
            const active = isActivePath(location, link.href);
            return (
              <li key={link.href}>
                <Link
                  href={link.href}
                  className={active ? "active" : undefined}
                  aria-current={active ? "page" : undefined}
                  onClick={() => setOpen(false)}
                >
                  {link.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </header>
  );
}
