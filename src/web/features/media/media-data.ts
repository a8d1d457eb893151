import { useQuery } from "@tanstack/react-query";
import type { MediaItem, MediaUsage } from "#shared/features/media/contract.ts";
import { adminApi, uploadApi } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminSend } from "#web/admin/admin-queries.ts";

/** Every upload in the library, newest first, with where each is used. */
export function useMediaLibrary() {
  return useQuery({ ...adminQuery(adminApi.media), staleTime: 5_000 });
}

/**
 * Sends one file to the upload endpoint, which records it in the library: answers the new
 * upload as the library recorded it, once the library shows it. The body is the browser's
 * own multipart form of the file (the server streams it to disk).
 */
export function useUpload() {
  const send = useAdminSend();
  return (file: File) => {
    const form = new FormData();
    form.append("file", file);
    return send(uploadApi.post(undefined, { fetch: { body: form } }));
  };
}

/** What the upload endpoint answers: the new upload as the library recorded it. */
export type Uploaded = Awaited<ReturnType<ReturnType<typeof useUpload>>>;

/** "24 Nov 2026". */
export function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
}

const KIND: Record<MediaUsage["kind"], string> = { post: "Post", offer: "Offer", product: "Product", page: "Page" };

/** "Post “Lighting” (cover)". */
export function usageLabel(usage: MediaUsage): string {
  return `${KIND[usage.kind]} “${usage.title}” (${usage.field})`;
}

/** Whether an upload matches what was typed in the search: its alt text, name or where it is used. */
export function matchesSearch(item: MediaItem, query: string): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [item.alt, item.name, item.kind, ...item.usage.map(usageLabel)].join(" ").toLowerCase();
  return words.every((word) => text.includes(word));
}
