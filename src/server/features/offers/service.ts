import { and, desc, eq } from "drizzle-orm";
import { inTransaction } from "#server/db/transaction.ts";
import type { Db } from "#server/db/types.ts";
import { chooseLink, destinationsBySlug, goPath } from "#server/features/links/service.ts";
import { refuseOffSiteImages } from "#server/lib/content-images.ts";
import { markdownToHtml } from "#server/lib/markdown.ts";
import { rowValues } from "#server/lib/row-values.ts";
import { cleanStoredHtml, sanitizePostHtml } from "#server/lib/sanitize.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { MODULE_COUNT } from "#shared/features/course/constants.ts";
import { type AdminOffer, OfferInput, PublicOffer } from "#shared/features/offers/contract.ts";
import { toVideoSource } from "#shared/features/offers/video-url.ts";
import { declaredFields } from "#shared/schema/declared-fields.ts";
import { sent } from "#shared/schema/sent.ts";
import { affiliateOffers } from "./table.ts";

/**
 * An offer as pages show it: the public fields, the description's HTML cleaned again on the way
 * out (like a post's content), and its link the managed link on this site, never the destination.
 */
function toPublicOffer(row: typeof affiliateOffers.$inferSelect): PublicOffer {
  return { ...declaredFields(PublicOffer, cleaned(row)), linkUrl: goPath(row.linkSlug) };
}

function cleaned(row: typeof affiliateOffers.$inferSelect) {
  return { ...row, descriptionHtml: row.descriptionHtml === null ? null : cleanStoredHtml(row.descriptionHtml) };
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * Which offers a module shows (docs/product.md#offers): the active offers of one module, newest first; with
 * fullRandom the same offers in random order (see docs/decisions/008).
 */
export async function activeOffersFor(db: Db, moduleId: number, fullRandom: boolean): Promise<PublicOffer[]> {
  if (!Number.isInteger(moduleId) || moduleId < 1 || moduleId > MODULE_COUNT) {
    throw new HttpError(422, `Module id must be a whole number from 1 to ${MODULE_COUNT}.`);
  }
  const rows = await db
    .select()
    .from(affiliateOffers)
    .where(and(eq(affiliateOffers.moduleId, moduleId), eq(affiliateOffers.isActive, true)))
    .orderBy(desc(affiliateOffers.createdAt), desc(affiliateOffers.id));
  const offers = rows.map(toPublicOffer);
  return fullRandom ? shuffle(offers) : offers;
}

/** The embed code of an active embed offer, for its sandboxed frame. */
export async function embedCodeFor(db: Db, id: number): Promise<string> {
  const [row] = await db
    .select({
      embedCode: affiliateOffers.embedCode,
      useEmbed: affiliateOffers.useEmbed,
      isActive: affiliateOffers.isActive,
    })
    .from(affiliateOffers)
    .where(eq(affiliateOffers.id, id))
    .limit(1);
  if (!row?.isActive || !row.useEmbed || !row.embedCode) throw new HttpError(404, "No such embed.");
  return row.embedCode;
}

// ---- Admin ----

const blankText = (v: string | null | undefined) =>
  v === undefined || v === null || v.trim() === "" ? null : v.trim();

/** The admin's view: the offer's link URL is its managed link's destination (`destination`, when known). */
function toAdminOffer(row: typeof affiliateOffers.$inferSelect, destination?: string): AdminOffer {
  return { ...sent(cleaned(row)), linkUrl: destination ?? row.linkUrl };
}

export async function listAllOffers(db: Db): Promise<AdminOffer[]> {
  const rows = await db
    .select()
    .from(affiliateOffers)
    .orderBy(desc(affiliateOffers.createdAt), desc(affiliateOffers.id));
  const destinations = await destinationsBySlug(db);
  return rows.map((row) => toAdminOffer(row, row.linkSlug ? destinations.get(row.linkSlug) : undefined));
}

function offerValues(input: OfferInput) {
  // 'https://' is the form's placeholder for an empty video URL.
  const video = blankText(input.videoUrl === "https://" ? null : input.videoUrl);
  const source = input.useEmbed || !video ? null : toVideoSource(video);
  if (!input.useEmbed && video && !source) {
    throw new HttpError(422, "The video URL is not one we can play.", [
      { field: "videoUrl", message: "Use a YouTube or Vimeo link, or a direct MP4, WebM or Ogg file" },
    ]);
  }
  // The site's security policy (media-src 'self' blob: https:) blocks a file over plain http.
  if (source?.kind === "file" && source.src.startsWith("http:")) {
    throw new HttpError(422, "The video URL is not one we can play.", [
      {
        field: "videoUrl",
        message: "A video file on another website must use https: (browsers here block http: media)",
      },
    ]);
  }
  const embedCode = blankText(input.embedCode);
  if (input.useEmbed && !embedCode) {
    throw new HttpError(422, "Embed code is required when the offer uses embed code.", [
      { field: "embedCode", message: "Paste the embed code" },
    ]);
  }
  // The description is written in Markdown (the editor's smaller toolbar): stored as written and as clean HTML.
  const descriptionHtml = markdownToHtml(input.description.trim());
  // An image from another website would be accepted and then never shown (the CSP blocks it).
  refuseOffSiteImages(descriptionHtml, "description", "description");
  return {
    ...rowValues(affiliateOffers, OfferInput, input),
    title: input.title.trim(),
    description: input.description.trim(),
    descriptionHtml: sanitizePostHtml(descriptionHtml).trim(),
    // Embed mode has no image or video; media mode has no embed code.
    imageUrl: input.useEmbed ? null : blankText(input.imageUrl),
    videoUrl: input.useEmbed ? null : video,
    embedCode: input.useEmbed ? embedCode : null,
    linkUrl: input.linkUrl?.trim() ?? "",
  };
}

/**
 * The offer's managed link as the form picked it (an existing or a new link), or the typed URL
 * adopted into the offer's own link; the offer's URL column keeps the link's destination.
 */
async function offerLink(tx: Db, slug: string | null, input: OfferInput, values: ReturnType<typeof offerValues>) {
  const link = await chooseLink(tx, input, "", {
    slug,
    destination: values.linkUrl,
    name: values.title,
    notes: `Offer: ${values.title}`,
    field: "linkUrl",
  });
  return { linkSlug: link.slug, linkUrl: link.destination };
}

export function createOffer(db: Db, input: OfferInput): Promise<AdminOffer> {
  const values = offerValues(input);
  return inTransaction(db, async (tx) => {
    const link = await offerLink(tx, null, input, values);
    const [row] = await tx
      .insert(affiliateOffers)
      .values({ ...values, ...link })
      .returning();
    return toAdminOffer(row!);
  });
}

export function updateOffer(db: Db, id: number, input: OfferInput): Promise<AdminOffer> {
  const values = offerValues(input);
  return inTransaction(db, async (tx) => {
    const [old] = await tx
      .select({ linkSlug: affiliateOffers.linkSlug })
      .from(affiliateOffers)
      .where(eq(affiliateOffers.id, id))
      .limit(1);
    if (!old) throw new HttpError(404, "No offer with that id.");
    const link = await offerLink(tx, old.linkSlug, input, values);
    const [row] = await tx
      .update(affiliateOffers)
      .set({ ...values, ...link, updatedAt: new Date() })
      .where(eq(affiliateOffers.id, id))
      .returning();
    return toAdminOffer(row!);
  });
}

export async function deleteOffer(db: Db, id: number): Promise<void> {
  const deleted = await db
    .delete(affiliateOffers)
    .where(eq(affiliateOffers.id, id))
    .returning({ id: affiliateOffers.id });
  if (deleted.length === 0) throw new HttpError(404, "No offer with that id.");
}
