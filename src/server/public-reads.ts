import { blogReads } from "./features/blog/routes.ts";
import { courseReads } from "./features/course/routes.ts";
import { earningsReads } from "./features/earnings/routes.ts";
import { offerReads } from "./features/offers/routes.ts";
import { productReads } from "./features/products/routes.ts";
import { quizReads } from "./features/quiz/routes.ts";
import { settingsReads } from "./features/settings/routes.ts";
import { sitePageReads } from "./features/site-pages/routes.ts";
import type { ServedRead } from "./lib/reads.ts";

/**
 * Every public GET of the API that answers JSON. Each is served over HTTP and resolved
 * for server rendering from this one list (src/server/lib/reads.ts).
 */
export const publicReads: readonly ServedRead[] = [
  ...settingsReads,
  ...sitePageReads,
  ...quizReads,
  ...earningsReads,
  ...productReads,
  ...courseReads,
  ...offerReads,
  ...blogReads,
];
