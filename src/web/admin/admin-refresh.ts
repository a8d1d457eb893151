import type { Query } from "@tanstack/react-query";
import { ADMIN_MOUNTS } from "#shared/features/auth/constants.ts";
import type { AdminApi } from "./admin-client.ts";

// What a change makes stale, decided here once from its route: every query of the same
// feature, admin or public, and the admin home, which sums up every section. Queries are
// keyed by their path (adminKey, a read's key), so the path is all it takes.

type Feature =
  | "blog"
  | "offers"
  | "products"
  | "links"
  | "analytics"
  | "settings"
  | "auth"
  | "home"
  | "backups"
  | "media"
  | "site-pages"
  | "editor";

/**
 * The feature of each first segment of an admin path. Keyed by the routes themselves: a
 * route whose first segment is new or renamed fails the type check until it is placed here.
 */
const FEATURE_OF: Record<Exclude<keyof AdminApi, "~path">, Feature> = {
  blog: "blog",
  "affiliate-offers": "offers",
  "affiliate-offer": "offers",
  "recommended-products": "products",
  "recommended-product": "products",
  links: "links",
  link: "links",
  analytics: "analytics",
  "analytics.csv": "analytics",
  settings: "settings",
  account: "auth",
  home: "home",
  backups: "backups",
  media: "media",
  "site-pages": "site-pages",
  "site-page": "site-pages",
  // The editor's preview and its draft copies change nothing that a query shows.
  editor: "editor",
  autosave: "editor",
};

/**
 * The public reads that show what a feature's changes change (the server empties its page
 * cache alike), by the start of their paths. Not by importing their declarations: that would
 * move them out of the public pages' code into code those pages share with the admin.
 * admin-refresh.test.ts checks that each start is that of declared reads.
 */
export const SHOWN_IN: [Feature, string][] = [
  ["blog", "/api/blog/"],
  ["offers", "/api/module/"],
  ["products", "/api/recommended-products/"],
  ["settings", "/api/settings"],
  ["site-pages", "/api/pages/"],
];

const under = (mount: string, path: string) => path === mount || path.startsWith(`${mount}/`);

/** The feature a path of the API belongs to, or null (the session check belongs to none). */
function featureOf(path: string): Feature | null {
  // An upload is a new item of the media library.
  if (under(ADMIN_MOUNTS.upload, path)) return "media";
  if (under(ADMIN_MOUNTS.api, path)) {
    const segment = path.slice(ADMIN_MOUNTS.api.length + 1).split(/[/?]/, 1)[0]!;
    return FEATURE_OF[segment as keyof typeof FEATURE_OF] ?? null;
  }
  return SHOWN_IN.find(([, start]) => path.startsWith(start))?.[0] ?? null;
}

/** Which queries a change sent to `path` makes stale: those of its feature, and the admin home. */
export function refreshAfter(path: string): (query: Query) => boolean {
  const changed = featureOf(path);
  return ({ queryKey: [key] }) => {
    if (typeof key !== "string") return false;
    const feature = featureOf(key);
    return feature !== null && (feature === changed || feature === "home");
  };
}
