import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { MODULE_COUNT } from "#shared/features/course/constants.ts";

export const affiliateOffers = sqliteTable(
  "affiliate_offers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    description: text("description").notNull(),
    imageUrl: text("image_url"),
    videoUrl: text("video_url"),
    useEmbed: integer("use_embed", { mode: "boolean" }).notNull().default(false),
    embedCode: text("embed_code"),
    linkUrl: text("link_url").notNull(),
    linkText: text("link_text"),
    moduleId: integer("module_id").notNull().default(1),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    // Present in the admin form state with no visible input (SPEC 3); kept so a
    // round trip through the API loses nothing.
    archetype: text("archetype"),
    productId: text("product_id"),
    badge: text("badge"),
    price: text("price"),
    createdAt: integer("created_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
  },
  (table) => [
    // Inlined, not a parameter: a new MODULE_COUNT changes this CHECK, and db:check asks for a migration.
    check("affiliate_offers_module_range", sql`${table.moduleId} BETWEEN 1 AND ${sql.raw(String(MODULE_COUNT))}`),
    index("affiliate_offers_module_active_idx").on(table.moduleId, table.isActive),
  ],
);
