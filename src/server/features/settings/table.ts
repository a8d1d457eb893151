import { sql } from "drizzle-orm";
import { check, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// One row (id = 1): the brand and the two affiliate platforms (DECISIONS P5).
export const siteSettings = sqliteTable(
  "site_settings",
  {
    id: integer("id").primaryKey(),
    brandName: text("brand_name").notNull(),
    platformAName: text("platform_a_name").notNull(),
    platformAUrl: text("platform_a_url").notNull(),
    platformBName: text("platform_b_name").notNull(),
    platformBUrl: text("platform_b_url").notNull(),
    bannerPlatform: text("banner_platform", { enum: ["a", "b"] }).notNull().default("a"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
  },
  (table) => [
    check("site_settings_single_row", sql`${table.id} = 1`),
    check("site_settings_banner_platform", sql`${table.bannerPlatform} IN ('a', 'b')`),
  ],
);
