import { sql } from "drizzle-orm";
import { check, integer, table, text, textEnum, timestampNow } from "#server/db/columns.ts";

// One row (id = 1): the brand and the two affiliate platforms the site links to.
export const siteSettings = table(
  "site_settings",
  {
    id: integer("id").primaryKey(),
    brandName: text("brand_name").notNull(),
    platformAName: text("platform_a_name").notNull(),
    platformAUrl: text("platform_a_url").notNull(),
    platformBName: text("platform_b_name").notNull(),
    platformBUrl: text("platform_b_url").notNull(),
    bannerPlatform: textEnum("banner_platform", ["a", "b"]).notNull().default("a"),
    updatedAt: timestampNow("updated_at"),
  },
  (table) => [
    check("site_settings_single_row", sql`${table.id} = 1`),
    check("site_settings_banner_platform", sql`${table.bannerPlatform} IN ('a', 'b')`),
  ],
);
