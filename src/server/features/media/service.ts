import { desc, eq, inArray } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { blogPosts } from "#server/features/blog/table.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { recommendedProducts } from "#server/features/products/table.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { ImageFit } from "#shared/features/media/constants.ts";
import type { MediaItem, MediaUsage } from "#shared/features/media/contract.ts";
import { uploadIdOf, withUploadName } from "./name-lock.ts";
import { isOriginal, type MediaRow, ownCopies, removeUpload } from "./registry.ts";
import { storeOf } from "./store.ts";
import { media } from "./table.ts";
import { isFinishedUpload } from "./uploads.ts";

/** An editor's address in the admin dashboard (its list's address, then the record). */
const adminPath = (section: string, record: number | string) => `/admin/${section}/${encodeURIComponent(record)}`;

const UPLOADS = "/uploads/";

interface Usable {
  kind: MediaUsage["kind"];
  title: string;
  href: string;
  fields: [field: string, value: string | null][];
}

function usable(kind: Usable["kind"], title: string, href: string, fields: Usable["fields"]): Usable {
  return { kind, title, href, fields };
}

/** Every place an upload may be used: posts, offers, products and the site's pages. */
async function usableRecords(db: Db): Promise<Usable[]> {
  const [posts, offers, products, pages] = await Promise.all([
    db
      .select({
        id: blogPosts.id,
        title: blogPosts.title,
        content: blogPosts.content,
        markdown: blogPosts.contentMarkdown,
        cover: blogPosts.coverImage,
      })
      .from(blogPosts),
    db
      .select({
        id: affiliateOffers.id,
        title: affiliateOffers.title,
        image: affiliateOffers.imageUrl,
        video: affiliateOffers.videoUrl,
        description: affiliateOffers.descriptionHtml,
      })
      .from(affiliateOffers),
    db
      .select({ id: recommendedProducts.id, name: recommendedProducts.name, image: recommendedProducts.imageUrl })
      .from(recommendedProducts),
    db
      .select({ slug: sitePages.slug, title: sitePages.title, body: sitePages.body, markdown: sitePages.bodyMarkdown })
      .from(sitePages),
  ]);
  return [
    ...posts.map((p) =>
      usable("post", p.title, adminPath("posts", p.id), [
        ["cover", p.cover],
        ["content", `${p.content}\n${p.markdown ?? ""}`],
      ]),
    ),
    ...offers.map((o) =>
      usable("offer", o.title, adminPath("offers", o.id), [
        ["image", o.image],
        ["video", o.video],
        ["description", o.description],
      ]),
    ),
    // Products are edited in a dialog over their list.
    ...products.map((p) => usable("product", p.name, "/admin/products", [["image", p.image]])),
    ...pages.map((p) =>
      usable("page", p.title, adminPath("pages", p.slug), [["body", `${p.body}\n${p.markdown ?? ""}`]]),
    ),
  ];
}

/**
 * Addresses in `text` as a browser resolves them, for finding uploads: percent escapes decoded
 * (`/uploads/%41b…`), `.` and `..` segments and doubled slashes removed (`/uploads/./x`), so
 * no other spelling of an upload's address hides that it is used.
 */
function resolvedAddresses(text: string): string {
  let out = text.replace(/%[0-9a-f]{2}/gi, (code) => {
    try {
      return decodeURIComponent(code);
    } catch {
      return code;
    }
  });
  out = out.replace(/\/(?:\.\/)+/g, "/").replace(/([^:])\/{2,}/g, "$1/");
  for (let before = ""; before !== out; ) {
    before = out;
    out = out.replace(/\/[^/\s"'()<>]+\/\.\.\//g, "/");
  }
  return out;
}

/** Where the upload `name` (or one of its copies) is used among `records`. */
function usageOf(name: string, records: Usable[]): MediaUsage[] {
  const needle = `${UPLOADS}${uploadIdOf(name)}`;
  const found: MediaUsage[] = [];
  for (const record of records)
    for (const [field, value] of record.fields)
      if (value && resolvedAddresses(value).includes(needle))
        found.push({ kind: record.kind, title: record.title, field, href: record.href });
  return found;
}

function toItem(row: MediaRow, records: Usable[], kept: boolean): MediaItem {
  const copies = ownCopies(row);
  const smallest = copies[0];
  return {
    id: row.id,
    name: row.name,
    originalName: row.originalName,
    url: `${UPLOADS}${encodeURIComponent(row.name)}`,
    // Gone from the folder (removed by hand, a backup restored without it), or a name the
    // server never makes (a row written by other means): said, not hidden.
    missing: !isOriginal(row.name) || !kept,
    mime: row.mime,
    kind: row.kind,
    size: row.size,
    width: row.width,
    height: row.height,
    alt: row.alt,
    thumbUrl: row.kind === "video" ? null : `${UPLOADS}${smallest?.name ?? encodeURIComponent(row.name)}`,
    variants: copies.map((v) => ({ url: `${UPLOADS}${v.name}`, width: v.width, height: v.height, size: v.size })),
    createdAt: row.createdAt.toISOString(),
    usage: usageOf(row.name, records),
  };
}

/**
 * The library, newest first, each upload with where it is used. Only what is recorded: the
 * earlier uploads are recorded by the start's run, and an upload still being recorded (its
 * file renamed, its copies being made) is listed once it is; the list never makes copies
 * itself (it used to, and waited on every image being uploaded at the time).
 */
export async function listMedia(db: Db, dir: string): Promise<MediaItem[]> {
  const [rows, records] = await Promise.all([
    db.select().from(media).orderBy(desc(media.createdAt), desc(media.id)),
    usableRecords(db),
  ]);
  return Promise.all(rows.map(async (row) => toItem(row, records, await isKept(dir, row.name))));
}

/** Whether an upload's file is kept: in the folder, or in the bucket (S3_BUCKET); a bucket out of reach says kept. */
async function isKept(dir: string, name: string): Promise<boolean> {
  if (isFinishedUpload(dir, name)) return true;
  return storeOf(dir)
    .has(dir, name)
    .catch(() => true);
}

async function findRow(db: Db, id: number): Promise<MediaRow> {
  const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1);
  if (!row) throw new HttpError(404, "No upload with that id.");
  return row;
}

/** One upload as the library lists it. */
export async function getMedia(db: Db, dir: string, id: number): Promise<MediaItem> {
  const row = await findRow(db, id);
  return toItem(row, await usableRecords(db), await isKept(dir, row.name));
}

export async function updateAlt(db: Db, dir: string, id: number, alt: string): Promise<MediaItem> {
  await findRow(db, id);
  await db.update(media).set({ alt: alt.trim() }).where(eq(media.id, id));
  return getMedia(db, dir, id);
}

const USAGE_WORDS: Record<MediaUsage["kind"], string> = {
  post: "post",
  offer: "offer",
  product: "product",
  page: "page",
};

/**
 * Deletes an upload: its file, its smaller copies and its row. One still used somewhere is
 * refused (409, the places in `details`) unless `confirmed` says the admin saw the warning.
 * Waits for whatever else is under way on the same upload (its registration, copies being
 * made, another delete), then looks again: a second delete of the same upload is a 404.
 */
export async function deleteMedia(db: Db, dir: string, id: number, confirmed: boolean): Promise<void> {
  const { name } = await findRow(db, id);
  await withUploadName(dir, name, async () => {
    const row = await findRow(db, id);
    const usage = usageOf(row.name, await usableRecords(db));
    if (usage.length > 0 && !confirmed) {
      const places = usage.map((u) => `the ${USAGE_WORDS[u.kind]} “${u.title}” (${u.field})`).join(", ");
      throw new HttpError(
        409,
        `This file is still used in ${places}. Deleting it leaves a broken image there; confirm to delete it anyway.`,
        usage,
      );
    }
    await removeUpload(db, dir, row);
  });
}

/**
 * The size and smaller copies of each upload among `sources` (addresses like /uploads/<name>)
 * that the library knows as an image: what public pages put in width, height and srcset.
 */
export async function imageFits(db: Db, sources: (string | null | undefined)[]): Promise<Map<string, ImageFit>> {
  const names = [
    ...new Set(sources.filter((s): s is string => !!s?.startsWith(UPLOADS)).map((s) => s.slice(UPLOADS.length))),
  ];
  const fits = new Map<string, ImageFit>();
  if (names.length === 0) return fits;
  const rows = await db.select().from(media).where(inArray(media.name, names));
  for (const row of rows) {
    if (row.kind !== "image" || !row.width || !row.height) continue;
    const copies = ownCopies(row);
    const srcset =
      copies.length === 0
        ? ""
        : [...copies.map((v) => `${UPLOADS}${v.name} ${v.width}w`), `${UPLOADS}${row.name} ${row.width}w`].join(", ");
    fits.set(`${UPLOADS}${row.name}`, { width: row.width, height: row.height, srcset });
  }
  return fits;
}
