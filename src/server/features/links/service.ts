import { asc, eq, like } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { GO_PREFIX, placementPage } from "#shared/features/links/constants.ts";
import {
  type AdminLink,
  autoFallbackInEffect,
  LINK_SLUG_PATTERN,
  type LinkUpdate,
} from "#shared/features/links/contract.ts";
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
  if (slug.length > 64 || !SLUG.test(slug)) return "/";
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
  if (!link) return "/";
  if (link.active && !autoFallbackInEffect(link)) return link.destination;
  return link.fallback ?? placementPage(placement);
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

function toAdminLink(row: typeof links.$inferSelect): AdminLink {
  return {
    id: row.id,
    slug: row.slug,
    destination: row.destination,
    active: row.active,
    fallbackDestination: row.fallbackDestination,
    notes: row.notes,
    createdAt: row.createdAt.toISOString(),
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    lastStatus: row.lastStatus,
    finalUrl: row.finalUrl,
    hopCount: row.hopCount,
    healthClass: row.healthClass,
    consecutiveFailures: row.consecutiveFailures,
    autoFallbackAfter: row.autoFallbackAfter,
  };
}

/** One link as the admin sees it; null when there is none with that id. */
export async function getLink(db: Db, id: number): Promise<AdminLink | null> {
  const [row] = await db.select().from(links).where(eq(links.id, id)).limit(1);
  return row ? toAdminLink(row) : null;
}

export async function listLinks(db: Db): Promise<AdminLink[]> {
  return (await db.select().from(links).orderBy(asc(links.slug))).map(toAdminLink);
}

const blank = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

/**
 * Changes a link's destination, state, fallback, notes and (when sent) the failed checks after
 * which clicks go to the fallback; its slug stays. A new destination starts unchecked.
 */
export async function updateLink(db: Db, id: number, input: LinkUpdate): Promise<AdminLink> {
  const destination = input.destination.trim();
  const [before] = await db.select({ destination: links.destination }).from(links).where(eq(links.id, id)).limit(1);
  if (!before) throw new HttpError(404, "No link with that id.");
  const [row] = await db
    .update(links)
    .set({
      destination,
      active: input.active,
      fallbackDestination: blank(input.fallbackDestination),
      notes: blank(input.notes),
      ...(input.autoFallbackAfter !== undefined ? { autoFallbackAfter: input.autoFallbackAfter } : {}),
      ...(before.destination !== destination ? HEALTH_RESET : {}),
    })
    .where(eq(links.id, id))
    .returning();
  if (!row) throw new HttpError(404, "No link with that id.");
  return toAdminLink(row);
}
