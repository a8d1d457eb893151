import { index, integer, json, primaryKey, table, text } from "#server/db/columns.ts";

/**
 * What the budgets of anonymous writes and the sign-in throttles remember, when the site runs
 * as several instances on one PostgreSQL database (features/limits/shared.ts): kept in the
 * database, every instance reads and adds to the same numbers, and a restart forgets nothing.
 * One row per budget and key (a network, a visitor of the day, the whole site). A single
 * server on SQLite keeps these in memory instead. Rows past `expires_at` mean nothing and are
 * deleted hourly.
 */
export const sharedLimits = table(
  "shared_limits",
  {
    /** Which budget: "write", "beacon", "results:quiz:2026-11-28", "sign-in"... */
    scope: text("scope").notNull(),
    /** Whose share of it: a network (never a full address: an IPv4 address or an IPv6 /64), "site", a visitor hash. */
    key: text("key").notNull(),
    /** A count (daily budgets), or a time in ms (a write budget's next free moment). */
    value: integer("value").notNull().default(0),
    /** A sign-in throttle's failure times, in ms. */
    state: json<number[]>("state"),
    /** When the row stops meaning anything (ms since 1970). */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index("shared_limits_expires").on(t.expiresAt)],
);
