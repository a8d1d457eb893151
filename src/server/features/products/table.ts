import { boolean, index, integer, table, text, textId, timestampNow } from "#server/db/columns.ts";

export const recommendedProducts = table(
  "recommended_products",
  {
    // Seeded products have readable ids; admin-created ones are 'custom_' + 8 chars.
    id: textId("id"),
    name: text("name").notNull(),
    description: text("description").notNull(),
    link: text("link").notNull(),
    // The managed link visitors follow (links.slug); link is its destination as last typed.
    linkSlug: text("link_slug"),
    price: text("price").notNull(),
    imageUrl: text("image_url"),
    badge: text("badge").notNull().default("ESSENTIAL"),
    archetype: text("archetype").notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    moduleId: integer("module_id"),
    createdAt: timestampNow("created_at"),
  },
  (table) => [index("recommended_products_archetype_idx").on(table.archetype)],
);
