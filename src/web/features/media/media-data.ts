import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import type { MediaItem, MediaUsage } from "#shared/features/media/contract.ts";
import { adminApi, uploadApi } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminSend } from "#web/admin/admin-queries.ts";
import { serverReason } from "#web/lib/query-client.ts";
import { toastError } from "#web/stores/toast.ts";

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

/**
 * A file input that uploads the file chosen in it: `busy` while it goes, a toast with the
 * server's reason (or `failure`) when it fails, and the input emptied after either, so the
 * same file can be chosen again. `send` answers the upload, or null when it failed.
 */
export function useUploadInput(failure: string) {
  const upload = useUpload();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  async function send(file: File): Promise<Uploaded | null> {
    setBusy(true);
    try {
      return await upload(file);
    } catch (error) {
      toastError(serverReason(error, failure), "Upload failed");
      return null;
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  }
  return { busy, input, send };
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
/** What the library calls an upload: the name it came with, else (an older upload) its stored name. */
export function shownName(item: Pick<MediaItem, "name" | "originalName">): string {
  return item.originalName ?? item.name;
}

export function matchesSearch(item: MediaItem, query: string): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [item.alt, item.originalName ?? "", item.name, item.kind, ...item.usage.map(usageLabel)]
    .join(" ")
    .toLowerCase();
  return words.every((word) => text.includes(word));
}
