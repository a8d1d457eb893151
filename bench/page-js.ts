// The JavaScript each page loads, gzipped as served: React's bootstrap entry plus every
// module the page preloads (the build's manifest), from the .gz files the build wrote.
// `bun bench/page-js.ts` prints a table; bench/run.ts adds it to RESULTS.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";

interface Manifest {
  entry: string;
  pages: Record<string, string[]>;
}

export function pageJavaScript(
  clientDir = join(import.meta.dir, "..", "dist", "client"),
): { page: string; bytes: number }[] {
  const manifest = JSON.parse(readFileSync(join(clientDir, "manifest.json"), "utf8")) as Manifest;
  const size = (url: string) => readFileSync(join(clientDir, `${url}.gz`)).length;
  return Object.entries(manifest.pages).map(([page, preload]) => ({
    page,
    bytes: [...new Set([manifest.entry, ...preload])].reduce((sum, url) => sum + size(url), 0),
  }));
}

if (import.meta.main) {
  console.log("| page | JavaScript (gzipped) |\n| --- | ---: |");
  for (const { page, bytes } of pageJavaScript()) console.log(`| ${page} | ${(bytes / 1024).toFixed(1)} KB |`);
}
