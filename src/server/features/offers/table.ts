import { sql } from "drizzle-orm";
import { boolean, check, index, integer, serialId, table, text, timestampNow } from "#server/db/columns.ts";
import { MODULE_COUNT } from "#shared/features/course/constants.ts";

export const affiliateOffers = table(
  "affiliate_offers",
  {
    id: serialId("id"),
    title: text("title").notNull(),
    // Markdown as the admin writes it, and the clean HTML rendered from it (null until saved
    // from the editor: the plain text is then shown as it is).
    description: text("description").notNull(),
    descriptionHtml: text("description_html"),
    imageUrl: text("image_url"),
    videoUrl: text("video_url"),
    useEmbed: boolean("use_embed").notNull().default(false),
    embedCode: text("embed_code"),
    linkUrl: text("link_url").notNull(),
    // The managed link visitors follow (links.slug); linkUrl is its destination as last typed.
    linkSlug: text("link_slug"),
    linkText: text("link_text"),
    moduleId: integer("module_id").notNull().default(1),
    isActive: boolean("is_active").notNull().default(true),
    // Present in the admin form state with no visible input; kept so a round trip
    // through the API loses nothing.
    archetype: text("archetype"),
    productId: text("product_id"),
    badge: text("badge"),
    price: text("price"),
    createdAt: timestampNow("created_at"),
    updatedAt: timestampNow("updated_at"),
  },
  (table) => [
    // Inlined, not a parameter: a new MODULE_COUNT changes this CHECK, and db:check asks for a migration.
    check("affiliate_offers_module_range", sql`${table.moduleId} BETWEEN 1 AND ${sql.raw(String(MODULE_COUNT))}`),
    index("affiliate_offers_module_active_idx").on(table.moduleId, table.isActive),
  ],
);
