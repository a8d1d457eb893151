import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { ANALYTICS_PERIODS } from "#shared/features/analytics/constants.ts";
import { readPeriod } from "#shared/features/analytics/report.ts";
import { analyticsCsv, analyticsReport } from "./reads.ts";

function period(query: Record<string, string | undefined>) {
  const days = readPeriod(query.days);
  if (days === null) throw new HttpError(400, `days must be one of ${ANALYTICS_PERIODS.join(", ")}.`);
  return days;
}

/** The analytics page's reads, mounted under /api/admin behind the admin guard (see app.ts). */
export function analyticsAdminRoutes(db: Db) {
  return new Elysia({ name: "analytics-admin" })
    .get("/analytics", ({ query }) => analyticsReport(db, period(query)))
    .get("/analytics.csv", async ({ query }) => {
      const { filename, body } = await analyticsCsv(db, period(query));
      return new Response(body, {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename=${filename}`,
          "cache-control": "private, no-store",
        },
      });
    });
}
