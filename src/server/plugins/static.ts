import { Elysia } from "elysia";
import type { Asset, AssetStore } from "../ssr/assets.ts";

function serve(asset: Asset, request: Request): Response {
  const headers: Record<string, string> = {
    "content-type": asset.type,
    etag: asset.etag,
    "cache-control": asset.immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
    vary: "accept-encoding",
  };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  const gzip = asset.gzip && /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
  if (gzip) headers["content-encoding"] = "gzip";
  return new Response(gzip ? asset.gzip : asset.body, { headers });
}

/** Built client files under /assets/ and the files of public/ (favicon, robots), from memory. */
export function staticFiles(assets: AssetStore) {
  return new Elysia({ name: "static" })
    .get("/assets/*", ({ request, path }) => {
      const asset = assets.get(path);
      return asset ? serve(asset, request) : new Response("Not found", { status: 404 });
    })
    .get("/favicon.svg", ({ request, path }) => serve(assets.get(path)!, request))
    .get("/favicon.ico", ({ request }) => serve(assets.get("/favicon.svg")!, request));
}
