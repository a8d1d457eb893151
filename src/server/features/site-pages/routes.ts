import { serveRead } from "#server/lib/reads.ts";
import { sitePageRead } from "#shared/features/site-pages/reads.ts";
import { getSitePage } from "./service.ts";

export const sitePageReads = [
  serveRead(sitePageRead, async ({ db, contact }, { slug }) => getSitePage(db, slug, await contact())),
];
