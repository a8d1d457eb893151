import { integer, primaryKey, table, text, textId, timestampNow } from "#server/db/columns.ts";

// First-party counting (docs/product.md#analytics). Nothing here holds an IP address, a user
// agent or a cookie: a visitor is a hash of address, user agent and the day's salt, and that
// hash lives only until the nightly roll-up turns a day's rows into counts.

/** One random salt per UTC day (YYYY-MM-DD); deleted once it is more than two days old. */
export const analyticsSalts = table("analytics_salts", {
  day: textId("day"),
  salt: text("salt").notNull(),
  createdAt: timestampNow("created_at"),
});

/**
 * Raw visitor-day rows: one per visitor hash and UTC day, with the funnel steps (a bit each,
 * see FUNNEL_STEPS) the visitor reached that day. Rolled up into analytics_daily and deleted.
 */
export const analyticsVisitors = table(
  "analytics_visitors",
  {
    day: text("day").notNull(),
    visitor: text("visitor").notNull(),
    steps: integer("steps").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.visitor] })],
);

/** Daily counts: one row per UTC day, metric and key (see METRICS); kept. */
export const analyticsDaily = table(
  "analytics_daily",
  {
    day: text("day").notNull(),
    metric: text("metric").notNull(),
    key: text("key").notNull().default(""),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.metric, t.key] })],
);
