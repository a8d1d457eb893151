// The floor under every page's JavaScript: the smallest page React can hydrate, and the
// smallest one hydrated with the site's whole client stack, built as the client bundle is
// (browser, minified, production React) and gzipped as it is served.
// `bun bench/js-floor.ts` prints both; bench/run.ts adds them to RESULTS.md.
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export interface JsFloor {
  /** react and react-dom alone, hydrating one button. */
  react: number;
  /** With TanStack Query, wouter and zustand, as every page of the site hydrates. */
  stack: number;
}

async function gzippedBuild(entry: string): Promise<number> {
  const result = await Bun.build({
    entrypoints: [join(import.meta.dir, "js-floor", entry)],
    target: "browser",
    format: "esm",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) throw new AggregateError(result.logs, `Could not build bench/js-floor/${entry}`);
  const code = await result.outputs[0]!.arrayBuffer();
  return gzipSync(new Uint8Array(code), { level: 9 }).length;
}

export async function jsFloor(): Promise<JsFloor> {
  return { react: await gzippedBuild("react-only.tsx"), stack: await gzippedBuild("whole-stack.tsx") };
}

if (import.meta.main) {
  const floor = await jsFloor();
  console.log(`React alone: ${(floor.react / 1024).toFixed(1)} KB gzipped`);
  console.log(`React, TanStack Query, wouter and zustand: ${(floor.stack / 1024).toFixed(1)} KB gzipped`);
}
