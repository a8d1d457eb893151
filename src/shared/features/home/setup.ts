import { Type } from "@sinclair/typebox";

// The admin home's setup checklist (docs/product.md#setup-checklist): what a new site still
// shows as shipped, or lacks, before it can earn and be honest with its visitors. Each item is
// found in the site's own data and stays until it is done or the owner confirms it.

/** The checklist's items, in the order the home lists them. */
export const SETUP_ITEMS = [
  "platforms",
  "offers",
  "products",
  "claims",
  "operator",
  "address",
  "backup",
  "proxy",
] as const;
export type SetupItemId = (typeof SETUP_ITEMS)[number];

/** One thing left to do, as the admin home shows it. */
export interface SetupItem {
  id: SetupItemId;
  title: string;
  /** What was found, in plain words (counts and names from the site's data). */
  detail: string;
  /** Where it is fixed. */
  href: string;
  /** The link's words. */
  action: string;
}

/** The item a confirmation names (PUT /api/admin/home/setup/:item). */
export const SetupItemParam = Type.Object({
  item: Type.Union(
    SETUP_ITEMS.map((id) => Type.Literal(id)),
    { error: `The checklist's items are: ${SETUP_ITEMS.join(", ")}` },
  ),
});
