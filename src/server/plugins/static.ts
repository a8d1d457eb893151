import { Elysia } from "elysia";
import { chooseEncoding, notAcceptable, storedCodings } from "#server/lib/accept-encoding.ts";
import type { Asset, AssetStore } from "#server/ssr/assets.ts";

/**
 * One byte range of a "bytes=" header; null when absent or not one we serve (another unit,
 * several ranges, bad syntax: the whole file is sent, as HTTP allows); "invalid" when it
 * lies outside the file (416).
 */
export function parseRange(header: string | null, size: number): { start: number; end: number } | "invalid" | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    // A suffix: the last N bytes.
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? "invalid" : { start, end };
}

function serve(asset: Asset, request: Request): Response {
  const headers: Record<string, string> = {
    "content-type": asset.type,
    etag: asset.etag,
    "cache-control": asset.immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
    vary: "accept-encoding",
    "accept-ranges": "bytes",
  };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  const range = parseRange(request.headers.get("range"), asset.body.length);
  if (range === "invalid") {
    return new Response(null, {
      status: 416,
      headers: { ...headers, "content-range": `bytes */${asset.body.length}` },
    });
  }
  if (range) {
    return new Response(asset.body.subarray(range.start, range.end + 1), {
      status: 206,
      headers: { ...headers, "content-range": `bytes ${range.start}-${range.end}/${asset.body.length}` },
    });
  }
  // Compressed once at start; sent in the coding the browser rates highest.
  const encoded = chooseEncoding(request.headers.get("accept-encoding"), storedCodings(asset));
  if (encoded === null) return notAcceptable();
  if (encoded !== "identity") headers["content-encoding"] = encoded;
  return new Response(encoded === "br" ? asset.brotli : encoded === "gzip" ? asset.gzip : asset.body, { headers });
}

/** A file the build did not make: a plain-text 404. */
const missing = () =>
  new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

/** Built client files under /assets/ and /social/, and the files of public/ (favicon, robots), from memory. */
export function staticFiles(assets: AssetStore) {
  return (
    new Elysia({ name: "static" })
      .get("/assets/*", ({ request, path }) => {
        const asset = assets.get(path);
        return asset ? serve(asset, request) : missing();
      })
      .get("/seed/*", ({ request, path }) => {
        const asset = assets.get(path);
        return asset ? serve(asset, request) : missing();
      })
      // Each archetype's social card, drawn by the build.
      .get("/social/*", ({ request, path }) => {
        const asset = assets.get(path);
        return asset ? serve(asset, request) : missing();
      })
      // Also reached as /favicon.svg/ (a trailing slash matches the same route).
      .get("/favicon.svg", ({ request }) => serve(assets.get("/favicon.svg")!, request))
      .get("/favicon-plain.svg", ({ request }) => serve(assets.get("/favicon-plain.svg")!, request))
      .get("/favicon.ico", ({ request }) => serve(assets.get("/favicon.svg")!, request))
  );
}
