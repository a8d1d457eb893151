import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { desc, eq, inArray } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { blogPosts } from "#server/features/blog/table.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { recommendedProducts } from "#server/features/products/table.ts";
import { sitePages } from "#server/features/site-pages/table.ts";
import { CONTENT_TYPES, isFinishedUpload, UPLOAD_KINDS } from "#server/features/uploads/service.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { type ImageFit, MAX_IMAGE_PIXELS, VARIANT_WIDTHS } from "#shared/features/media/constants.ts";
import type { MediaItem, MediaUsage } from "#shared/features/media/contract.ts";
import { type MediaVariant, media } from "./table.ts";

type Row = typeof media.$inferSelect;

/** An editor's address in the admin dashboard (its list's address, then the record). */
const adminPath = (section: string, record: number | string) => `/admin/${section}/${encodeURIComponent(record)}`;

const UPLOADS = "/uploads/";
/** An upload's name without its extension: the 22-character id the server made. */
const idOf = (name: string) => name.slice(0, 22);
/** The file name of an image's smaller copy `width` pixels wide. */
const variantName = (name: string, width: number) => `${idOf(name)}-w${width}.webp`;
/** An original upload's name (not a smaller copy). */
const ORIGINAL = /^[A-Za-z0-9_-]{22}\.[a-z0-9]+$/;

/** Refusals of an image the server cannot or will not read, each a 4xx. */
function imageRefusal(error: unknown): HttpError {
  const code = (error as { code?: string }).code;
  if (code === "ERR_IMAGE_TOO_MANY_PIXELS")
    return new HttpError(
      413,
      `This image has too many pixels (at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels); make it smaller and upload it again.`,
    );
  return new HttpError(422, "This image could not be read (it may be damaged); nothing was stored.");
}

interface Measured {
  width: number;
  height: number;
  variants: MediaVariant[];
}

/**
 * Reads an image's size and writes its smaller WebP copies beside it (never wider than it).
 * Decoding, resizing and encoding run on Bun's worker threads. GIFs keep only their size
 * (a copy would lose the animation). Throws a 4xx for a damaged image or one with too many
 * pixels, having removed any copy it wrote.
 */
export async function measureImage(dir: string, name: string): Promise<Measured> {
  const bytes = await Bun.file(join(dir, name)).bytes();
  const written: string[] = [];
  try {
    const meta = await new Bun.Image(bytes, { maxPixels: MAX_IMAGE_PIXELS }).metadata();
    const variants: MediaVariant[] = [];
    if (meta.format !== "gif") {
      // A photo's EXIF orientation is applied: the copies are as the browser shows the original.
      for (const width of VARIANT_WIDTHS) {
        if (width >= meta.width) break;
        const image = new Bun.Image(bytes, { maxPixels: MAX_IMAGE_PIXELS }).resize(width, undefined, {
          fit: "inside",
          withoutEnlargement: true,
        });
        const out = await image.webp({ quality: 80 }).bytes();
        const file = variantName(name, width);
        await Bun.write(join(dir, file), out);
        written.push(file);
        variants.push({ name: file, width: image.width, height: image.height, size: out.length });
      }
    }
    // Reading the header is not reading the image: one with no copies is decoded whole once
    // (into a tiny placeholder), so a damaged file is refused like any other.
    if (variants.length === 0) await new Bun.Image(bytes, { maxPixels: MAX_IMAGE_PIXELS }).placeholder();
    // The original as shown: a rotated photo's copies have its shown proportions.
    const turned = variants[0] && variants[0].width < variants[0].height !== meta.width < meta.height;
    return {
      width: turned ? meta.height : meta.width,
      height: turned ? meta.width : meta.height,
      variants,
    };
  } catch (error) {
    for (const file of written) rmSync(join(dir, file), { force: true });
    // A codec's refusal is the image's fault (4xx); anything else (a full disk) is not.
    if (!String((error as { code?: string }).code ?? "").startsWith("ERR_IMAGE")) throw error;
    throw imageRefusal(error);
  }
}

/**
 * Records a stored upload in the library: an image's size and smaller copies are made first.
 * A damaged or oversized image is removed and refused (4xx); nothing is recorded.
 */
export async function registerUpload(db: Db, dir: string, name: string, mime: string, size: number): Promise<Row> {
  const kind = UPLOAD_KINDS[mime]?.kind ?? "image";
  let measured: Measured | null = null;
  if (kind === "image") {
    try {
      measured = await measureImage(dir, name);
    } catch (error) {
      rmSync(join(dir, name), { force: true });
      throw error;
    }
  }
  const [row] = await db
    .insert(media)
    .values({
      name,
      mime,
      kind,
      size,
      width: measured?.width ?? null,
      height: measured?.height ?? null,
      variants: measured?.variants ?? [],
    })
    .onConflictDoNothing()
    .returning();
  if (row) return row;
  const [existing] = await db.select().from(media).where(eq(media.name, name)).limit(1);
  return existing!;
}

/** Every stored upload's file, removed: the original and its smaller copies. */
function removeFiles(dir: string, row: Pick<Row, "name" | "variants">) {
  for (const file of [row.name, ...row.variants.map((v) => v.name)]) rmSync(join(dir, file), { force: true });
}

const registering = new Map<string, Promise<number>>();

/**
 * Records the uploads made before the library existed (files in the folder with no row): in
 * the background at start; one run per folder at a time.
 * A file that cannot be read as an image is recorded without a size, never removed.
 */
export function registerExistingUploads(db: Db, dir: string): Promise<number> {
  const running = registering.get(dir);
  if (running) return running;
  const run = (async () => {
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => ORIGINAL.test(name) && isFinishedUpload(dir, name));
    } catch {
      return 0;
    }
    if (names.length === 0) return 0;
    const known = new Set(
      (await db.select({ name: media.name }).from(media).where(inArray(media.name, names))).map((r) => r.name),
    );
    let added = 0;
    for (const name of names) {
      if (known.has(name)) continue;
      const mime = CONTENT_TYPES[name.split(".").pop()!]!;
      const kind = UPLOAD_KINDS[mime]!.kind;
      let measured: Measured | null = null;
      if (kind === "image") measured = await measureImage(dir, name).catch(() => null);
      const stat = statSync(join(dir, name));
      const inserted = await db
        .insert(media)
        .values({
          name,
          mime,
          kind,
          size: stat.size,
          width: measured?.width ?? null,
          height: measured?.height ?? null,
          variants: measured?.variants ?? [],
          createdAt: stat.mtime,
        })
        .onConflictDoNothing()
        .returning({ id: media.id });
      added += inserted.length;
    }
    return added;
  })().finally(() => registering.delete(dir));
  registering.set(dir, run);
  return run;
}

interface Usable {
  kind: MediaUsage["kind"];
  title: string;
  href: string;
  fields: [field: string, value: string | null][];
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
    ...posts.map(
      (p): Usable => ({
        kind: "post",
        title: p.title,
        href: adminPath("posts", p.id),
        fields: [
          ["cover", p.cover],
          ["content", `${p.content}\n${p.markdown ?? ""}`],
        ],
      }),
    ),
    ...offers.map(
      (o): Usable => ({
        kind: "offer",
        title: o.title,
        href: adminPath("offers", o.id),
        fields: [
          ["image", o.image],
          ["video", o.video],
          ["description", o.description],
        ],
      }),
    ),
    ...products.map(
      (p): Usable => ({
        kind: "product",
        title: p.name,
        // Products are edited in a dialog over their list.
        href: "/admin/products",
        fields: [["image", p.image]],
      }),
    ),
    ...pages.map(
      (p): Usable => ({
        kind: "page",
        title: p.title,
        href: adminPath("pages", p.slug),
        fields: [["body", `${p.body}\n${p.markdown ?? ""}`]],
      }),
    ),
  ];
}

/**
 * Addresses in `text` as a browser resolves them, for finding uploads: percent escapes decoded
 * (`/uploads/%41b…`), `.` and `..` segments and doubled slashes removed (`/uploads/./x`), so
 * no other spelling of an upload's address hides that it is used.
 */
export function resolvedAddresses(text: string): string {
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
  const needle = `${UPLOADS}${idOf(name)}`;
  const found: MediaUsage[] = [];
  for (const record of records)
    for (const [field, value] of record.fields)
      if (value && resolvedAddresses(value).includes(needle))
        found.push({ kind: record.kind, title: record.title, field, href: record.href });
  return found;
}

function toItem(row: Row, records: Usable[]): MediaItem {
  const smallest = row.variants[0];
  return {
    id: row.id,
    name: row.name,
    url: `${UPLOADS}${row.name}`,
    mime: row.mime,
    kind: row.kind,
    size: row.size,
    width: row.width,
    height: row.height,
    alt: row.alt,
    thumbUrl: row.kind === "video" ? null : `${UPLOADS}${smallest?.name ?? row.name}`,
    variants: row.variants.map((v) => ({ url: `${UPLOADS}${v.name}`, width: v.width, height: v.height, size: v.size })),
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
export async function listMedia(db: Db): Promise<MediaItem[]> {
  const [rows, records] = await Promise.all([
    db.select().from(media).orderBy(desc(media.createdAt), desc(media.id)),
    usableRecords(db),
  ]);
  return rows.map((row) => toItem(row, records));
}

async function findRow(db: Db, id: number): Promise<Row> {
  const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1);
  if (!row) throw new HttpError(404, "No upload with that id.");
  return row;
}

/** One upload as the library lists it. */
export async function getMedia(db: Db, id: number): Promise<MediaItem> {
  return toItem(await findRow(db, id), await usableRecords(db));
}

export async function updateAlt(db: Db, id: number, alt: string): Promise<MediaItem> {
  await findRow(db, id);
  await db.update(media).set({ alt: alt.trim() }).where(eq(media.id, id));
  return getMedia(db, id);
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
 */
export async function deleteMedia(db: Db, dir: string, id: number, confirmed: boolean): Promise<void> {
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
  await db.delete(media).where(eq(media.id, id));
  removeFiles(dir, row);
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
    const srcset =
      row.variants.length === 0
        ? ""
        : [...row.variants.map((v) => `${UPLOADS}${v.name} ${v.width}w`), `${UPLOADS}${row.name} ${row.width}w`].join(
            ", ",
          );
    fits.set(`${UPLOADS}${row.name}`, { width: row.width, height: row.height, srcset });
  }
  return fits;
}
