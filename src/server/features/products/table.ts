import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const recommendedProducts = sqliteTable(
  "recommended_products",
  {
    // Seeded products have readable ids; admin-created ones are 'custom_' + 8 chars.
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    link: text("link").notNull(),
    price: text("price").notNull(),
    imageUrl: text("image_url"),
    badge: text("badge").notNull().default("ESSENTIAL"),
    archetype: text("archetype").notNull(),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    moduleId: integer("module_id"),
    createdAt: integer("created_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`),
  },
  (table) => [index("recommended_products_archetype_idx").on(table.archetype)],
);
