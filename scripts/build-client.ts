// Builds the browser bundle into dist/client: hashed, minified, split by page, plus a
// manifest the server reads to link the right files into each page.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { BunPlugin } from "bun";
import { errorPage, type PageDef, pages } from "#web/routes.ts";
import { buildInputs, STAMPS, stampBuild } from "./build-stamp.ts";
import { writeShareImages } from "./share-images.ts";

const root = join(import.meta.dir, "..");
const outdir = join(root, "dist", "client");
// Taken before anything is read: a source edited during the build leaves the stamp behind it.
const inputs = buildInputs();
rmSync(STAMPS.client, { force: true });
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

// Each page module is an entry point too, so its output file is known by name and its
// dynamic import() in the route table resolves to that same file.
// (A moved address has no module.)
const pageDefs = [...pages, errorPage].filter((p): p is PageDef => "load" in p);
const pageSources = [...new Set(pageDefs.map((p) => pageSource(p.load)))];

function pageSource(load: () => unknown): string {
  const match = /import\(["'](.+?)["']\)/.exec(load.toString());
  if (!match) throw new Error(`Cannot find the module of the page whose load() is ${load.toString()}`);
  return join(root, "src", "web", match[1]!);
}

/**
 * The shared contracts derive their schemas from the tables, which the browser builds with
 * SQLite's column helpers only: both dialects give the same schemas (src/server/db/columns.test.ts),
 * and PostgreSQL's half of drizzle stays out of the bundle.
 */
const sqliteColumnsOnly: BunPlugin = {
  name: "sqlite-columns-only",
  setup(build) {
    build.onResolve({ filter: /^#server\/db\/columns\.ts$/ }, () => ({
      path: join(root, "src/server/db/columns-sqlite.ts"),
    }));
  },
};

const result = await Bun.build({
  entrypoints: [join(root, "src/web/entry.client.tsx"), join(root, "src/web/styles/app.css"), ...pageSources],
  outdir: join(outdir, "assets"),
  target: "browser",
  format: "esm",
  splitting: true,
  // Fold small side-effect-free chunks into their parents: fewer requests, less per-file overhead.
  ...({ minChunkSize: 16384 } as object),
  minify: true,
  sourcemap: "none",
  naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
  // Bun.build does not set NODE_ENV; without this React's development build ships.
  define: { "process.env.NODE_ENV": '"production"' },
  plugins: [sqliteColumnsOnly],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}

const url = (path: string) => `/assets/${basename(path)}`;
const outputs = result.outputs.map((o) => ({
  path: o.path,
  kind: o.kind,
  size: o.size,
  text: () => o.text(),
  url: url(o.path),
}));
const entryOf = (source: string) => {
  const stem = basename(source).replace(/\.[tj]sx?$|\.css$/, "");
  // Exactly "<stem>-<hash>.<ext>": "blog" must not match "blog-post-<hash>.js".
  const exact = new RegExp(`^${stem.replace(/[.]/g, "\\.")}-[a-z0-9]+\\.(js|css)$`);
  const out = outputs.find((o) => (o.kind === "entry-point" || o.kind === "asset") && exact.test(basename(o.path)));
  if (!out) throw new Error(`No output for ${source}`);
  return out;
};

// Static imports of a built module, followed transitively, so <head> can preload them all.
const code = new Map<string, string>();
for (const o of outputs) if (o.path.endsWith(".js")) code.set(o.url, await o.text());
function closure(start: string, seen = new Set<string>()): string[] {
  if (seen.has(start)) return [];
  seen.add(start);
  const source = code.get(start) ?? "";
  for (const m of source.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[^"'();]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) {
    closure(`/assets/${m[1]}`, seen);
  }
  return [...seen];
}

const entry = entryOf("entry.client.tsx").url;
const entryDeps = new Set(closure(entry));
const manifest = {
  css: entryOf("app.css").url,
  entry,
  pages: Object.fromEntries(
    pageDefs.map((p) => [
      p.id,
      // The entry itself is linked by React's bootstrap module; everything else it needs is preloaded.
      [...new Set([...entryDeps, ...closure(entryOf(pageSource(p.load)).url)])].filter((f) => f !== entry),
    ]),
  ),
};
writeFileSync(join(outdir, "manifest.json"), JSON.stringify(manifest, null, 2));

// Compressed once here, at the highest levels, so the server starts without compressing.
for (const o of outputs) {
  if (!/\.(js|css)$/.test(o.path)) continue;
  const body = readFileSync(o.path);
  writeFileSync(`${o.path}.gz`, gzipSync(body, { level: 9 }));
  writeFileSync(`${o.path}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
}

// Each archetype's social card, served at /social/<archetype>.png (not hashed: the share
// address names it, so it is cached for an hour, not a year).
const cards = writeShareImages(join(outdir, "social"));

const sizes = outputs.map((o) => `${o.url} ${(o.size / 1024).toFixed(1)} KB`).join("\n  ");
stampBuild("client", inputs);
console.log(`Client bundle written to dist/client:\n  ${sizes}\n  ${cards.length} social cards in /social/`);
