import { Elysia, t } from "elysia";
import type { PageRenderer } from "#server/ssr/render.tsx";

/**
 * The benchmark's ceiling: a page's bytes, rendered once and then served from memory by
 * this same server, so a page's speed can be compared with the fastest answer possible.
 * Mounted only when CAM_GUIDE_BENCH=1.
 */
export function benchRoutes(render: PageRenderer) {
  const cache = new Map<string, { body: Uint8Array<ArrayBuffer>; headers: Headers }>();
  return (
    new Elysia({ name: "bench" })
      .get(
        "/__bench/ceiling",
        async ({ query, request }) => {
          let hit = cache.get(query.path);
          if (!hit) {
            const page = await render(new Request(new URL(query.path, request.url)));
            hit = { body: new Uint8Array(await page.arrayBuffer()), headers: page.headers };
            cache.set(query.path, hit);
          }
          return new Response(hit.body, { headers: hit.headers });
        },
        { query: t.Object({ path: t.String({ pattern: "^/" }) }) },
      )
      // The same page rendered on every request, for the uncached figure.
      .get(
        "/__bench/render",
        ({ query, request }) => render(new Request(new URL(query.path, request.url), { method: "POST" })),
        {
          query: t.Object({ path: t.String({ pattern: "^/" }) }),
        },
      )
  );
}
