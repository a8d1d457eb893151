import { integer, json, serialId, table, text, textEnum, timestampNow } from "#server/db/columns.ts";

/** A smaller copy of an image, made when it was uploaded: served in srcset. */
export interface MediaVariant {
  /** The file's name in the uploads folder. */
  name: string;
  width: number;
  height: number;
  size: number;
}

/** Every upload (DATA_DIR/uploads/<name>): what the media library lists. */
export const media = table("media", {
  id: serialId("id"),
  name: text("name").notNull().unique(),
  mime: text("mime").notNull(),
  kind: textEnum("kind", ["image", "video"]).notNull(),
  size: integer("size").notNull(),
  width: integer("width"),
  height: integer("height"),
  alt: text("alt").notNull().default(""),
  /** The file's name on the computer it came from (shown and searched); null for uploads from before it was kept. */
  originalName: text("original_name"),
  /** SHA-256 of the original's bytes, hex: the same file uploaded again is the existing item. */
  sha256: text("sha256"),
  variants: json<MediaVariant[]>("variants").notNull().default([]),
  createdAt: timestampNow("created_at"),
});

/**
 * Files of deleted uploads still to be removed from the bucket, when uploads are kept in one
 * (S3_BUCKET): written in the same transaction that deletes the upload's row, and each removed
 * once the bucket has let its file go. What a failing bucket or a stop left is finished on a
 * timer and at the next start (features/media/registry.ts).
 */
export const uploadDeletions = table("upload_deletions", {
  /** The file's name under the bucket's uploads prefix (an original or a smaller copy). */
  name: text("name").primaryKey(),
  deletedAt: timestampNow("deleted_at"),
});
