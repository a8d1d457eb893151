import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { clientBundleDir, resourcePath } from "#server/resources.ts";

export interface Asset {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer> | null;
  brotli: Uint8Array<ArrayBuffer> | null;
  type: string;
  etag: string;
  /** Content-hashed names never change content, so they may be cached for a year. */
  immutable: boolean;
}

interface ClientManifest {
  css: string;
  entry: string;
  /** Page id -> the module files it loads (its chunk and that chunk's static imports). */
  pages: Record<string, string[]>;
}

export interface AssetStore {
  manifest: ClientManifest;
  get(pathname: string): Asset | undefined;
}

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  ico: "image/x-icon",
  mp4: "video/mp4",
  webm: "video/webm",
  ogg: "video/ogg",
  txt: "text/plain; charset=utf-8",
  json: "application/json",
  webmanifest: "application/manifest+json",
};

function walk(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

/**
 * The built client (dist/client, embedded in the executable) and public/, answered from
 * memory: each file is read (and gzipped where it pays) on its first request, not at start,
 * which would otherwise read and hash every file before the first page is served.
 */
export function loadAssets(clientDir = clientBundleDir(), publicDir = resourcePath("public")): AssetStore {
  const manifestPath = join(clientDir, "manifest.json");
  if (!existsSync(manifestPath)) {
    throw new Error(`The client bundle is missing (${manifestPath}). Run \`bun run build:client\` first.`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as ClientManifest;
  const read = (path: string) => (existsSync(path) ? new Uint8Array(readFileSync(path)) : null);
  const load = (root: string, rel: string, immutable: boolean): Asset => {
    const path = join(root, rel);
    const body = new Uint8Array(readFileSync(path));
    const ext = rel.slice(rel.lastIndexOf(".") + 1).toLowerCase();
    const type = TYPES[ext] ?? "application/octet-stream";
    const compressible = /^(text|application\/(json|manifest)|image\/svg)/.test(type) && body.length > 512;
    return {
      body,
      // The build writes .gz and .br beside the bundle; small public files are gzipped here, quickly.
      gzip: read(`${path}.gz`) ?? (compressible ? new Uint8Array(gzipSync(body, { level: 6 })) : null),
      brotli: read(`${path}.br`),
      type,
      etag: `"${Bun.hash(body).toString(36)}"`,
      immutable,
    };
  };
  /** Every servable path, and its file until it is loaded. */
  const files = new Map<string, Asset | { root: string; rel: string; immutable: boolean }>();
  for (const rel of walk(clientDir))
    if (rel !== "manifest.json" && !/\.(gz|br)$/.test(rel))
      files.set(`/${rel}`, { root: clientDir, rel, immutable: rel.startsWith("assets/") });
  if (existsSync(publicDir))
    for (const rel of walk(publicDir)) files.set(`/${rel}`, { root: publicDir, rel, immutable: false });
  return {
    manifest,
    get(pathname) {
      const entry = files.get(pathname);
      if (!entry || "body" in entry) return entry;
      const asset = load(entry.root, entry.rel, entry.immutable);
      files.set(pathname, asset);
      return asset;
    },
  };
}
