import { sql } from "drizzle-orm";
import { boolean, check, integer, json, oneRowId, table, text, textEnum, timestampNow } from "#server/db/columns.ts";
import type { DisclosureWording } from "#shared/features/disclosure/constants.ts";

/**
 * The claims the site makes about itself as first shipped: content/site-settings.json seeds a
 * new database with the same texts, and these defaults give them to a database created before
 * the claims were settings, so an upgrade shows no change until the admin edits them.
 */
export const CLAIM_DEFAULTS = {
  incomeFigure: "$10k+",
  modelsHelpedFigure: "10,000+",
  testimonialQuote:
    "I was nervous and had no idea where to begin. The quiz said I'm a Girl Next Door, so I stopped copying other models and leaned into being relaxed and chatty. I kept a steady schedule, and on my best days I now make $500+.",
  testimonialAttribution: "Jess, Girl Next Door archetype",
  bannerClaim: "Over 100,000 webcam models trust {platform} for steady income.",
} as const;

// One row (id = 1): the brand, the two affiliate platforms the site links to, the claims the
// site makes about itself (empty hides one), and the site's public address.
export const siteSettings = table(
  "site_settings",
  {
    id: oneRowId("id"),
    brandName: text("brand_name").notNull(),
    platformAName: text("platform_a_name").notNull(),
    platformAUrl: text("platform_a_url").notNull(),
    platformBName: text("platform_b_name").notNull(),
    platformBUrl: text("platform_b_url").notNull(),
    // The managed links visitors follow (links.slug); the URLs are their destinations as last typed.
    platformALinkSlug: text("platform_a_link_slug"),
    platformBLinkSlug: text("platform_b_link_slug"),
    bannerPlatform: textEnum("banner_platform", ["a", "b"]).notNull().default("a"),
    incomeFigure: text("income_figure").notNull().default(CLAIM_DEFAULTS.incomeFigure),
    modelsHelpedFigure: text("models_helped_figure").notNull().default(CLAIM_DEFAULTS.modelsHelpedFigure),
    testimonialQuote: text("testimonial_quote").notNull().default(CLAIM_DEFAULTS.testimonialQuote),
    testimonialAttribution: text("testimonial_attribution").notNull().default(CLAIM_DEFAULTS.testimonialAttribution),
    bannerClaim: text("banner_claim").notNull().default(CLAIM_DEFAULTS.bannerClaim),
    // The graduation gifts the owner can really give: a discount (code, where it works and its
    // percentage; the gift is hidden while no code is set) and a community's address (hidden
    // while empty).
    giftDiscountCode: text("gift_discount_code").notNull().default(""),
    giftDiscountPartner: text("gift_discount_partner").notNull().default(""),
    giftDiscountPercent: integer("gift_discount_percent"),
    communityUrl: text("community_url").notNull().default(""),
    // Who runs the site and how to reach them, as the legal pages name them; empty until the
    // operator publishes them (the pages then say so instead of pointing nowhere).
    operatorName: text("operator_name").notNull().default(""),
    operatorContact: text("operator_contact").notNull().default(""),
    // The site's public address (an http(s) origin) when PUBLIC_URL is not set: recorded
    // from the admin's sign-in until the admin confirms or changes it in Settings.
    publicOrigin: text("public_origin"),
    publicOriginConfirmed: boolean("public_origin_confirmed").notNull().default(false),
    // The operator's wording of the affiliate disclosure, part by part; a missing or blank part
    // reads as the default, so a label can be reworded but never removed.
    disclosureWording: json<Partial<DisclosureWording>>("disclosure_wording"),
    // Schedules the owner sets in Settings; null: the environment's value (or the default).
    backupCron: text("backup_cron"),
    backupKeep: integer("backup_keep"),
    linkCheckHours: integer("link_check_hours"),
    // Days a saved quiz or calculator result is kept; null: the default.
    resultRetentionDays: integer("result_retention_days"),
    updatedAt: timestampNow("updated_at"),
  },
  (table) => [
    check("site_settings_single_row", sql`${table.id} = 1`),
    check("site_settings_banner_platform", sql`${table.bannerPlatform} IN ('a', 'b')`),
  ],
);
