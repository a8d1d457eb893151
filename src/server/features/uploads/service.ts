import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { newId } from "#server/lib/ids.ts";
import { HttpError } from "#server/plugins/errors.ts";

export const MB = 1024 * 1024;
/** What may be uploaded, recognised by content, and how big it may be. */
export const UPLOAD_KINDS: Record<string, { ext: string; kind: "image" | "video"; limit: number }> = {
  "image/png": { ext: "png", kind: "image", limit: 5 * MB },
  "image/jpeg": { ext: "jpg", kind: "image", limit: 5 * MB },
  "image/gif": { ext: "gif", kind: "image", limit: 5 * MB },
  "image/webp": { ext: "webp", kind: "image", limit: 5 * MB },
  "video/mp4": { ext: "mp4", kind: "video", limit: 100 * MB },
  "video/webm": { ext: "webm", kind: "video", limit: 100 * MB },
  "video/ogg": { ext: "ogg", kind: "video", limit: 100 * MB },
};
export const MAX_UPLOAD_BYTES = 100 * MB;
/** The multipart wrapper around the file adds a little. */
export const MAX_UPLOAD_REQUEST = MAX_UPLOAD_BYTES + 64 * 1024;

export const CONTENT_TYPES: Record<string, string> = Object.fromEntries(
  Object.entries(UPLOAD_KINDS).map(([type, { ext }]) => [ext, type]),
);
export const UPLOAD_NAME = /^[A-Za-z0-9_-]{22}\.(png|jpg|gif|webp|mp4|webm|ogg)$/;

/**
 * Stores one uploaded file under a name the server makes, after checking its bytes:
 * the name and type the client claims are ignored.
 */
export async function storeUpload(dir: string, file: File): Promise<{ url: string; type: string; size: number }> {
  if (file.size === 0) throw new HttpError(422, "The file is empty.");
  // The server names the file; a client name that tries to be a path is refused outright.
  if (/[\\/]|\.\./.test(file.name) || file.name.includes("\0"))
    throw new HttpError(422, "The file name must not contain a path.");
  if (file.size > MAX_UPLOAD_BYTES) throw new HttpError(413, "File must be less than 100MB");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const detected = await fileTypeFromBuffer(bytes);
  // file-type reads MP4 family files by their brand; anything ISO-media that is not MP4 is refused.
  const kind = detected ? UPLOAD_KINDS[detected.mime] : undefined;
  if (!detected || !kind) {
    throw new HttpError(
      415,
      "Only images (PNG, JPEG, GIF, WebP) and videos (MP4, WebM, Ogg) can be uploaded; this file's content is neither.",
    );
  }
  // A polyglot: valid image headers with markup inside, made to be run as HTML somewhere.
  if (
    kind.kind === "image" &&
    /<(script|html|svg|iframe|body|\?php)\b/i.test(new TextDecoder("latin1").decode(bytes))
  ) {
    throw new HttpError(415, "This image also contains markup and was refused.");
  }
  if (bytes.length > kind.limit) {
    throw new HttpError(413, kind.kind === "image" ? "Image must be less than 5MB." : "File must be less than 100MB");
  }
  mkdirSync(dir, { recursive: true });
  const name = `${newId()}.${kind.ext}`;
  await Bun.write(join(dir, name), bytes);
  return { url: `/uploads/${name}`, type: detected.mime, size: bytes.length };
}
