import { defineRead } from "#shared/read.ts";
import type { SitePage } from "./contract.ts";

export const sitePageRead = defineRead<SitePage | null>()("/api/pages/:slug", { slug: { maxLength: 64 } });
