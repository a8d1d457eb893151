import { sql } from "drizzle-orm";
import { check, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const adminUsers = sqliteTable("admin_users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  // Bumped on logout and password reset so that every token issued before stops working.
  tokenVersion: integer("token_version").notNull().default(0),
  createdAt: integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
});

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

// Operator-editable text pages such as /terms and /privacy (DECISIONS P8).
export const sitePages = sqliteTable("site_pages", {
  slug: text("slug").primaryKey(),
  title: text("title").notNull(),
  description: text("description").notNull(),
  body: text("body").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
});
