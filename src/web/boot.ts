import type { DehydratedState } from "@tanstack/react-query";

export interface BootAssets {
  css: string;
  entry: string;
  /** Module chunks the current page needs, preloaded in <head>. */
  preload: string[];
}

/** What the server hands the client in the page: the query cache and the assets. */
export interface BootData {
  state: DehydratedState;
  assets: BootAssets;
  /** Set when the server rendered a page other than the one the path matches (the error page). */
  forcedPageId: string | null;
  /** The site's public address, for canonical links and social tags; null when none is known. */
  origin: string | null;
}

export const BOOT_ELEMENT_ID = "__boot";

/** JSON that is safe inside a <script> element. */
export function serializeBoot(data: BootData): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
