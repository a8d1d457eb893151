import type { ReactNode } from "react";
import { Link } from "wouter";
import { useSettings } from "#web/features/settings/queries.ts";
import { ThemeToggle } from "./theme-toggle.tsx";

// The admin's pages have a plain header of their own: the site's name (a way back to the
// site), the theme, and what the page adds (the dashboard: Sign Out and its sections). The
// visitor's Quick exit and Discreet mode are for visitors, and the public footer is left out.

/** Whether an address is one of the admin's pages (the dashboard and its sign-in). */
export function isAdminAddress(path: string): boolean {
  return path === "/admin" || path === "/admin-login" || path.startsWith("/admin/");
}

export function AdminHeader({ actions, children }: { actions?: ReactNode; children?: ReactNode }) {
  const { brandName } = useSettings();
  return (
    <header className="admin-site-header">
      <div className="container admin-site-bar">
        <Link href="/" className="logo" title={`${brandName}: the public site`}>
          <strong>{brandName}</strong> <span className="muted">Admin</span>
        </Link>
        <div className="admin-site-actions">
          <ThemeToggle />
          {actions}
        </div>
      </div>
      {children && <div className="container">{children}</div>}
    </header>
  );
}
