import { serveRead } from "#server/lib/reads.ts";
import { sitePageRead } from "#shared/features/site-pages/reads.ts";
import { getSitePage } from "./service.ts";

export const sitePageReads = [serveRead(sitePageRead, ({ db, contact }, { slug }) => getSitePage(db, slug, contact))];
