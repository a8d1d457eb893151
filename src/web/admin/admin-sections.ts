// The admin dashboard's addresses: one per section, and its editors under their list's
// address by record id ("new" for a record not yet made). The route table lists the same
// paths (src/web/routes.ts); docs/decisions/022-admin-addresses.md says why.

export const ADMIN_SECTIONS = [
  { id: "home", label: "Home" },
  { id: "posts", label: "Blog Posts" },
  { id: "categories", label: "Categories" },
  { id: "pages", label: "Pages" },
  { id: "media", label: "Media" },
  { id: "offers", label: "Affiliate Offers" },
  { id: "products", label: "Recommended Products" },
  { id: "links", label: "Links" },
  { id: "analytics", label: "Analytics" },
  { id: "backups", label: "Backups" },
  { id: "settings", label: "Settings" },
  { id: "account", label: "Account" },
] as const;

export type AdminSection = (typeof ADMIN_SECTIONS)[number]["id"];

/** A section's name, as its link in the navigation shows it. */
export function sectionLabel(section: AdminSection): string {
  return ADMIN_SECTIONS.find((s) => s.id === section)?.label ?? "";
}

/** The id in an editor's address for a record not yet made. */
export const NEW_RECORD = "new";

/** A section's list, or one record's editor in it (an id, a page's slug, or NEW_RECORD). The home is /admin. */
export function adminPath(section: AdminSection, record?: number | string): string {
  if (section === "home") return "/admin";
  return record === undefined ? `/admin/${section}` : `/admin/${section}/${record}`;
}

export interface AdminAddress {
  section: AdminSection;
  /** The editor's record: an id as written in the address, or NEW_RECORD; undefined for the list. */
  record?: string;
}

/** What an admin address shows; `/admin` itself is the home. */
export function readAdminPath(pathname: string): AdminAddress {
  const [, , name, record] = pathname.split("/");
  // Addresses match whatever the case (/ADMIN/OFFERS/1), so the section's name does too.
  const section = ADMIN_SECTIONS.find((s) => s.id === name?.toLowerCase())?.id ?? "home";
  return record ? { section, record } : { section };
}
