import { useEffect, useState } from "react";
import { THEME_STORAGE_KEY } from "#web/theme-script.ts";

export type Theme = "light" | "dark";

function currentTheme(): Theme {
  return document.documentElement.getAttribute("data-theme") === "dark" ? "dark" : "light";
}

export function ThemeToggle() {
  // Unknown during server rendering: the inline head script decided it before paint.
  const [theme, setTheme] = useState<Theme | null>(null);
  useEffect(() => setTheme(currentTheme()), []);

  function toggle() {
    const next: Theme = currentTheme() === "dark" ? "light" : "dark";
    document.documentElement.setAttribute("data-theme", next);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Storage can be blocked (private mode); the choice then lasts for this page view.
    }
    setTheme(next);
  }

  return (
    <button
      type="button"
      className="theme-toggle outline secondary"
      onClick={toggle}
      aria-label={
        theme === null ? "Toggle colour theme" : theme === "dark" ? "Switch to light theme" : "Switch to dark theme"
      }
    >
      {/* Both icons are rendered; CSS shows the one for the current data-theme, so no flash. */}
      <span className="icon-when-light" aria-hidden="true">
        🌙
      </span>
      <span className="icon-when-dark" aria-hidden="true">
        ☀️
      </span>
    </button>
  );
}
