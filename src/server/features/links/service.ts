import { and, asc, eq, gte, like } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { analyticsDaily } from "#server/features/analytics/table.ts";
import { blogPosts } from "#server/features/blog/table.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { recommendedProducts } from "#server/features/products/table.ts";
import { siteSettings } from "#server/features/settings/table.ts";
import { utcDay } from "#server/lib/utc-day.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { METRICS } from "#shared/features/analytics/constants.ts";
import { GO_PREFIX, placementPage, placementPost } from "#shared/features/links/constants.ts";
import {
  type AdminLink,
  type AdminLinkWithClicks,
  autoFallbackInEffect,
  LINK_SLUG_PATTERN,
  type LinkChoice,
  type LinkClicks,
  type LinkCreate,
  type LinkUpdate,
  NEW_LINK,
} from "#shared/features/links/contract.ts";
import { readDestination, savedDestination } from "#shared/features/links/destination.ts";
import { sent } from "#shared/schema/sent.ts";
import { HEALTH_RESET } from "./health.ts";
import { links } from "./table.ts";

const SLUG = new RegExp(LINK_SLUG_PATTERN);

/**
 * The address on this site a source's managed link has. A source without a link (none after
 * the upgrade step) still never shows a raw destination: its address leads to the home page.
 */
export function goPath(slug: string | null): string {
  return `${GO_PREFIX}${slug ?? "unlinked"}`;
}

/**
 * Where /go/<slug>?p=<placement> sends a visitor: the destination of an active link; an
 * inactive link's fallback, else the page the placement names (the same for a link whose
 * failed checks reached the number the admin set); the home page for an unknown or malformed
 * slug. Nothing in the answer is taken from the request but the choice of page.
 */
export async function resolveGo(db: Db, slug: string, placement: string | null): Promise<string> {
  return (await followGo(db, slug, placement)).location;
}

/** Whether a placement names a post the site has ("post:<slug>"), so a click in it is counted under that post. */
export async function placedInPost(db: Db, placement: string | null): Promise<boolean> {
  const post = placementPost(placement);
  if (!post) return false;
  const [row] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, post)).limit(1);
  return row !== undefined;
}

/** Where /go/<slug> sends a visitor, and the link's slug when the site has it (null: unknown, sent home). */
export async function followGo(
  db: Db,
  slug: string,
  placement: string | null,
): Promise<{ location: string; link: string | null }> {
  if (slug.length > 64 || !SLUG.test(slug)) return { location: "/", link: null };
  const [link] = await db
    .select({
      destination: links.destination,
      active: links.active,
      fallback: links.fallbackDestination,
      consecutiveFailures: links.consecutiveFailures,
      autoFallbackAfter: links.autoFallbackAfter,
    })
    .from(links)
    .where(eq(links.slug, slug))
    .limit(1);
  if (!link) return { location: "/", link: null };
  // Read in the saved form, whatever wrote the row (an older release, a restore): the Location
  // is then plain ASCII. One that is no destination a visitor can follow is not used.
  const destination = savedDestination(link.destination);
  if (destination && link.active && !autoFallbackInEffect(link)) return { location: destination, link: slug };
  const fallback = link.fallback === null ? null : savedDestination(link.fallback);
  return { location: fallback ?? placementPage(placement), link: slug };
}

/**
 * `raw` in the form it is saved and sent in, or a 422 naming `field` with the reason visitors
 * could not follow it (`what` starts the sentence: "The destination", "The fallback").
 */
function destinationAt(raw: string, field: string, what: string): string {
  const reading = readDestination(raw, what);
  if (reading.problem !== undefined) throw new HttpError(422, reading.problem, [{ field, message: reading.problem }]);
  return reading.url;
}

/** A slug made from `text` (lower-case words joined by hyphens), never empty. */
export function slugFrom(text: string, fallback = "link"): string {
  const slug = text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  return slug || fallback;
}

/** `wanted` if no link has it, else `wanted-2`, `wanted-3`… */
async function freeSlug(tx: Db, wanted: string): Promise<string> {
  const taken = new Set(
    (
      await tx
        .select({ slug: links.slug })
        .from(links)
        .where(like(links.slug, `${wanted}%`))
    ).map((r) => r.slug),
  );
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

/**
 * The slug of the link a source sends visitors through, keeping it pointed at `destination`:
 * the source's own link (`slug`) gets the destination when it differs; a source without one
 * gets a new link with a free slug made from `name`.
 */
export async function linkFor(
  tx: Db,
  source: { slug: string | null; destination: string; name: string; notes?: string },
): Promise<string> {
  if (source.slug) {
    const [link] = await tx.select().from(links).where(eq(links.slug, source.slug)).limit(1);
    if (link) {
      // A new destination has not been checked: the old one's health no longer says anything.
      if (link.destination !== source.destination)
        await tx
          .update(links)
          .set({ destination: source.destination, ...HEALTH_RESET })
          .where(eq(links.id, link.id));
      return link.slug;
    }
  }
  const slug = await freeSlug(tx, source.slug ?? slugFrom(source.name));
  await tx.insert(links).values({ slug, destination: source.destination, notes: source.notes ?? null });
  return slug;
}

/**
 * Each link's destination by slug: the admin's forms for platforms, offers and products show
 * the destination of the source's link (which the Links section may have changed), so a save
 * from them never puts back an older address.
 */
export async function destinationsBySlug(db: Db): Promise<Map<string, string>> {
  const rows = await db.select({ slug: links.slug, destination: links.destination }).from(links);
  return new Map(rows.map((row) => [row.slug, row.destination]));
}

// ---- Admin ----

/** The admin's view of a link is its row, sent (dates as ISO strings). */
const toAdminLink = (row: typeof links.$inferSelect): AdminLink => sent(row);

/** One link as the admin sees it; null when there is none with that id. */
export async function getLink(db: Db, id: number): Promise<AdminLink | null> {
  const [row] = await db.select().from(links).where(eq(links.id, id)).limit(1);
  return row ? toAdminLink(row) : null;
}

async function listLinks(db: Db): Promise<AdminLink[]> {
  return (await db.select().from(links).orderBy(asc(links.slug))).map(toAdminLink);
}

const blank = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

/** A fallback as sent in its saved form: undefined when absent, null for none ("" or null). */
function fallbackOf(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const text = blank(value);
  return text === null ? null : destinationAt(text, "fallbackDestination", "The fallback");
}

/**
 * Changes a link's destination and state and, when sent, its fallback, notes and the failed
 * checks after which clicks go to the fallback (an absent field keeps its value; "" or null
 * clears it); its slug stays. A new destination starts unchecked.
 */
export async function updateLink(db: Db, id: number, input: LinkUpdate): Promise<AdminLink> {
  const destination = destinationAt(input.destination, "destination", "The destination");
  const fallback = fallbackOf(input.fallbackDestination);
  const [before] = await db.select({ destination: links.destination }).from(links).where(eq(links.id, id)).limit(1);
  if (!before) throw new HttpError(404, "No link with that id.");
  const [row] = await db
    .update(links)
    .set({
      destination,
      active: input.active,
      ...(fallback !== undefined ? { fallbackDestination: fallback } : {}),
      ...(input.notes !== undefined ? { notes: blank(input.notes) } : {}),
      ...(input.autoFallbackAfter !== undefined ? { autoFallbackAfter: input.autoFallbackAfter } : {}),
      ...(before.destination !== destination ? HEALTH_RESET : {}),
    })
    .where(eq(links.id, id))
    .returning();
  if (!row) throw new HttpError(404, "No link with that id.");
  return toAdminLink(row);
}

/** A 4xx naming the picker's field (`prefix` is the source's path, such as "platformA."). */
const choiceProblem = (status: number, prefix: string, field: string, message: string) =>
  new HttpError(status, message, [{ field: `${prefix}${field}`, message }]);

/**
 * The link a source sends visitors through, as the admin's form picked it: an existing link
 * (`linkSlug`), a new link made here (NEW_LINK with a free slug and a destination), or, when
 * nothing was picked, the typed URL adopted into the source's own link (`linkFor`). Returns the
 * slug and the destination the source's URL column keeps. Call inside the source's transaction,
 * so a refused choice changes nothing.
 */
export async function chooseLink(
  tx: Db,
  choice: LinkChoice,
  prefix: string,
  typed: { slug: string | null; destination: string | undefined; name: string; notes: string; field: string },
): Promise<{ slug: string; destination: string }> {
  const picked = choice.linkSlug?.trim() ?? "";
  if (picked === NEW_LINK) {
    const slug = choice.newLinkSlug?.trim() ?? "";
    if (!SLUG.test(slug) || slug.length > 64)
      throw choiceProblem(
        422,
        prefix,
        "newLinkSlug",
        "The new link's slug is 1 to 64 lower-case letters, digits and single hyphens",
      );
    const destination = destinationAt(
      choice.newLinkDestination ?? "",
      `${prefix}newLinkDestination`,
      "The new link's destination",
    );
    const [taken] = await tx.select({ id: links.id }).from(links).where(eq(links.slug, slug)).limit(1);
    if (taken)
      throw choiceProblem(
        409,
        prefix,
        "newLinkSlug",
        `A link with the slug "${slug}" exists: pick it or choose another slug`,
      );
    await tx.insert(links).values({ slug, destination, notes: typed.notes });
    return { slug, destination };
  }
  if (picked) {
    const [link] = await tx
      .select({ slug: links.slug, destination: links.destination })
      .from(links)
      .where(eq(links.slug, picked))
      .limit(1);
    if (!link) throw choiceProblem(422, prefix, "linkSlug", `There is no link with the slug "${picked.slice(0, 64)}"`);
    return link;
  }
  if (!typed.destination?.trim())
    throw choiceProblem(422, prefix, "linkSlug", "Choose a link, or make a new one with a slug and a destination");
  const destination = destinationAt(typed.destination, typed.field, "The link's destination");
  return { slug: await linkFor(tx, { ...typed, destination }), destination };
}

/** Makes a link in the Links section; a slug in use is a 409. */
export async function createLink(db: Db, input: LinkCreate): Promise<AdminLink> {
  const slug = input.slug.trim();
  const destination = destinationAt(input.destination, "destination", "The destination");
  const fallback = fallbackOf(input.fallbackDestination) ?? null;
  const [taken] = await db.select({ id: links.id }).from(links).where(eq(links.slug, slug)).limit(1);
  if (taken)
    throw new HttpError(409, `A link with the slug "${slug}" exists.`, [
      { field: "slug", message: `A link with the slug "${slug}" exists: choose another slug` },
    ]);
  const [row] = await db
    .insert(links)
    .values({
      slug,
      destination,
      active: input.active,
      fallbackDestination: fallback,
      notes: blank(input.notes),
      autoFallbackAfter: input.autoFallbackAfter ?? null,
    })
    .returning();
  return toAdminLink(row!);
}

/**
 * Each link with its clicks in the last 7 and 30 days (today, UTC, included), in all and per
 * placement, summed from the daily click counts (key "<slug>/<placement>").
 */
export async function listLinksWithClicks(db: Db, now = new Date()): Promise<AdminLinkWithClicks[]> {
  const all = await listLinks(db);
  const since7 = utcDay(now, 6);
  const rows = await db
    .select({ day: analyticsDaily.day, key: analyticsDaily.key, count: analyticsDaily.count })
    .from(analyticsDaily)
    .where(and(eq(analyticsDaily.metric, METRICS.click), gte(analyticsDaily.day, utcDay(now, 29))));
  const bySlug = new Map<string, LinkClicks>();
  for (const row of rows) {
    const cut = row.key.indexOf("/");
    if (cut < 0) continue;
    const slug = row.key.slice(0, cut);
    const placement = row.key.slice(cut + 1);
    const clicks = bySlug.get(slug) ?? { days7: 0, days30: 0, placements: [] };
    bySlug.set(slug, clicks);
    let place = clicks.placements.find((p) => p.placement === placement);
    if (!place) {
      place = { placement, days7: 0, days30: 0 };
      clicks.placements.push(place);
    }
    const recent = row.day >= since7 ? row.count : 0;
    clicks.days30 += row.count;
    clicks.days7 += recent;
    place.days30 += row.count;
    place.days7 += recent;
  }
  return all.map((link) => {
    const clicks = bySlug.get(link.slug) ?? { days7: 0, days30: 0, placements: [] };
    clicks.placements.sort((a, b) => b.days30 - a.days30 || a.placement.localeCompare(b.placement));
    return { ...link, clicks };
  });
}

/** What refers to a link: the platforms, offers and products that send visitors through it, and the posts that link to it. */
export interface LinkUsage {
  slug: string;
  sources: string[];
  posts: { id: number; title: string }[];
}

export async function linkUsage(db: Db, id: number): Promise<LinkUsage> {
  const [link] = await db.select({ slug: links.slug }).from(links).where(eq(links.id, id)).limit(1);
  if (!link) throw new HttpError(404, "No link with that id.");
  const { slug } = link;
  const [settings] = await db
    .select({
      aName: siteSettings.platformAName,
      aSlug: siteSettings.platformALinkSlug,
      bName: siteSettings.platformBName,
      bSlug: siteSettings.platformBLinkSlug,
    })
    .from(siteSettings)
    .limit(1);
  const offers = await db
    .select({ title: affiliateOffers.title })
    .from(affiliateOffers)
    .where(eq(affiliateOffers.linkSlug, slug));
  const products = await db
    .select({ name: recommendedProducts.name })
    .from(recommendedProducts)
    .where(eq(recommendedProducts.linkSlug, slug));
  // The saved HTML holds a managed link exactly so (the sanitiser reduces it to /go/<slug>).
  const posts = await db
    .select({ id: blogPosts.id, title: blogPosts.title })
    .from(blogPosts)
    .where(like(blogPosts.content, `%href="${GO_PREFIX}${slug}"%`))
    .orderBy(asc(blogPosts.title));
  return {
    slug,
    sources: [
      ...(settings?.aSlug === slug ? [`the platform ${settings.aName}`] : []),
      ...(settings?.bSlug === slug ? [`the platform ${settings.bName}`] : []),
      ...offers.map((o) => `the offer "${o.title}"`),
      ...products.map((p) => `the product "${p.name}"`),
    ],
    posts,
  };
}

/**
 * Deletes a link no platform, offer or product uses (409 naming them otherwise). Posts that link
 * to it keep their text; their link then leads to the home page, as any unknown /go/ address.
 */
export async function deleteLink(db: Db, id: number): Promise<LinkUsage> {
  const usage = await linkUsage(db, id);
  if (usage.sources.length > 0)
    throw new HttpError(
      409,
      `/go/${usage.slug} is used by ${usage.sources.join(", ")}: pick another link for each of them first.`,
    );
  await db.delete(links).where(eq(links.id, id));
  return usage;
}
