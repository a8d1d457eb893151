import { eq, or, sql } from "drizzle-orm";
import { dialect } from "#server/db/dialect.ts";
import type { Db } from "#server/db/types.ts";
import { lastFinishedBackup } from "#server/features/backups/runs.ts";
import { destinationsBySlug } from "#server/features/links/service.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { recommendedProducts } from "#server/features/products/table.ts";
import { CLAIM_DEFAULTS, siteSettings } from "#server/features/settings/table.ts";
import type { AdminHome } from "#shared/features/home/contract.ts";
import { SETUP_ITEMS, type SetupItem, type SetupItemId } from "#shared/features/home/setup.ts";
import { setupConfirmations } from "./table.ts";

// The setup checklist (docs/product.md#setup-checklist): each item is read from the site's own
// data, so it goes away by itself once fixed; the owner may also confirm one as right.

/** The seeded placeholders: the platforms' names and the example domains their links go to. */
const PLACEHOLDER = /platform one|platform two|\bexample\.(com|org|net)\b/i;

/** A shop's own search page: a search in the address and nothing that pays the site. */
const SEARCH_PARAMS = ["k", "q", "st", "query", "search", "keyword", "keywords", "_nkw"];
const AFFILIATE_PARAMS =
  /^(tag|aff|affid|affiliate|affiliate_id|ref|ref_id|irclickid|clickid|subid|campid|utm_source)$/i;
export function isPlainShopSearch(address: string): boolean {
  try {
    const url = new URL(address);
    const params = [...url.searchParams.keys()];
    const searches =
      params.some((p) => SEARCH_PARAMS.includes(p.toLowerCase())) || /\/(s|search)\/?$/.test(url.pathname);
    return searches && !params.some((p) => AFFILIATE_PARAMS.test(p));
  } catch {
    return false;
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export interface SetupInputs {
  address: AdminHome["address"];
  proxy: AdminHome["proxy"];
  /** Whether BACKUP_DIR is inside DATA_DIR or on its disk. */
  backupsBesideData: () => boolean;
}

/** Every item the site's data still calls for, whether confirmed or not. */
async function openItems(db: Db, inputs: SetupInputs): Promise<SetupItem[]> {
  const [settings] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  const destinations = await destinationsBySlug(db);
  const destination = (slug: string | null, typed: string) => (slug && destinations.get(slug)) || typed;
  const items: SetupItem[] = [];

  if (settings) {
    const platforms = [
      [settings.platformAName, destination(settings.platformALinkSlug, settings.platformAUrl)],
      [settings.platformBName, destination(settings.platformBLinkSlug, settings.platformBUrl)],
    ];
    const placeholders = platforms.filter(([name, url]) => PLACEHOLDER.test(`${name} ${url}`));
    if (placeholders.length > 0)
      items.push({
        id: "platforms",
        title: "Name the platforms you recommend",
        detail: `${placeholders.map(([name]) => `“${name}”`).join(" and ")} ${placeholders.length === 1 ? "is a placeholder" : "are placeholders"} with an example link: visitors who click earn you nothing.`,
        href: "/admin/settings",
        action: "Open Settings",
      });
  }

  const offers = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(affiliateOffers)
    .where(
      or(
        sql`lower(${affiliateOffers.title} || ' ' || ${affiliateOffers.description} || ' ' || ${affiliateOffers.linkUrl}) like '%platform one%'`,
        sql`lower(${affiliateOffers.title} || ' ' || ${affiliateOffers.description} || ' ' || ${affiliateOffers.linkUrl}) like '%platform two%'`,
        sql`lower(${affiliateOffers.linkUrl}) like '%example.com%'`,
        sql`lower(${affiliateOffers.linkUrl}) like '%example.org%'`,
      ),
    );
  const offerCount = offers[0]?.n ?? 0;
  if (offerCount > 0)
    items.push({
      id: "offers",
      title: "Rewrite the seeded offers",
      detail: `${plural(offerCount, "offer still names", "offers still name")} the placeholder platforms or an example link.`,
      href: "/admin/offers",
      action: "Open Offers",
    });

  const products = await db
    .select({ link: recommendedProducts.link, linkSlug: recommendedProducts.linkSlug })
    .from(recommendedProducts);
  const searches = products.filter((p) => isPlainShopSearch(destination(p.linkSlug, p.link))).length;
  if (searches > 0)
    items.push({
      id: "products",
      title: "Give the product links your affiliate tag",
      detail: `${plural(searches, "product link is", "product links are")} a plain shop search with no affiliate tag: a sale through it pays you nothing.`,
      href: "/admin/products",
      action: "Open Products",
    });

  if (settings) {
    const shipped = (
      [
        ["incomeFigure", "the income figure"],
        ["modelsHelpedFigure", "the models-helped figure"],
        ["testimonialQuote", "the testimonial"],
        ["bannerClaim", "the banner sentence"],
      ] as const
    ).filter(([key]) => settings[key] !== "" && settings[key] === CLAIM_DEFAULTS[key]);
    if (shipped.length > 0)
      items.push({
        id: "claims",
        title: "Check the claims the site makes",
        detail: `${shipped.map(([, what]) => what).join(", ")} ${shipped.length === 1 ? "is" : "are"} the shipped example: is it true for your site? Change or empty what you cannot back up.`,
        href: "/admin/settings",
        action: "Open Settings",
      });
    if (!settings.operatorName.trim() || !settings.operatorContact.trim())
      items.push({
        id: "operator",
        title: "Publish who runs the site",
        detail: "The Terms and Privacy pages need your legal name and a contact address; until then they say so.",
        href: "/admin/settings",
        action: "Open Settings",
      });
  }

  if (inputs.address.source === "none" || inputs.address.source === "sign-in")
    items.push({
      id: "address",
      title: "Confirm the public address",
      detail:
        inputs.address.origin === null
          ? "The site does not know the address visitors use: no sitemap or RSS feed until it does."
          : `Taken from your sign-in (${inputs.address.origin}): confirm it is the address visitors use.`,
      href: "/admin/settings",
      action: "Open Settings",
    });

  const backup = await lastFinishedBackup(db);
  const besideData = inputs.backupsBesideData();
  if (dialect === "postgresql")
    items.push({
      id: "backup",
      title: "Back up the PostgreSQL database",
      detail:
        "cam-guide backs up a SQLite database only: schedule your provider's backups or pg_dump, and copy the uploads beside them (or, with the uploads in a bucket, turn on its versioning).",
      href: "/admin/backups",
      action: "Open Backups",
    });
  else if (!backup || besideData)
    items.push({
      id: "backup",
      title: "Keep a backup on another disk",
      detail: !backup
        ? "No backup has finished yet."
        : "The backups sit on the same disk as the site: one failing disk would take both. Set BACKUP_DIR to another disk.",
      href: "/admin/backups",
      action: "Open Backups",
    });

  if (inputs.proxy)
    items.push({
      id: "proxy",
      title: "Name your reverse proxy",
      detail: `Requests arrive through ${inputs.proxy.peer}, which TRUSTED_PROXIES does not name: every visitor looks like that one address. Add TRUSTED_PROXIES=${inputs.proxy.peer} to the server's settings.`,
      href: "/admin/settings",
      action: "Open Settings",
    });

  return items;
}

/** What the admin home lists: the open items the owner has not confirmed, in the checklist's order. */
export async function setupChecklist(db: Db, inputs: SetupInputs): Promise<SetupItem[]> {
  const confirmed = new Set((await db.select().from(setupConfirmations)).map((row) => row.item));
  const items = await openItems(db, inputs);
  return items
    .filter((item) => !confirmed.has(item.id))
    .sort((a, b) => SETUP_ITEMS.indexOf(a.id) - SETUP_ITEMS.indexOf(b.id));
}

/** "This is right for my site": the item is not listed again. */
export async function confirmSetupItem(db: Db, item: SetupItemId): Promise<void> {
  await db.insert(setupConfirmations).values({ item }).onConflictDoNothing();
}
