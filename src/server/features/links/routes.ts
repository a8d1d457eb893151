import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { resolveGo } from "./service.ts";

/**
 * GET /go/<slug>?p=<placement>: a 302 to the managed link's destination
 * (docs/product.md#managed-links). Never cached, never indexed; the address it sends to
 * comes from the database or the site's own page table, never from the request.
 */
export function linkRoutes(db: Db) {
  return new Elysia({ name: "links" }).get("/go/:slug", async ({ params, request }) => {
    const placement = new URL(request.url).searchParams.get("p");
    const location = await resolveGo(db, params.slug, placement);
    return new Response(null, {
      status: 302,
      headers: {
        location,
        "cache-control": "private, no-store",
        "x-robots-tag": "noindex, nofollow",
      },
    });
  });
}
