import { Elysia, t } from "elysia";
import type { Db } from "#server/db/types.ts";
import { withImageFits } from "#server/features/media/fits.ts";
import { serveRead } from "#server/lib/reads.ts";
import { moduleOffersRead } from "#shared/features/offers/reads.ts";
import { activeOffersFor, embedCodeFor } from "./service.ts";

// The embed document may run the affiliate's own scripts, so it gets its own policy: the
// CSP sandbox keeps it in an opaque origin (no cookies, no storage, no access to the
// page) even if someone opens it directly, and only this site may frame it.
const EMBED_CSP = [
  "sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox",
  "default-src * data: blob: 'unsafe-inline' 'unsafe-eval'",
  "frame-ancestors 'self'",
].join("; ");

export const offerReads = [
  serveRead(
    moduleOffersRead,
    async ({ db }, { id }, { fullRandom }) =>
      withImageFits(db, await activeOffersFor(db, Number(id), fullRandom === "true")),
    {
      cacheControl: "no-store",
    },
  ),
];

export function offerRoutes(db: Db) {
  return new Elysia({ name: "offers" }).get(
    "/embed/offer/:id",
    async ({ params }) => {
      const code = await embedCodeFor(db, Number(params.id));
      const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Sponsored offer</title><style>html,body{margin:0;padding:0;background:transparent;font-family:system-ui,sans-serif}</style></head><body>${code}</body></html>`;
      return new Response(html, {
        headers: {
          "content-type": "text/html; charset=utf-8",
          "content-security-policy": EMBED_CSP,
          "x-frame-options": "SAMEORIGIN",
          "cache-control": "no-store",
        },
      });
    },
    { params: t.Object({ id: t.String({ pattern: "^\\d{1,9}$" }) }) },
  );
}
