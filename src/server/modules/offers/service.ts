import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { affiliateOffers } from "../../db/schema/index.ts";
import type { PublicOffer } from "../../../shared/contract/offers.ts";
import { HttpError } from "../../plugins/errors.ts";

export function toPublicOffer(row: typeof affiliateOffers.$inferSelect): PublicOffer {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    imageUrl: row.imageUrl,
    videoUrl: row.videoUrl,
    useEmbed: row.useEmbed,
    embedCode: row.embedCode,
    linkUrl: row.linkUrl,
    linkText: row.linkText,
  };
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * DECISIONS P19, as we read it: the active offers of one module, newest first; with
 * fullRandom the same offers in random order (see docs/decisions/008).
 */
export function activeOffersFor(db: Db, moduleId: number, fullRandom: boolean): PublicOffer[] {
  if (!Number.isInteger(moduleId) || moduleId < 1 || moduleId > 10) {
    throw new HttpError(422, "Module id must be a whole number from 1 to 10.");
  }
  const rows = db
    .select()
    .from(affiliateOffers)
    .where(and(eq(affiliateOffers.moduleId, moduleId), eq(affiliateOffers.isActive, true)))
    .orderBy(desc(affiliateOffers.createdAt), desc(affiliateOffers.id))
    .all()
    .map(toPublicOffer);
  return fullRandom ? shuffle(rows) : rows;
}

/** The embed code of an active embed offer, for its sandboxed frame. */
export function embedCodeFor(db: Db, id: number): string {
  const row = db
    .select({ embedCode: affiliateOffers.embedCode, useEmbed: affiliateOffers.useEmbed, isActive: affiliateOffers.isActive })
    .from(affiliateOffers)
    .where(eq(affiliateOffers.id, id))
    .get();
  if (!row || !row.isActive || !row.useEmbed || !row.embedCode) throw new HttpError(404, "No such embed.");
  return row.embedCode;
}
