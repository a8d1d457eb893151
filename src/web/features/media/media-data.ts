import { useQuery } from "@tanstack/react-query";
import type { MediaItem, MediaUsage } from "#shared/features/media/contract.ts";
import { ADMIN_API } from "#web/admin/admin-api.ts";
import { api } from "#web/lib/query-client.ts";

/** Every upload in the library, newest first, with where each is used. */
export function useMediaLibrary() {
  return useQuery<MediaItem[]>({ queryKey: [ADMIN_API.media], staleTime: 5_000 });
}

/** What the upload endpoint answers: the new upload as the library recorded it. */
export interface Uploaded {
  url: string;
  id: number;
  width: number | null;
  height: number | null;
  alt: string;
}

/** Sends one file to the upload endpoint; the server records it in the library. */
export async function uploadFile(file: File): Promise<Uploaded> {
  const form = new FormData();
  form.append("file", file);
  return api<Uploaded>("POST", ADMIN_API.upload, { form });
}

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
