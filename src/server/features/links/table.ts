import { boolean, integer, serialId, table, text, textEnum, timestamp, timestampNow } from "#server/db/columns.ts";

/**
 * Managed affiliate links (docs/product.md#managed-links): /go/<slug> redirects to the
 * destination. The health columns are filled by the link checker; all of them may be empty.
 */
export const links = table("links", {
  id: serialId("id"),
  slug: text("slug").notNull().unique(),
  destination: text("destination").notNull(),
  active: boolean("active").notNull().default(true),
  fallbackDestination: text("fallback_destination"),
  notes: text("notes"),
  createdAt: timestampNow("created_at"),
  lastCheckedAt: timestamp("last_checked_at"),
  lastStatus: integer("last_status"),
  finalUrl: text("final_url"),
  hopCount: integer("hop_count"),
  healthClass: textEnum("health_class", ["healthy", "redirected", "broken", "blocked"]),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  /** After this many consecutive hard failures clicks go to the fallback; empty: never by itself. */
  autoFallbackAfter: integer("auto_fallback_after"),
});
