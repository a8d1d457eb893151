import { sql } from "drizzle-orm";
import { boolean, check, integer, table, text, textEnum, timestampNow } from "#server/db/columns.ts";

// One row (id = 1): the brand, the two affiliate platforms the site links to, and the site's public address.
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
    // The site's public address (an http(s) origin) when PUBLIC_URL is not set: recorded
    // from the admin's sign-in until the admin confirms or changes it in Settings.
    publicOrigin: text("public_origin"),
    publicOriginConfirmed: boolean("public_origin_confirmed").notNull().default(false),
    updatedAt: timestampNow("updated_at"),
  },
  (table) => [
    check("site_settings_single_row", sql`${table.id} = 1`),
    check("site_settings_banner_platform", sql`${table.bannerPlatform} IN ('a', 'b')`),
  ],
);
