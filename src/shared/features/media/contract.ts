import { type Static, Type } from "@sinclair/typebox";

/** One place an upload is used, with the address of its editor in the admin. */
export interface MediaUsage {
  kind: "post" | "offer" | "product" | "page";
  /** The record's title or name. */
  title: string;
  /** Which of its fields: content, cover, image, video, description, body. */
  field: string;
  /** Its editor in the admin. */
  href: string;
}

/** One upload as the media library lists it. */
export interface MediaItem {
  id: number;
  name: string;
  /** The name the file had when it was uploaded (what the library shows and searches); null for older uploads. */
  originalName: string | null;
  url: string;
  /** The original is not in the uploads folder (removed by hand, or lost): the entry stays until deleted. */
  missing: boolean;
  mime: string;
  kind: "image" | "video";
  /** Bytes of the original file. */
  size: number;
  width: number | null;
  height: number | null;
  alt: string;
  /** The smallest copy (or the original when it has none); null for a video. */
  thumbUrl: string | null;
  variants: { url: string; width: number; height: number; size: number }[];
  createdAt: string;
  usage: MediaUsage[];
}

export const MediaAltInput = Type.Object({
  alt: Type.String({
    maxLength: 300,
    error: "The description (alt text) is at most 300 characters.",
  }),
});
export type MediaAltInput = Static<typeof MediaAltInput>;
