import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { type Analytics, clickCounts, isNavigation } from "#server/features/analytics/counting.ts";
import { followGo, placedInPost } from "./service.ts";

/**
 * GET /go/<slug>?p=<placement>: a 302 to the managed link's destination
 * (docs/product.md#managed-links). Never cached, never indexed; the address it sends to
 * comes from the database or the site's own route table, never from the request.
 */
export function linkRoutes(db: Db, analytics?: Analytics) {
  return new Elysia({ name: "links" }).get("/go/:slug", async ({ params, request, server }) => {
    const placement = new URL(request.url).searchParams.get("p");
    const { location, link } = await followGo(db, params.slug, placement);
    // A click on a link the site has (an unknown slug is not counted), followed in the
    // browser's window (another site's <img src="/go/..."> is no click).
    if (link && analytics?.enabled && isNavigation(request))
      await analytics.track(request, server, clickCounts(link, placement, await placedInPost(db, placement)));
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
